/**
 * The per-call options of the client's methods, and their check. The checks themselves are the
 * package's one set (`util/options.ts`).
 */

import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {checkKeys, checkNumber, checkSignal, MAX_TIMER_MS, timerRule} from '../../util/options.js';
import type {Progress} from './request-terms.js';

/** A request timeout: 1 ms up to the timer cap, or `Infinity` to wait as long as the session lives. */
export const TIMEOUT_RULE: NumberRule = {
    ...timerRule(1, `a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, or Infinity for no timeout`),
    unbounded: true,
};

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

/** The longest a call whose timeout progress restarts may take, by default: 10 minutes. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

export interface CallToolOptions extends RequestOptions {
    /**
     * Receives the server's `notifications/progress` for this call. When it is given, or
     * `resetTimeoutOnProgress` is true, the request carries a `_meta.progressToken`. A callback that
     * throws fails the call with what it threw, and the call is cancelled.
     */
    onProgress?: (progress: Progress) => void;
    /**
     * `true`: each progress notification for this call starts `timeoutMs` over, so a call whose
     * server keeps reporting progress runs until it answers or `maxTotalTimeoutMs` is reached.
     * Default: `false` (progress does not extend `timeoutMs`).
     */
    resetTimeoutOnProgress?: boolean;
    /**
     * The whole call's bound in milliseconds, progress or not (a positive integer up to 2147483647,
     * or `Infinity`); reaching it rejects with an `McpTimeoutError` whose `bound` is
     * `'maxTotalTimeoutMs'`. Default: with `resetTimeoutOnProgress`, 600000 (10 minutes) or
     * `timeoutMs` when that is longer; without it, none (`timeoutMs` bounds the call).
     */
    maxTotalTimeoutMs?: number;
}

/** The checked per-call options, with the default timeout applied. */
export interface CheckedRequestOptions {
    signal: AbortSignal | undefined;
    timeoutMs: number;
    onProgress: ((progress: Progress) => void) | undefined;
    resetOnProgress: boolean;
    maxTotalMs: number | undefined;
}

const PLAIN = ['signal', 'timeoutMs'];
const WITH_PROGRESS = [...PLAIN, 'onProgress', 'resetTimeoutOnProgress', 'maxTotalTimeoutMs'];

export function checkRequestOptions(
    where: string,
    value: unknown,
    defaultTimeoutMs: number,
    withProgress: boolean,
): CheckedRequestOptions {
    checkKeys(where, value, withProgress ? WITH_PROGRESS : PLAIN);
    const options = (value ?? {}) as CallToolOptions;
    const onProgress = options.onProgress;
    if (onProgress !== undefined && typeof onProgress !== 'function') {
        throw new TypeError(`${where}: onProgress must be a function, got ${describe(onProgress)}`);
    }
    const reset = options.resetTimeoutOnProgress;
    if (reset !== undefined && typeof reset !== 'boolean') {
        throw new TypeError(`${where}: resetTimeoutOnProgress must be true or false, got ${describe(reset)}`);
    }
    const timeoutMs = checkNumber(where, 'timeoutMs', options.timeoutMs, defaultTimeoutMs, TIMEOUT_RULE);
    const resetOnProgress = reset === true;
    const fallback = resetOnProgress ? Math.max(DEFAULT_MAX_TOTAL_TIMEOUT_MS, timeoutMs) : undefined;
    const maxTotalMs =
        options.maxTotalTimeoutMs === undefined
            ? fallback
            : checkNumber(where, 'maxTotalTimeoutMs', options.maxTotalTimeoutMs, 0, TIMEOUT_RULE);
    return {signal: checkSignal(where, options.signal), timeoutMs, onProgress, resetOnProgress, maxTotalMs};
}
