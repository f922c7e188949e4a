/**
 * The per-request envelope of 2026-07-28: serving a request that carries it, reading its client
 * data from its `params._meta`, and answering requests that lack the envelope where only the
 * modern era can serve them.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY} from '../protocol/meta.js';
import {ASKING_METHODS, readReplay} from './asking/replay.js';
import type {ClientData} from './call.js';
import type {Era} from './era.js';
import {ErrorCode} from './errors.js';
import {fail} from './failures.js';
import {LOG_LEVEL_KEY, LOGGING_LEVELS, levelRank} from './logging.js';
import type {Dispatch} from './methods/dispatch.js';
import {refuseUnknownMethod} from './refusals.js';
import type {Implementation} from './types.js';

/** A modern request that names no client: handlers see an empty identity, as before `initialize`. */
const ANONYMOUS: Implementation = Object.freeze({name: '', version: ''});

const field = (key: string): string => `params._meta[${JSON.stringify(key)}]`;

/**
 * A request before `initialize` on a server that serves 2026-07-28 (`era`): served here when it
 * carries the modern envelope, answered here when it lacks it and only the modern era could serve
 * it (see `refuseClaimless`). Returns false when the legacy era is to serve it.
 */
export function serveModern(
    session: Dispatch,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    era: Era,
): boolean {
    const meta = params?._meta;
    if (!isObject(meta) || !Object.hasOwn(meta, PROTOCOL_VERSION_KEY)) {
        return refuseClaimless(session, id, method, params);
    }
    const entry = session.methods.modern.get(method);
    if (entry === undefined) {
        refuseUnknownMethod(session.output, id, method);
        return true;
    }
    const client = modernClient(session, id, meta);
    if (client === undefined) return true;
    if (ASKING_METHODS.has(method)) {
        const replay = readReplay(session.catalog.asking, method, params as JsonObject);
        if (typeof replay === 'string') {
            fail(session.output, id, ErrorCode.InvalidParams, replay);
            return true;
        }
        if (replay !== undefined) {
            entry.handle(session, id, params, era, {...client, replay});
            return true;
        }
    }
    entry.handle(session, id, params, era, client);
    return true;
}

/**
 * The client data of one modern request, or `undefined` once the request was answered with what is
 * wrong: `-32022` for a revision this server does not serve, `-32602` for a missing or malformed
 * required field.
 */
export function modernClient(session: Dispatch, id: RequestId, meta: JsonObject): ClientData | undefined {
    const version = meta[PROTOCOL_VERSION_KEY];
    if (typeof version !== 'string') {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `${field(PROTOCOL_VERSION_KEY)} must be a string naming the protocol revision, got ${describe(version)}`,
        );
        return undefined;
    }
    const versions = session.catalog.versions;
    if (!versions.modern.includes(version)) {
        const legacy = versions.legacy.includes(version)
            ? `; ${version} is served through "initialize", not per request`
            : '';
        fail(
            session.output,
            id,
            ErrorCode.UnsupportedProtocolVersion,
            `Unsupported protocol version ${JSON.stringify(version)}: this server serves ${versions.all.join(', ')}${legacy}`,
            {supported: versions.all, requested: version},
        );
        return undefined;
    }
    const capabilities = meta[CLIENT_CAPABILITIES_KEY];
    if (!isObject(capabilities)) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `${field(CLIENT_CAPABILITIES_KEY)} is required and must be an object ({} for none), got ${describe(capabilities)}`,
        );
        return undefined;
    }
    const info = meta[CLIENT_INFO_KEY];
    if (
        info !== undefined &&
        !(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string')
    ) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `${field(CLIENT_INFO_KEY)}, when given, must be an object with "name" and "version" strings, got ${describe(info)}`,
        );
        return undefined;
    }
    const client: ClientData = {
        clientInfo: (info as Implementation | undefined) ?? ANONYMOUS,
        clientCapabilities: capabilities,
        protocolVersion: version,
    };
    // Without the logging option the key means nothing here, and is left unread as before.
    if (!session.catalog.logging || !Object.hasOwn(meta, LOG_LEVEL_KEY)) return client;
    const level = meta[LOG_LEVEL_KEY];
    const rank = levelRank(level);
    if (rank === -1) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `${field(LOG_LEVEL_KEY)}, when given, must be one of ${LOGGING_LEVELS.join(', ')}, got ${describe(level)}`,
        );
        return undefined;
    }
    return {...client, logLevel: rank};
}

/**
 * A request without the modern envelope, before `initialize`, on a server that serves 2026-07-28.
 * Answers it and returns true where the legacy era cannot serve it: on a modern-only server every
 * such request, and `server/discover` (a modern method) on a dual-era server. Returns false to let
 * the legacy era answer.
 */
export function refuseClaimless(
    session: Dispatch,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
): boolean {
    const versions = session.catalog.versions;
    const modernOnly = versions.legacy.length === 0;
    if (modernOnly && method === 'initialize') {
        const requested = typeof params?.protocolVersion === 'string' ? params.protocolVersion : '';
        fail(
            session.output,
            id,
            ErrorCode.UnsupportedProtocolVersion,
            `This server serves only ${versions.all.join(', ')}, which has no "initialize": send each request ` +
                `with ${field(PROTOCOL_VERSION_KEY)} and ${field(CLIENT_CAPABILITIES_KEY)}`,
            {supported: versions.all, requested},
        );
        return true;
    }
    if (!session.methods.modern.has(method)) {
        if (!modernOnly) return false;
        refuseUnknownMethod(session.output, id, method);
        return true;
    }
    if (!modernOnly && method !== 'server/discover') return false;
    fail(
        session.output,
        id,
        ErrorCode.InvalidParams,
        `${method} needs ${field(PROTOCOL_VERSION_KEY)} and ${field(CLIENT_CAPABILITIES_KEY)} (protocol revision 2026-07-28)`,
    );
    return true;
}
