/**
 * Which protocol era a client speaks: the `versionNegotiation` option, its check, and what the
 * session learned once it negotiated.
 */
import {describe} from '../../util/describe.js';
import {checkNumber, MAX_TIMER_MS, timerRule} from '../../util/options.js';
import type {Implementation, JsonObject} from '../protocol/types.js';
import {MODERN_PROTOCOL_VERSION} from '../protocol/versions.js';

/**
 * `'legacy'`: `initialize` only, no probe. `'auto'`: probe `server/discover` first and fall back
 * to `initialize` when the server answers as a legacy one. `'2026-07-28'`: the modern era only.
 */
export type VersionNegotiation = 'legacy' | 'auto' | typeof MODERN_PROTOCOL_VERSION;

export const VERSION_NEGOTIATIONS: readonly VersionNegotiation[] = Object.freeze([
    'legacy',
    'auto',
    MODERN_PROTOCOL_VERSION,
]);

/** How long `'auto'` waits for the answer to its probe before taking the server for a legacy one. */
export const DEFAULT_DISCOVER_TIMEOUT_MS = 3_000;

/** The era a session negotiated and what it learned from the server while doing so. */
export interface Negotiated {
    era: 'legacy' | 'modern';
    protocolVersion: string;
    capabilities: JsonObject;
    serverInfo: Implementation;
    instructions: string | undefined;
    /** The whole `server/discover` result in the modern era, exactly as it arrived. */
    discovery: JsonObject | undefined;
}

export function checkVersionNegotiation(where: string, value: unknown): VersionNegotiation {
    if (value === undefined) return 'legacy';
    if (typeof value === 'string' && (VERSION_NEGOTIATIONS as readonly string[]).includes(value)) {
        return value as VersionNegotiation;
    }
    throw new RangeError(
        `${where}: versionNegotiation is ${describe(value)}; give 'legacy' (initialize only), 'auto' ` +
            `(probe server/discover, fall back to initialize) or '${MODERN_PROTOCOL_VERSION}' (that revision only)`,
    );
}

const DISCOVER_RULE = timerRule(1, `a whole number of milliseconds from 1 to ${MAX_TIMER_MS}`);

export function checkDiscoverTimeout(where: string, value: unknown): number {
    return checkNumber(where, 'discoverTimeoutMs', value, DEFAULT_DISCOVER_TIMEOUT_MS, DISCOVER_RULE);
}
