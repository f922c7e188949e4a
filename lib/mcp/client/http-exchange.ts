/**
 * The abort wiring of the HTTP transport: each exchange's own controller, tied to the caller's
 * signal and to the transport's lifetime, and waits that end when their signal aborts.
 */

/** One exchange's abort signal, aborted by the caller's signal or the transport's end. */
export interface LinkedExchange {
    readonly signal: AbortSignal;
    /** Removes the listeners the link added: called once the exchange is over. */
    unlink(): void;
}

/** Links a new exchange to the caller's `signal` (if any) and the transport's `lifetime`. */
export function linkExchange(signal: AbortSignal | undefined, lifetime: AbortSignal): LinkedExchange {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    const onEnd = () => controller.abort(lifetime.reason);
    signal?.addEventListener('abort', onAbort, {once: true});
    lifetime.addEventListener('abort', onEnd, {once: true});
    if (lifetime.aborted) onEnd();
    else if (signal?.aborted) onAbort();
    return {
        signal: controller.signal,
        unlink() {
            signal?.removeEventListener('abort', onAbort);
            lifetime.removeEventListener('abort', onEnd);
        },
    };
}

/** Waits `ms`, or rejects with the abort's reason. The timer is cleared on abort. */
export function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason);
        };
        const timer = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        signal.addEventListener('abort', onAbort, {once: true});
    });
}
