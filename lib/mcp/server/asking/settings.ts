/** The `asking` option: how long a question waits (legacy era) and how `requestState` is sealed (2026-07-28). */
import {isObject} from '../../../jsonrpc/records.js';
import {describe} from '../../../util/describe.js';
import {checkKnownKeys, checkNumber, timerRule} from '../../../util/options.js';
import {StateCodec} from './state.js';

export interface AskOptions {
    /**
     * Milliseconds a question sent to the client (2025-11-25 and earlier) waits for its answer
     * before it rejects with an `McpAskError` of code `'timeout'` and the client is told with
     * `notifications/cancelled`. Default: 300000 (five minutes: a person may be answering).
     */
    timeoutMs?: number;
    /**
     * The HMAC-SHA-256 key `requestState` is sealed with (2026-07-28): at least 32 bytes. Give the
     * same key to every process behind one load balancer so each accepts the others' state.
     * Default: a random key made once per process.
     */
    requestStateKey?: string | Uint8Array;
    /** Milliseconds a `requestState` stays valid after it was issued. Default: 600000 (ten minutes). */
    requestStateTtlMs?: number;
}

export interface AskSettings {
    readonly timeoutMs: number;
    readonly codec: StateCodec;
}

export const DEFAULT_ASK_TIMEOUT_MS = 300_000;
export const DEFAULT_STATE_TTL_MS = 600_000;

const WHERE = 'createMcpStdioServer';
const KEYS = ['timeoutMs', 'requestStateKey', 'requestStateTtlMs'];
const MILLISECONDS = timerRule(1, 'a whole number of milliseconds from 1 to 2147483647');

let defaults: AskSettings | undefined;

export function captureAsking(value: unknown): AskSettings {
    if (value === undefined) {
        defaults ??= {
            timeoutMs: DEFAULT_ASK_TIMEOUT_MS,
            codec: new StateCodec(undefined, DEFAULT_STATE_TTL_MS),
        };
        return defaults;
    }
    if (!isObject(value)) {
        throw new TypeError(
            `${WHERE}: asking must be an object {timeoutMs, requestStateKey, requestStateTtlMs}, got ${describe(value)}`,
        );
    }
    checkKnownKeys(WHERE, value, KEYS, 'asking.');
    const timeoutMs = checkNumber(
        WHERE,
        'asking.timeoutMs',
        value.timeoutMs,
        DEFAULT_ASK_TIMEOUT_MS,
        MILLISECONDS,
    );
    const ttl = checkNumber(
        WHERE,
        'asking.requestStateTtlMs',
        value.requestStateTtlMs,
        DEFAULT_STATE_TTL_MS,
        MILLISECONDS,
    );
    const given = value.requestStateKey;
    // Without a key of its own, the codec uses the process's, made on first use.
    if (given === undefined) return {timeoutMs, codec: new StateCodec(undefined, ttl)};
    let key: Buffer;
    if (typeof given === 'string') key = Buffer.from(given);
    else if (given instanceof Uint8Array) key = Buffer.from(given);
    else {
        throw new TypeError(
            `${WHERE}: asking.requestStateKey must be a string or a Uint8Array, got ${describe(given)}`,
        );
    }
    if (key.length < 32) {
        throw new RangeError(
            `${WHERE}: asking.requestStateKey has ${key.length} bytes; give at least 32 (crypto.randomBytes(32), say)`,
        );
    }
    return {timeoutMs, codec: new StateCodec(key, ttl)};
}
