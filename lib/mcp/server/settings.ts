/**
 * The scalar options: protocol revisions, limits and caching hints. Each is validated once at
 * construction, with a message that names the option and what it accepts.
 */

import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';

/** The revision this adapter answers by default. */
export const MCP_PROTOCOL_VERSION = '2025-11-25';

/** The first revision of the modern era: per-request `_meta`, no `initialize`. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Every revision the adapter can answer, newest first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
    MODERN_PROTOCOL_VERSION,
    '2025-11-25',
    '2025-06-18',
    '2025-03-26',
    '2024-11-05',
]);

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
    const ttlMs = value.ttlMs ?? fallback.ttlMs;
    if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) {
        throw new RangeError(
            `createMcpStdioServer: ${option}.ttlMs must be a whole number of milliseconds of at least 0, got ${describe(ttlMs)}`,
        );
    }
    const cacheScope = value.cacheScope ?? fallback.cacheScope;
    if (cacheScope !== 'public' && cacheScope !== 'private') {
        throw new RangeError(
            `createMcpStdioServer: ${option}.cacheScope must be "public" or "private", got ${describe(cacheScope)}`,
        );
    }
    return Object.freeze({ttlMs, cacheScope});
}

export function positiveInteger(option: string, value: unknown, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number') {
        throw new TypeError(`createMcpStdioServer: ${option} must be a number, got ${describe(value)}`);
    }
    if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`createMcpStdioServer: ${option} must be a positive integer, got ${value}`);
    }
    return value;
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
