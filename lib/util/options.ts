/**
 * Checks of what a caller passes, for every entry point (`createMcpStdioServer`, `connectMcpClient`
 * and the methods of what they return). Each failure is thrown at the call site and names the
 * option and what it accepts: a `TypeError` for the wrong kind of value, a `RangeError` for the
 * right kind out of range.
 */
import {isObject} from '../jsonrpc/records.js';
import {describe} from './describe.js';

/** The longest delay Node's timers keep: a longer one fires after 1 ms. Every timer option stops here. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The largest record (stdio line, HTTP body or SSE event) either side accepts by default: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** What a numeric option accepts: whole numbers from `min` to `max`, and `Infinity` when `unbounded`. */
export interface NumberRule {
    readonly min: number;
    readonly max: number;
    /** `Infinity` is accepted as it is: no timeout. */
    readonly unbounded?: boolean;
    /** The kind the `TypeError` asks for: "a number", "a number of milliseconds". */
    readonly kind: string;
    /** The range the `RangeError` states: "a whole number from 0 to 2147483647". */
    readonly expects: string;
    /** The `RangeError` shows the value described ("number -1") rather than bare ("-1"). */
    readonly described?: boolean;
}

/** A timer in milliseconds from `min`, capped where Node's timers stop. */
export function timerRule(min: number, expects: string): NumberRule {
    return {min, max: MAX_TIMER_MS, kind: 'a number of milliseconds', expects};
}

/** A numeric option: `fallback` when undefined, otherwise `value` checked against `rule`. */
export function checkNumber(
    where: string,
    key: string,
    value: unknown,
    fallback: number,
    rule: NumberRule,
): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number') {
        throw new TypeError(`${where}: ${key} must be ${rule.kind}, got ${describe(value)}`);
    }
    if (rule.unbounded === true && value === Number.POSITIVE_INFINITY) return value;
    if (!Number.isSafeInteger(value) || value < rule.min || value > rule.max) {
        const shown = rule.described === true ? describe(value) : String(value);
        // An `expects` that ends in its own clause ("…, or Infinity for no timeout") takes a semicolon.
        const separator = rule.unbounded === true ? ';' : ',';
        throw new RangeError(`${where}: ${key} must be ${rule.expects}${separator} got ${shown}`);
    }
    return value;
}

/**
 * Throws a `TypeError` naming the first key of `object` that is not in `names`: a misspelt option
 * would otherwise fall back to its default without a word. `prefix` names a nested object's keys.
 */
export function checkKnownKeys(where: string, object: object, names: readonly string[], prefix = ''): void {
    for (const key of Object.keys(object)) {
        if (!names.includes(key)) {
            throw new TypeError(
                `${where}: unknown option "${prefix}${key}"; the options are ${names.map((name) => prefix + name).join(', ')}`,
            );
        }
    }
}

/** Throws unless `value` is undefined or a plain object whose keys are all in `names`. */
export function checkKeys(where: string, value: unknown, names: readonly string[]): void {
    if (value === undefined) return;
    if (!isObject(value)) {
        throw new TypeError(`${where} needs an options object, got ${describe(value)}`);
    }
    checkKnownKeys(where, value, names);
}

export function checkSignal(where: string, value: unknown): AbortSignal | undefined {
    if (value === undefined || value instanceof AbortSignal) return value;
    throw new TypeError(`${where}: signal must be an AbortSignal, got ${describe(value)}`);
}

export function checkString(where: string, key: string, value: unknown): string {
    if (typeof value === 'string' && value !== '') return value;
    throw new TypeError(`${where}: ${key} must be a non-empty string, got ${describe(value)}`);
}

/**
 * The `cancelPending` of a server's or handler's `close(options)` (`receiver`: `'server'`,
 * `'handler'`): false when not given.
 */
export function cancelPendingOf(receiver: string, options: unknown): boolean {
    if (options !== undefined && !isObject(options)) {
        throw new TypeError(`${receiver}.close(options) needs an options object, got ${describe(options)}`);
    }
    const cancelPending = options?.cancelPending;
    if (cancelPending !== undefined && typeof cancelPending !== 'boolean') {
        throw new TypeError(
            `${receiver}.close(): cancelPending must be a boolean, got ${describe(cancelPending)}`,
        );
    }
    return cancelPending === true;
}
