/**
 * Requests this side sends to its peer and waits on: ids from a prefix of their own, a timeout, an
 * abort that tells the peer with `notifications/cancelled`, and the peer's responses routed back.
 * Transport-free: records go out through `OutgoingEvents.send`, responses come in through
 * `receive`. A server asking its client and a client asking its server use it alike.
 */
import type {JsonObject, RequestId} from './records.js';
import {isObject} from './records.js';

/** The error object of a JSON-RPC error response, as the peer sent it. */
export interface RemoteErrorObject {
    readonly code: number;
    readonly message: string;
    readonly data?: unknown;
}

export interface OutgoingEvents {
    /** Writes one whole record, line feed included; `related` is the request's `related` term. */
    send(record: string, related: RequestId | undefined): void;
    /** The error a request rejects with when the peer did not answer within its timeout. */
    timedOut(method: string, timeoutMs: number): Error;
    /** The error a request rejects with when the peer answered with a JSON-RPC error. */
    remoteError(method: string, error: RemoteErrorObject): Error;
    /** The error a request rejects with when the peer's answer is not a valid response. */
    invalidResponse(method: string, problem: string): Error;
}

export interface OutgoingTerms {
    /** Milliseconds to wait for the answer before giving up (and telling the peer so). */
    readonly timeoutMs: number;
    /** Aborting it gives up the request, tells the peer, and rejects with its reason. */
    readonly signal?: AbortSignal | undefined;
    /** The peer's request this one is made for, handed to `send` with its records. */
    readonly related?: RequestId | undefined;
}

interface Waiting {
    readonly method: string;
    readonly resolve: (result: unknown) => void;
    readonly reject: (error: unknown) => void;
    readonly related: RequestId | undefined;
    timer: ReturnType<typeof setTimeout> | undefined;
    signal: AbortSignal | undefined;
    onAbort: (() => void) | undefined;
}

export class OutgoingRequests {
    readonly #prefix: string;
    readonly #events: OutgoingEvents;
    readonly #waiting = new Map<string, Waiting>();
    #next = 1;
    #closed: unknown;

    /** `prefix` starts every id this side sends: a string the peer's own ids never start with. */
    constructor(prefix: string, events: OutgoingEvents) {
        this.#prefix = prefix;
        this.#events = events;
    }

    /** Requests waiting for their answer. */
    get size(): number {
        return this.#waiting.size;
    }

    /**
     * Sends `method` with `params` and resolves with the peer's `result`. Rejects without writing
     * anything when the signal is already aborted or `rejectAll` was called.
     */
    request(method: string, params: JsonObject, terms: OutgoingTerms): Promise<unknown> {
        const signal = terms.signal;
        if (signal?.aborted) return Promise.reject(signal.reason);
        if (this.#closed !== undefined) return Promise.reject(this.#closed);
        const id = `${this.#prefix}${this.#next}`;
        let record: string;
        try {
            record = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}\n`;
        } catch (error) {
            return Promise.reject(error);
        }
        this.#next += 1;
        return new Promise((resolve, reject) => {
            const waiting: Waiting = {
                method,
                resolve,
                reject,
                related: terms.related,
                timer: undefined,
                signal,
                onAbort: undefined,
            };
            this.#waiting.set(id, waiting);
            waiting.timer = setTimeout(() => {
                this.#giveUp(id, `No answer within ${terms.timeoutMs} ms`);
                reject(this.#events.timedOut(method, terms.timeoutMs));
            }, terms.timeoutMs);
            if (signal !== undefined) {
                waiting.onAbort = () => {
                    this.#giveUp(id, reasonText(signal.reason));
                    reject(signal.reason);
                };
                signal.addEventListener('abort', waiting.onAbort, {once: true});
            }
            this.#events.send(record, terms.related);
        });
    }

    /**
     * A response from the peer: settles the request it answers and returns true, or returns false
     * when its id is not one this side is waiting on.
     */
    receive(message: JsonObject): boolean {
        const id = message.id;
        if (typeof id !== 'string') return false;
        const waiting = this.#waiting.get(id);
        if (waiting === undefined) return false;
        this.#retire(id, waiting);
        const error = message.error;
        if (Object.hasOwn(message, 'error')) {
            if (isObject(error) && Number.isSafeInteger(error.code) && typeof error.message === 'string') {
                waiting.reject(
                    this.#events.remoteError(waiting.method, error as unknown as RemoteErrorObject),
                );
            } else {
                waiting.reject(
                    this.#events.invalidResponse(
                        waiting.method,
                        'its "error" is not an object with an integer "code" and a "message" string',
                    ),
                );
            }
        } else {
            waiting.resolve(message.result);
        }
        return true;
    }

    /**
     * Rejects every waiting request with `error`, and every later one, writing nothing. Their
     * timers go with them: once the owner ends, nothing here keeps the process alive.
     */
    rejectAll(error: unknown): void {
        this.#closed = error;
        for (const [id, waiting] of this.#waiting) {
            this.#retire(id, waiting);
            waiting.reject(error);
        }
    }

    /** Stops waiting on `id` and tells the peer, which may stop working on it. */
    #giveUp(id: string, reason: string): void {
        const waiting = this.#waiting.get(id);
        if (waiting === undefined) return;
        this.#retire(id, waiting);
        this.#events.send(
            `{"jsonrpc":"2.0","method":"notifications/cancelled","params":${JSON.stringify({requestId: id, reason})}}\n`,
            waiting.related,
        );
    }

    #retire(id: RequestId, waiting: Waiting): void {
        this.#waiting.delete(id as string);
        clearTimeout(waiting.timer);
        if (waiting.onAbort !== undefined) waiting.signal?.removeEventListener('abort', waiting.onAbort);
    }
}

function reasonText(reason: unknown): string {
    if (reason instanceof Error) return reason.message;
    return typeof reason === 'string' ? reason : 'The request was aborted';
}
