/**
 * The two protocol eras as small profile objects: everything a request's era changes, in one place.
 *
 * - Legacy (2025-11-25 and earlier): the client's data comes from `initialize`; results go on the
 *   wire exactly as built (a non-object `structuredContent` too: the contract passes every field
 *   through, and such a tool is the application's to keep off legacy clients); a missing resource
 *   is `-32002`.
 * - Modern (2026-07-28): each request carries its own version, capabilities and client identity in
 *   `params._meta`; every result carries `resultType: "complete"` and the server's identity in its
 *   `_meta`; the discovery and list results, and resource reads, carry the caching hints `ttlMs`
 *   and `cacheScope`; a missing resource is `-32602`.
 *
 * Which era serves a request is the session's decision (see `session.ts`); the era only says how.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {memoByObject} from '../../util/memo.js';
import {SERVER_INFO_KEY} from '../protocol/meta.js';
import type {Catalog} from './catalog.js';
import {ErrorCode} from './errors.js';
import type {HandlerMethod} from './types.js';

/** The serialized results of the methods whose answer never changes during a session. */
export interface FixedResults {
    readonly 'tools/list': string;
    readonly 'resources/list': string;
    readonly 'resources/templates/list': string;
    readonly 'prompts/list': string;
    /** 2026-07-28 only. */
    readonly 'server/discover'?: string;
}

export interface Era {
    readonly modern: boolean;
    /** The code for a `resources/read` of a URI the catalog does not have. */
    readonly resourceNotFound: number;
    readonly fixed: FixedResults;
    /**
     * A handler's result, already checked to be an object with its container array, as the JSON
     * of the wire's `result`, or the problem that keeps it off the wire.
     */
    encode(result: JsonObject, method: HandlerMethod): string | ResultProblem;
}

/** Why a handler's result cannot be answered: answered -32603, with `detail` in the diagnostic. */
export class ResultProblem {
    readonly problem: string;
    readonly detail: unknown;

    constructor(problem: string, detail: unknown) {
        this.problem = problem;
        this.detail = detail;
    }
}

/**
 * Each catalog's eras, built once: the HTTP transport makes a session for every modern request, and
 * an era's fixed results are the whole serialized catalog.
 */
export const legacyEra: (catalog: Catalog) => Era = memoByObject(buildLegacyEra);
export const modernEra: (catalog: Catalog) => Era = memoByObject(buildModernEra);

function buildLegacyEra(catalog: Catalog): Era {
    return {
        modern: false,
        resourceNotFound: ErrorCode.ResourceNotFound,
        fixed: {
            'tools/list': `{"tools":${catalog.toolsJson}}`,
            'resources/list': `{"resources":${catalog.resourcesJson}}`,
            'resources/templates/list': `{"resourceTemplates":${catalog.templatesJson}}`,
            'prompts/list': `{"prompts":${catalog.promptsJson}}`,
        },
        encode(result) {
            return serialize(result);
        },
    };
}

function buildModernEra(catalog: Catalog): Era {
    const meta = `"_meta":{${JSON.stringify(SERVER_INFO_KEY)}:${catalog.serverInfoJson}}`;
    const head = `{"resultType":"complete",${meta},`;
    const list = catalog.listCache;
    const listTail = `,"ttlMs":${list.ttlMs},"cacheScope":"${list.cacheScope}"}`;
    const readCache = catalog.readCache;
    const serverInfo = JSON.parse(catalog.serverInfoJson) as JsonObject;
    return {
        modern: true,
        resourceNotFound: ErrorCode.InvalidParams,
        fixed: {
            'tools/list': `${head}"tools":${catalog.toolsJson}${listTail}`,
            'resources/list': `${head}"resources":${catalog.resourcesJson}${listTail}`,
            'resources/templates/list': `${head}"resourceTemplates":${catalog.templatesJson}${listTail}`,
            'prompts/list': `${head}"prompts":${catalog.promptsJson}${listTail}`,
            'server/discover':
                `${head}"supportedVersions":${JSON.stringify(catalog.versions.all)},` +
                `"capabilities":${catalog.capabilitiesJson}` +
                (catalog.instructions === undefined
                    ? ''
                    : `,"instructions":${JSON.stringify(catalog.instructions)}`) +
                listTail,
        },
        encode(given, method) {
            let result = given;
            if (typeof given.toJSON === 'function') {
                // Decorate what actually goes on the wire, not the object that produces it.
                const json = serialize(given);
                if (typeof json !== 'string') return json;
                const plain: unknown = JSON.parse(json);
                if (!isObject(plain)) {
                    return new ResultProblem('its toJSON method did not produce a JSON object', given);
                }
                result = plain;
            }
            const resultType = result.resultType;
            if (resultType !== undefined && resultType !== 'complete') {
                return new ResultProblem(
                    `it claims "resultType": ${JSON.stringify(resultType)}, but this server answers only complete results`,
                    given,
                );
            }
            // The caching hints a resource read gets; no other result has them (nor an object for them).
            const extra: JsonObject | undefined = method === 'resources/read' ? {} : undefined;
            if (extra !== undefined) {
                const problem = cacheProblem(result);
                if (problem !== undefined) return new ResultProblem(problem, given);
                if (!Object.hasOwn(result, 'ttlMs')) extra.ttlMs = readCache.ttlMs;
                if (!Object.hasOwn(result, 'cacheScope')) extra.cacheScope = readCache.cacheScope;
            }
            const own = result._meta;
            if (own !== undefined && !isObject(own)) {
                return new ResultProblem('its "_meta" is not a JSON object', own);
            }
            if (own === undefined && resultType === undefined) {
                // The common case: splice the fixed head onto the serialized result, no copy.
                const json = serialize(result);
                if (typeof json !== 'string') return json;
                const body = json.slice(1, -1);
                const tail = extra === undefined ? '' : extraJson(extra);
                return body === '' ? `${head.slice(0, -1)}${tail}}` : `${head}${body}${tail}}`;
            }
            return serialize({
                resultType: 'complete',
                ...result,
                ...extra,
                _meta: {...own, [SERVER_INFO_KEY]: serverInfo},
            });
        },
    };
}

/** `,"ttlMs":…,"cacheScope":…` for the hints a resource handler left out; empty when it gave both. */
function extraJson(extra: JsonObject): string {
    const body = JSON.stringify(extra).slice(1, -1);
    return body === '' ? '' : `,${body}`;
}

function cacheProblem(result: JsonObject): string | undefined {
    const ttl = result.ttlMs;
    if (ttl !== undefined && !(Number.isSafeInteger(ttl) && (ttl as number) >= 0)) {
        return 'its "ttlMs" is not a whole number of milliseconds of at least 0';
    }
    const scope = result.cacheScope;
    if (scope !== undefined && scope !== 'public' && scope !== 'private') {
        return 'its "cacheScope" is neither "public" nor "private"';
    }
    return undefined;
}

/** JSON of a result object, or why it has none. */
function serialize(result: JsonObject): string | ResultProblem {
    let json: string | undefined;
    try {
        json = JSON.stringify(result);
    } catch (error) {
        return new ResultProblem('the result could not be serialized as JSON', error);
    }
    if (typeof json !== 'string') {
        return new ResultProblem(
            'the result serialized to nothing (a toJSON method returned undefined)',
            result,
        );
    }
    return json;
}
