/** A `resources/read` that no static resource serves, matched against the resource templates. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import type {ClientData} from '../call.js';
import {Call} from '../call.js';
import type {Era} from '../era.js';
import type {ReadResourceParams} from '../types.js';
import type {Dispatch} from './dispatch.js';

/** Runs the first template, in catalog order, that matches `uri`; false when none does. */
export function readTemplated(
    session: Dispatch,
    id: RequestId,
    params: JsonObject,
    uri: string,
    era: Era,
    client: ClientData,
): boolean {
    for (const entry of session.catalog.templates) {
        const variables = entry.template.match(uri);
        if (variables === undefined) continue;
        const call = new Call(id, 'resources/read', params, uri, era, client, session.calls, {
            variables: Object.freeze(variables),
        });
        const handler = entry.handler;
        session.calls.run(call, handler, params as ReadResourceParams);
        return true;
    }
    return false;
}
