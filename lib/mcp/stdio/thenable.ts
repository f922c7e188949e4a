/**
 * A handler's outcome that is a promise or another thenable: how the session learns that it
 * settled, whatever the thenable does.
 */

export function isThenable(value: unknown): value is PromiseLike<unknown> {
    return (
        (typeof value === 'object' || typeof value === 'function') &&
        value !== null &&
        typeof (value as {then?: unknown}).then === 'function'
    );
}

/**
 * Calls exactly one of `fulfilled` and `rejected`, once, when `outcome` settles; never throws.
 *
 * An ordinary native promise takes the reactions directly: the engine calls exactly one of them
 * once, and this skips a wrapper promise and its two adoption ticks. `then` can still throw before
 * registering them (a throwing constructor getter or species); that case, like every other
 * thenable, is adopted through the executor, which never throws here.
 */
export function observeSettlement(
    outcome: PromiseLike<unknown>,
    fulfilled: (value: unknown) => void,
    rejected: (error: unknown) => void,
): void {
    try {
        if (Object.getPrototypeOf(outcome) === Promise.prototype && !Object.hasOwn(outcome, 'then')) {
            (outcome as Promise<unknown>).then(fulfilled, rejected);
            return;
        }
    } catch {
        // Fall through to the executor.
    }
    new Promise((resolve) => resolve(outcome)).then(fulfilled, rejected);
}
