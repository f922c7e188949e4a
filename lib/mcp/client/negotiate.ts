/**
 * The era probe: `server/discover` with the modern envelope, and the reading of its outcome. A
 * `DiscoverResult` or a recognised modern error means a modern server; any other error, a refusal
 * of the HTTP exchange that carries no modern error, or no answer within the wait, means a legacy
 * one. No single error code decides it. A modern answer whose list of revisions names only ones
 * reached by `initialize` is the server saying which to use, so it is followed.
 */
import {isObject} from '../../jsonrpc/records.js';
import {SERVER_INFO_KEY} from '../protocol/meta.js';
import type {Implementation, JsonObject} from '../protocol/types.js';
import {LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION} from '../protocol/versions.js';
import type {Negotiated} from './era.js';
import {
    McpConnectionError,
    McpHttpError,
    McpProtocolViolationError,
    McpRemoteError,
    McpTimeoutError,
} from './errors.js';
import type {Requests} from './requests.js';

/** The errors only a modern server sends: header mismatch, missing capability, unsupported revision. */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([-32020, -32021, -32022]);
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type ProbeOutcome = {kind: 'modern'; negotiated: Negotiated} | {kind: 'legacy'; why: string};

export async function probe(
    requests: Requests,
    timeoutMs: number,
    signal: AbortSignal | undefined,
): Promise<ProbeOutcome> {
    let result: unknown;
    // A server may refuse the first attempt's revision and list it as supported all the same (a
    // gateway that lost a race, say): the probe is sent again, once, before that is believed.
    for (let attempt = 0; ; attempt++) {
        try {
            result = await requests.request(
                'server/discover',
                {},
                {signal, timeoutMs, cancellable: false, dropLateAnswer: true},
            );
            break;
        } catch (error) {
            if (attempt === 0 && offersModern(error)) continue;
            return {kind: 'legacy', why: legacyReason(error)};
        }
    }
    if (!isObject(result) || !Array.isArray(result.supportedVersions)) {
        return {kind: 'legacy', why: 'its server/discover result has no "supportedVersions" list'};
    }
    const versions = result.supportedVersions.filter(
        (version): version is string => typeof version === 'string',
    );
    if (!versions.includes(MODERN_PROTOCOL_VERSION)) {
        if (speaksLegacy(versions)) return {kind: 'legacy', why: servesLegacy(versions)};
        throw unsupported(versions);
    }
    const {capabilities, instructions} = result;
    if (!isObject(capabilities)) {
        throw new McpProtocolViolationError(
            'The MCP server\'s server/discover result has no "capabilities" object',
        );
    }
    return {
        kind: 'modern',
        negotiated: {
            era: 'modern',
            protocolVersion: MODERN_PROTOCOL_VERSION,
            capabilities,
            serverInfo: serverInfoOf(result) ?? {name: '', version: ''},
            instructions: typeof instructions === 'string' ? instructions : undefined,
            discovery: result,
        },
    };
}

/** The server identity a modern result carries in `_meta`, when it is well formed. */
export function serverInfoOf(result: JsonObject): Implementation | undefined {
    const meta = result._meta;
    const info = isObject(meta) ? meta[SERVER_INFO_KEY] : undefined;
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
        return undefined;
    return info as Implementation;
}

/** An unsupported-revision refusal whose `supported` list names the revision this client speaks. */
function offersModern(error: unknown): boolean {
    if (!(error instanceof McpRemoteError) || error.code !== UNSUPPORTED_PROTOCOL_VERSION) return false;
    const data = error.data;
    return (
        isObject(data) && Array.isArray(data.supported) && data.supported.includes(MODERN_PROTOCOL_VERSION)
    );
}

/**
 * Why the failed probe means a legacy server; rethrows what means a modern server or no server
 * at all (the caller's abort, a lost connection, an HTTP refusal other than 400, 404 or 405).
 */
function legacyReason(error: unknown): string {
    if (error instanceof McpRemoteError) {
        if (error.code === UNSUPPORTED_PROTOCOL_VERSION) {
            const data = error.data;
            const supported = isObject(data) && Array.isArray(data.supported) ? data.supported : [];
            if (supported.includes(MODERN_PROTOCOL_VERSION)) {
                throw new McpConnectionError(
                    `The MCP server refused ${MODERN_PROTOCOL_VERSION} twice while listing it as supported: ${error.message}`,
                    {cause: error},
                );
            }
            const versions = supported.filter((v): v is string => typeof v === 'string');
            // Its list names the revision to use: one reached by initialize is a fall back it asked for.
            if (speaksLegacy(versions)) return servesLegacy(versions);
            throw unsupported(versions, error);
        }
        if (MODERN_ERROR_CODES.has(error.code)) throw error;
        return `it answered server/discover with error ${error.code} (${JSON.stringify(error.message.slice(0, 200))})`;
    }
    if (error instanceof McpTimeoutError)
        return `it did not answer server/discover within ${error.timeoutMs} ms`;
    // A refused exchange reaches the request as the failure to send it, with the HTTP error as cause.
    const refused = error instanceof McpConnectionError ? error.cause : error;
    if (refused instanceof McpHttpError && [400, 404, 405].includes(refused.status ?? 0)) {
        return `it refused server/discover with HTTP ${refused.status} and no modern JSON-RPC error`;
    }
    throw error;
}

function speaksLegacy(versions: readonly string[]): boolean {
    return versions.some((version) => LEGACY_PROTOCOL_VERSIONS.includes(version));
}

function servesLegacy(versions: readonly string[]): string {
    return `it serves ${versions.join(', ')}, which this client reaches by initialize`;
}

function unsupported(versions: readonly string[], cause?: unknown): McpConnectionError {
    return new McpConnectionError(
        `The MCP server serves the modern era but not ${MODERN_PROTOCOL_VERSION} (it serves ${versions.join(', ') || 'no revision it named'}); ` +
            'this client speaks no other modern revision',
        cause === undefined ? undefined : {cause},
    );
}
