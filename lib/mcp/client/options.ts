/**
 * Checks of what a caller passes, shared by `connectMcpClient` and the client's methods. Every
 * failure is a `TypeError` (wrong kind of value) or a `RangeError` (right kind, out of range),
 * thrown at the call site and naming the option and what it accepts.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {Progress} from './requests.js';

/** The longest delay Node's timers keep; a longer one would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** The options every request method takes. */
export interface RequestOptions {
    /** Aborting it rejects the call with `signal.reason` and sends `notifications/cancelled`. */
    signal?: AbortSignal;
    /**
     * How long to wait for the answer, in milliseconds: a positive integer up to 2147483647, or
     * `Infinity` to wait as long as the session lives. Default: the client's `listTimeoutMs` or
     * `callTimeoutMs`.
     */
    timeoutMs?: number;
}

export interface CallToolOptions extends RequestOptions {
    /**
     * Receives the server's `notifications/progress` for this call. Only when it is given does the
     * request carry a `_meta.progressToken`. Progress does not extend `timeoutMs`. A callback that
     * throws fails the call with what it threw, and the call is cancelled.
     */
    onProgress?: (progress: Progress) => void;
}

/** Throws unless `value` is undefined or a plain object whose keys are all in `names`. */
export function checkKeys(where: string, value: unknown, names: readonly string[]): void {
    if (value === undefined) return;
    if (!isObject(value)) {
        throw new TypeError(`${where} needs an options object, got ${describe(value)}`);
    }
    for (const key of Object.keys(value)) {
        if (!names.includes(key)) {
            throw new TypeError(`${where}: unknown option "${key}"; the options are ${names.join(', ')}`);
        }
    }
}

/** A timeout in milliseconds: `fallback` when undefined. */
export function checkTimeout(where: string, key: string, value: unknown, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number') {
        throw new TypeError(`${where}: ${key} must be a number of milliseconds, got ${describe(value)}`);
    }
    if (value === Number.POSITIVE_INFINITY) return value;
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
        throw new RangeError(
            `${where}: ${key} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, ` +
                `or Infinity for no timeout; got ${value}`,
        );
    }
    return value;
}

/** A positive integer count (bytes, milliseconds of grace): `fallback` when undefined. */
export function checkCount(
    where: string,
    key: string,
    value: unknown,
    fallback: number,
    max: number,
): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number') {
        throw new TypeError(`${where}: ${key} must be a number, got ${describe(value)}`);
    }
    if (!Number.isSafeInteger(value) || value < 0 || value > max) {
        throw new RangeError(`${where}: ${key} must be a whole number from 0 to ${max}, got ${value}`);
    }
    return value;
}

export function checkSignal(where: string, value: unknown): AbortSignal | undefined {
    if (value === undefined || value instanceof AbortSignal) return value;
    throw new TypeError(`${where}: signal must be an AbortSignal, got ${describe(value)}`);
}

export function checkString(where: string, key: string, value: unknown): string {
    if (typeof value === 'string' && value !== '') return value;
    throw new TypeError(`${where}: ${key} must be a non-empty string, got ${describe(value)}`);
}

/** The checked per-call options, with the default timeout applied. */
export interface CheckedRequestOptions {
    signal: AbortSignal | undefined;
    timeoutMs: number;
    onProgress: ((progress: Progress) => void) | undefined;
}

export function checkRequestOptions(
    where: string,
    value: unknown,
    defaultTimeoutMs: number,
    withProgress: boolean,
): CheckedRequestOptions {
    checkKeys(where, value, withProgress ? ['signal', 'timeoutMs', 'onProgress'] : ['signal', 'timeoutMs']);
    const options = (value ?? {}) as CallToolOptions;
    const onProgress = options.onProgress;
    if (onProgress !== undefined && typeof onProgress !== 'function') {
        throw new TypeError(`${where}: onProgress must be a function, got ${describe(onProgress)}`);
    }
    return {
        signal: checkSignal(where, options.signal),
        timeoutMs: checkTimeout(where, 'timeoutMs', options.timeoutMs, defaultTimeoutMs),
        onProgress,
    };
}
