/**
 * The methods that open or probe a connection: `initialize` and `ping` (legacy era) and
 * `server/discover` (2026-07-28).
 */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {isObject, resultRecord} from '../../../jsonrpc/records.js';
import type {Era} from '../era.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {Implementation} from '../types.js';
import type {Dispatch} from './dispatch.js';

export function initialize(session: Dispatch, id: RequestId, params: JsonObject | undefined): void {
    if (session.isInitialized) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidRequest,
            'The session is already initialized: send "initialize" only once',
        );
        return;
    }
    if (
        params === undefined ||
        typeof params.protocolVersion !== 'string' ||
        !isObject(params.capabilities) ||
        !isObject(params.clientInfo)
    ) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            'initialize needs params with "protocolVersion" (a string), "capabilities" (an object) ' +
                'and "clientInfo" (an object)',
        );
        return;
    }
    // A requested revision this server answers is echoed; any other gets its preferred one, which
    // the client accepts or disconnects. 2026-07-28 is not a revision `initialize` can choose.
    const versions = session.catalog.versions.legacy;
    const requested = params.protocolVersion;
    const protocolVersion = versions.includes(requested) ? requested : (versions[0] as string);
    session.initialized({
        clientInfo: params.clientInfo as Implementation,
        clientCapabilities: params.capabilities,
        protocolVersion,
    });
    session.output.send(resultRecord(id, session.catalog.initializeResult(protocolVersion)));
}

export function ping(session: Dispatch, id: RequestId): void {
    session.output.send(resultRecord(id, '{}'));
}

export function serverDiscover(session: Dispatch, id: RequestId, _params: unknown, era: Era): void {
    session.output.send(resultRecord(id, era.fixed['server/discover'] as string));
}
