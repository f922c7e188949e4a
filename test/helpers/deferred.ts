/** A promise with its settle functions, for handlers a test finishes by hand. */
export interface Deferred<T> {
    promise: Promise<T>;
    resolve(value: T): void;
    reject(reason: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
    let resolve!: (value: T) => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
    });
    return {promise, resolve, reject};
}

/**
 * Hands out one deferred per call, in call order, and announces each call: a test awaits
 * `started(n)` to know that n calls are running.
 */
export class Gate<Context = unknown> {
    readonly calls: {args: unknown; context: Context; done: Deferred<unknown>}[] = [];
    #waiters: {count: number; resolve: () => void}[] = [];

    readonly handler = (args: unknown, context: Context): Promise<unknown> => {
        const done = deferred<unknown>();
        this.calls.push({args, context, done});
        for (const waiter of this.#waiters.filter((w) => this.calls.length >= w.count)) {
            waiter.resolve();
        }
        this.#waiters = this.#waiters.filter((w) => this.calls.length < w.count);
        return done.promise;
    };

    started(count: number): Promise<void> {
        if (this.calls.length >= count) return Promise.resolve();
        return new Promise((resolve) => this.#waiters.push({count, resolve}));
    }

    call(index: number): {args: unknown; context: Context; done: Deferred<unknown>} {
        const call = this.calls[index];
        if (call === undefined) throw new Error(`call ${index} has not started`);
        return call;
    }
}
