/**
 * The per-call options of the client's methods, and their check. The checks themselves are the
 * package's one set (`util/options.ts`).
 */

import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {checkKeys, checkNumber, checkSignal, MAX_TIMER_MS, timerRule} from '../../util/options.js';
import type {Progress} from './requests.js';

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

export interface CallToolOptions extends RequestOptions {
    /**
     * Receives the server's `notifications/progress` for this call. Only when it is given does the
     * request carry a `_meta.progressToken`. Progress does not extend `timeoutMs`. A callback that
     * throws fails the call with what it threw, and the call is cancelled.
     */
    onProgress?: (progress: Progress) => void;
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
        timeoutMs: checkNumber(where, 'timeoutMs', options.timeoutMs, defaultTimeoutMs, TIMEOUT_RULE),
        onProgress,
    };
}
