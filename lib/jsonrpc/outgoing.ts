/**
 * Requests this side sends to its peer and waits on: ids of their own, a timeout (which progress
 * may restart, under a hard maximum), an abort that tells the peer with `notifications/cancelled`,
 * and the peer's responses routed back. A server asking its client and a client asking its server
 * use it alike. Transport-free: records go out through the side's writer, responses come in
 * through `receive` or `settle`.
 *
 * Each request is settled exactly once: by its answer, its timeout, its signal, a failed write, or
 * the end; whatever settles it clears its timers and removes its abort listener, so nothing
 * outlives it. Timers and abort listeners share the registry's handlers (the entry is its own abort
 * listener), so a request costs no closure beyond its promise's executor.
 */
import {LineWriter, readAnswer} from './outgoing-lines.js';
import type {OutgoingEvents, OutgoingTerms, OutgoingWriter, WaitingRequest} from './outgoing-types.js';
import type {JsonObject, RequestId} from './records.js';
import type {Response} from './response.js';

export interface OutgoingOptions {
    /** Starts every id, a string the peer's own ids never start with; without it ids are 1, 2, 3 … */
    readonly prefix?: string | undefined;
    /** Gives each request an `exchange` controller, aborted with the error when the request is given up. */
    readonly exchanges?: boolean | undefined;
    /** Remembers the ids of requests given up, so that `settle` drops their late answers. */
    readonly dropLateAnswers?: boolean | undefined;
}

/** One request waiting for its answer: what its writer sees, and its settling and timers. */
class PendingRequest<T extends OutgoingTerms = OutgoingTerms> implements WaitingRequest<T> {
    readonly id: RequestId;
    readonly method: string;
    readonly terms: T;
    /** Aborted with the request's error when it is given up (see `OutgoingOptions.exchanges`). */
    readonly exchange: AbortController | undefined;
    readonly resolve: (result: unknown) => void;
    readonly reject: (error: unknown) => void;
    readonly owner: OutgoingRequests<T>;
    timer: ReturnType<typeof setTimeout> | undefined = undefined;
    maxTimer: ReturnType<typeof setTimeout> | undefined = undefined;

    constructor(
        owner: OutgoingRequests<T>,
        id: RequestId,
        method: string,
        terms: T,
        resolve: (result: unknown) => void,
        reject: (error: unknown) => void,
        exchanges: boolean,
    ) {
        this.owner = owner;
        this.id = id;
        this.method = method;
        this.terms = terms;
        this.resolve = resolve;
        this.reject = reject;
        this.exchange = exchanges ? new AbortController() : undefined;
    }

    /** The request's signal aborted (the entry is its own listener). */
    handleEvent(): void {
        this.owner.abort(this);
    }
}

export class OutgoingRequests<T extends OutgoingTerms = OutgoingTerms> {
    readonly #prefix: string | undefined;
    readonly #exchanges: boolean;
    readonly #writer: OutgoingWriter<T>;
    readonly #waiting = new Map<RequestId, PendingRequest<T>>();
    /** Ids given up whose answer may still arrive (with `dropLateAnswers` only). */
    readonly #late: Set<RequestId> | undefined;
    #count = 0;
    #closed: unknown;
    readonly #onTimeout = (request: PendingRequest<T>): void => {
        const {timeoutMs} = request.terms;
        const error = this.#writer.timedOut(request.method, timeoutMs, 'timeoutMs');
        this.giveUp(request, error, this.#writer.reasons.timeout(timeoutMs));
    };
    readonly #onMaxTotal = (request: PendingRequest<T>): void => {
        const maxTotalMs = request.terms.maxTotalMs as number;
        const error = this.#writer.timedOut(request.method, maxTotalMs, 'maxTotalTimeoutMs');
        this.giveUp(request, error, this.#writer.reasons.maxTotal(maxTotalMs));
    };

    /**
     * `ids` is the id prefix (or the options); `events` writes whole lines (`send`), or is a writer
     * for a transport that takes message objects.
     */
    constructor(ids: string | OutgoingOptions, events: OutgoingEvents | OutgoingWriter<T>) {
        const options = typeof ids === 'string' ? {prefix: ids} : ids;
        this.#prefix = options.prefix;
        this.#exchanges = options.exchanges === true;
        this.#late = options.dropLateAnswers === true ? new Set() : undefined;
        this.#writer = 'send' in events ? new LineWriter<T>(events) : events;
    }

    /** Requests waiting for their answer. */
    get size(): number {
        return this.#waiting.size;
    }

    /** The waiting request `id` names (a progress token, say), if any. */
    get(id: RequestId): WaitingRequest<T> | undefined {
        return this.#waiting.get(id);
    }

    /**
     * Sends `method` with `params` and resolves with the peer's `result`. Rejects without writing
     * anything when the signal is already aborted or the registry was closed, and with what the
     * writer threw when it could not write the request.
     */
    request(method: string, params: JsonObject, terms: T): Promise<unknown> {
        const signal = terms.signal;
        if (signal?.aborted) return Promise.reject(signal.reason);
        if (this.#closed !== undefined) return Promise.reject(this.#closed);
        const count = this.#count + 1;
        const id = this.#prefix === undefined ? count : `${this.#prefix}${count}`;
        this.#count = count;
        return new Promise((resolve, reject) => {
            const request = new PendingRequest(this, id, method, terms, resolve, reject, this.#exchanges);
            this.#waiting.set(id, request);
            this.#arm(request, terms.timeoutMs - (terms.elapsedMs ?? 0));
            const maxTotalMs = terms.maxTotalMs;
            if (maxTotalMs !== undefined && maxTotalMs !== Number.POSITIVE_INFINITY) {
                request.maxTimer = setTimeout(this.#onMaxTotal, maxTotalMs, request);
            }
            signal?.addEventListener('abort', request, {once: true});
            try {
                this.#writer.writeRequest(request, params);
            } catch (error) {
                this.#retire(request);
                // Nothing reached the peer: the next request may take this id.
                if (this.#count === count) this.#count = count - 1;
                reject(error);
            }
        });
    }

    /** A response from the peer, read leniently: true when it answered a waiting request. */
    receive(message: JsonObject): boolean {
        return this.settle(readAnswer(message));
    }

    /**
     * A response as read: settles the request it answers and returns true, drops a late answer to
     * a request given up and returns true, or returns false when its id is none of this side's.
     */
    settle(response: Response): boolean {
        const id = response.id;
        if (id === undefined) return false;
        const request = this.#waiting.get(id);
        if (request === undefined) return this.#late?.delete(id) ?? false;
        this.#retire(request);
        if (response.kind === 'result') request.resolve(response.result);
        else if (response.kind === 'error')
            request.reject(this.#writer.remoteError(request.method, response.error));
        else request.reject(this.#writer.invalidResponse(request.method, response.problem));
        return true;
    }

    /** Starts the request's timeout over (progress arrived); its maximum, if any, stays. */
    restartTimer(waiting: WaitingRequest<T>): void {
        const request = this.#waiting.get(waiting.id);
        if (request === waiting && request !== undefined) this.#arm(request, request.terms.timeoutMs);
    }

    /** The request's signal aborted: gives it up with the signal's reason. */
    abort(waiting: WaitingRequest<T>): void {
        const reason = waiting.terms.signal?.reason;
        this.giveUp(waiting, reason, this.#writer.reasons.abort(reason));
    }

    /**
     * Gives a waiting request up: tells the peer with `reason` (unless it is not cancellable),
     * aborts its exchange, then rejects it with `error`. Does nothing once it is settled.
     */
    giveUp(waiting: WaitingRequest<T>, error: unknown, reason: string): void {
        const request = this.#waiting.get(waiting.id);
        if (request !== waiting || request === undefined) return;
        this.#retire(request);
        const terms = request.terms;
        if (terms.cancellable !== false) {
            this.#late?.add(request.id);
            this.#writer.writeCancel(request, reason);
        } else if (terms.dropLateAnswer === true) {
            this.#late?.add(request.id);
        }
        request.exchange?.abort(error);
        request.reject(error);
    }

    /** Rejects a waiting request with `error`, telling the peer nothing (its write failed, say). */
    fail(waiting: WaitingRequest<T>, error: unknown): void {
        const request = this.#waiting.get(waiting.id);
        if (request !== waiting || request === undefined) return;
        this.#retire(request);
        request.reject(error);
    }

    /**
     * Rejects every waiting request with `error`, and every later one, writing nothing. Their
     * timers go with them: once the owner ends, nothing here keeps the process alive.
     */
    rejectAll(error: unknown): void {
        this.#closed = error;
        for (const request of this.#drain()) request.reject(error);
    }

    /**
     * This side is closing: every waiting request that is cancellable is cancelled on the wire
     * with `reason` first, then each rejects with `errorFor(request)` (its exchange aborted with
     * it), and every later one with `closed`.
     */
    cancelAll(reason: string, errorFor: (request: WaitingRequest<T>) => unknown, closed: unknown): void {
        const all = this.#drain();
        for (const request of all) {
            if (request.terms.cancellable !== false) this.#writer.writeCancel(request, reason);
        }
        this.#closed = closed;
        for (const request of all) {
            const error = errorFor(request);
            request.exchange?.abort(error);
            request.reject(error);
        }
    }

    /** (Re)starts the request's timeout: `ms` from now, or none when its timeout is `Infinity`. */
    #arm(request: PendingRequest<T>, ms: number): void {
        if (request.timer !== undefined) clearTimeout(request.timer);
        if (request.terms.timeoutMs === Number.POSITIVE_INFINITY) return;
        request.timer = setTimeout(this.#onTimeout, Math.max(1, Math.ceil(ms)), request);
    }

    #retire(request: PendingRequest<T>): void {
        this.#waiting.delete(request.id);
        if (request.timer !== undefined) clearTimeout(request.timer);
        if (request.maxTimer !== undefined) clearTimeout(request.maxTimer);
        request.terms.signal?.removeEventListener('abort', request);
    }

    #drain(): PendingRequest<T>[] {
        const all = [...this.#waiting.values()];
        for (const request of all) this.#retire(request);
        this.#late?.clear();
        return all;
    }
}
