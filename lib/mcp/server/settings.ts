/**
 * The scalar options: protocol revisions, limits and caching hints. Each is validated once at
 * construction, with a message that names the option and what it accepts.
 */

import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {checkNumber} from '../../util/options.js';
import {MCP_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION} from '../protocol/versions.js';

/** The revisions a server answers, split by era, each list in the order the option gave. */
export interface Versions {
    readonly all: readonly string[];
    readonly legacy: readonly string[];
    readonly modern: readonly string[];
}

/** The caching hints of a 2026-07-28 result. */
export interface CacheHints {
    readonly ttlMs: number;
    readonly cacheScope: 'public' | 'private';
}

/** Lists and discovery: the catalog is fixed for the server's life and the same for every caller. */
export const DEFAULT_LIST_CACHE: CacheHints = Object.freeze({ttlMs: 300_000, cacheScope: 'public'});

/** Resource reads: a handler's content may change and may be the caller's own. */
export const DEFAULT_READ_CACHE: CacheHints = Object.freeze({ttlMs: 0, cacheScope: 'private'});

export function captureVersions(value: unknown): Versions {
    if (value === undefined) return split([MCP_PROTOCOL_VERSION]);
    if (!Array.isArray(value) || value.length === 0) {
        throw new TypeError(
            `createMcpStdioServer: protocolVersions must be a non-empty array of revisions, got ${describe(value)}`,
        );
    }
    const seen = new Set<string>();
    for (const version of value) {
        if (typeof version !== 'string' || !MCP_PROTOCOL_VERSIONS.includes(version)) {
            throw new RangeError(
                `createMcpStdioServer: protocolVersions has ${describe(version)}; ` +
                    `the revisions this adapter serves are ${MCP_PROTOCOL_VERSIONS.join(', ')}`,
            );
        }
        if (seen.has(version)) {
            throw new RangeError(`createMcpStdioServer: protocolVersions lists "${version}" twice`);
        }
        seen.add(version);
    }
    return split([...seen]);
}

function split(versions: string[]): Versions {
    return Object.freeze({
        all: Object.freeze(versions),
        legacy: Object.freeze(versions.filter((version) => version !== MODERN_PROTOCOL_VERSION)),
        modern: Object.freeze(versions.filter((version) => version === MODERN_PROTOCOL_VERSION)),
    });
}

const WHERE = 'createMcpStdioServer';

const POSITIVE_INTEGER: NumberRule = {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    kind: 'a number',
    expects: 'a positive integer',
};

/** A caching hint for the client, not a timer of ours: any whole number of milliseconds. */
const TTL_RULE: NumberRule = {
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    kind: 'a number of milliseconds',
    expects: 'a whole number of milliseconds of at least 0',
    described: true,
};

const CACHE_KEYS = new Set(['ttlMs', 'cacheScope']);

export function captureCache(option: string, value: unknown, fallback: CacheHints): CacheHints {
    if (value === undefined) return fallback;
    if (!isObject(value)) {
        throw new TypeError(
            `createMcpStdioServer: ${option} must be an object {ttlMs, cacheScope}, got ${describe(value)}`,
        );
    }
    for (const key of Object.keys(value)) {
        if (!CACHE_KEYS.has(key)) {
            throw new TypeError(
                `createMcpStdioServer: ${option} has the unknown key "${key}"; its keys are ttlMs and cacheScope`,
            );
        }
    }
    // `null` keeps the default, as `undefined` does.
    const ttlMs = checkNumber(WHERE, `${option}.ttlMs`, value.ttlMs ?? undefined, fallback.ttlMs, TTL_RULE);
    const cacheScope = value.cacheScope ?? fallback.cacheScope;
    if (cacheScope !== 'public' && cacheScope !== 'private') {
        throw new RangeError(
            `createMcpStdioServer: ${option}.cacheScope must be "public" or "private", got ${describe(cacheScope)}`,
        );
    }
    return Object.freeze({ttlMs, cacheScope});
}

/** A size or a count of the server's options: `fallback` when undefined. */
export function positiveInteger(option: string, value: unknown, fallback: number): number {
    return checkNumber(WHERE, option, value, fallback, POSITIVE_INTEGER);
}

export function toJson(value: unknown, label: string): string {
    let json: string | undefined;
    try {
        json = JSON.stringify(value);
    } catch (error) {
        throw new TypeError(
            `createMcpStdioServer: ${label} cannot be serialized as JSON (${(error as Error).message}); ` +
                'supply JSON-serializable protocol values',
            {cause: error},
        );
    }
    if (json === undefined) {
        // A toJSON method returned undefined: there is nothing to put on the wire.
        throw new TypeError(
            `createMcpStdioServer: ${label} cannot be serialized as JSON (it serialized to nothing); ` +
                'supply JSON-serializable protocol values',
        );
    }
    return json;
}

/** The entries of an array option with their indexes; none when the option is absent. */
export function entries<Entry>(option: string, value: unknown): [number, Entry][] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
        throw new TypeError(`createMcpStdioServer: ${option} must be an array, got ${describe(value)}`);
    }
    // Array.from visits holes too (as undefined), so a sparse array is reported by its index.
    return Array.from(value, (entry, index) => [index, entry as Entry]);
}
