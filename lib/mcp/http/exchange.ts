/**
 * One POSTed request awaiting its answer. The answer is a JSON body when it is the first record
 * for the request; when a notification (progress, a log) comes first, or the client refuses JSON,
 * the answer is an SSE stream that carries any notifications and ends with the response. A client that goes away
 * (its request's signal aborts, or it cancels the stream) ends the exchange: nothing more is
 * written, and `onGone` decides what that means for the handler.
 *
 * The stream is pulled: records wait here until the client reads, one at most in the stream's own
 * buffer. A notification sent with a `QueueSlot` replaces the one of that slot still waiting, and
 * `withdraw` drops it, as the stdio writer does, so a handler reporting progress in a tight loop
 * to a slow client leaves one waiting record, not a backlog.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import type {QueueSlot} from '../../jsonrpc/writer.js';
import {startKeepAlive} from './keep-alive.js';
import {recordResponse, sseEvent, sseHeaders} from './responses.js';

export interface ExchangeOptions {
    readonly id: RequestId;
    /** The client accepts an SSE answer; without it notifications are dropped. */
    readonly streaming: boolean;
    /** The client refuses JSON: even an answer with no notification before it is an SSE stream. */
    readonly sseOnly: boolean;
    /** Extra response headers, read when the answer starts. */
    readonly headers: () => Record<string, string> | undefined;
    /** The HTTP status of a final record. */
    readonly status: (record: string) => number;
    /** The client went away before the answer was complete. */
    readonly onGone: (reason: unknown) => void;
    /** The exchange is over, however it ended. */
    readonly onDone: () => void;
}

const encoder = new TextEncoder();

interface Waiting {
    record: string;
    readonly slot: QueueSlot | undefined;
}

export class Exchange {
    readonly id: RequestId;
    readonly response: Promise<Response>;
    readonly #options: ExchangeOptions;
    #resolve!: (response: Response) => void;
    #stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    /** Records not handed to the stream yet, the response last. */
    #waiting: Waiting[] = [];
    /** The response is waiting: the stream ends once it is handed over. */
    #ending = false;
    #done = false;
    /** Stops the keep-alive comments of a listen stream. */
    #stopKeepAlive: (() => void) | undefined;
    readonly #signal: AbortSignal;
    readonly #onAbort = () => this.#gone(this.#signal.reason);

    constructor(options: ExchangeOptions, signal: AbortSignal) {
        this.id = options.id;
        this.#options = options;
        this.#signal = signal;
        this.response = new Promise((resolve) => {
            this.#resolve = resolve;
        });
        signal.addEventListener('abort', this.#onAbort, {once: true});
    }

    /** The client is gone already (checked once the request is handed to the core). */
    checkGone(): void {
        if (this.#signal.aborted) this.#gone(this.#signal.reason);
    }

    /** A notification for this request; with `slot`, over the one of that slot still waiting. */
    notify(record: string, slot?: QueueSlot): void {
        if (this.#done || !this.#options.streaming) return;
        if (this.#stream === undefined) this.#open();
        if (slot !== undefined) {
            const waiting = this.#waiting.find((entry) => entry.slot === slot);
            if (waiting !== undefined) {
                waiting.record = record;
                return;
            }
        }
        this.#waiting.push({record, slot});
        this.#flush();
    }

    /**
     * A notification that says nothing new while the same one still waits unread (a resource
     * updated again): dropped then, so a listen stream its client does not read stays bounded.
     */
    notifyOnce(record: string): void {
        if (this.#waiting.some((entry) => entry.record === record)) return;
        this.notify(record);
    }

    /**
     * The exchange is a listen stream, open until its client or the server ends it: a comment
     * every `KEEP_ALIVE_MS` while nothing waits and the client has read what it was sent.
     */
    keepAlive(): void {
        const stream = this.#stream;
        if (this.#done || stream === undefined) return;
        this.#stopKeepAlive = startKeepAlive((comment) => {
            if (this.#waiting.length === 0 && (stream.desiredSize ?? 0) > 0) stream.enqueue(comment);
        });
    }

    /** Drops the notification of `slot` still waiting, if any. */
    withdraw(slot: QueueSlot): void {
        const index = this.#waiting.findIndex((entry) => entry.slot === slot);
        if (index >= 0) this.#waiting.splice(index, 1);
    }

    /** The request's response: the exchange ends with it. */
    answer(record: string): void {
        if (this.#done) return;
        if (this.#stream === undefined && this.#options.sseOnly) this.#open();
        const stream = this.#stream;
        this.#finish();
        if (stream === undefined) {
            this.#resolve(recordResponse(this.#options.status(record), record, this.#options.headers()));
            return;
        }
        this.#waiting.push({record, slot: undefined});
        this.#ending = true;
        this.#flush();
    }

    /** Ends the exchange without an answer (the server closes): a waiting client gets `503`. */
    abandon(response: () => Response): void {
        if (this.#done) return;
        const stream = this.#stream;
        this.#finish();
        this.#waiting = [];
        if (stream === undefined) this.#resolve(response());
        else stream.close();
    }

    /** Hands waiting records over while the stream wants more; ends it after the response. */
    #flush(): void {
        const stream = this.#stream as ReadableStreamDefaultController<Uint8Array>;
        while (this.#waiting.length > 0 && (stream.desiredSize ?? 0) > 0) {
            stream.enqueue(encoder.encode(sseEvent((this.#waiting.shift() as Waiting).record)));
        }
        if (this.#ending && this.#waiting.length === 0) {
            this.#ending = false;
            stream.close();
        }
    }

    #open(): void {
        const body = new ReadableStream<Uint8Array>(
            {
                start: (controller) => {
                    this.#stream = controller;
                },
                pull: () => this.#flush(),
                cancel: (reason) => this.#gone(reason),
            },
            {highWaterMark: 1},
        );
        this.#resolve(new Response(body, {status: 200, headers: sseHeaders(this.#options.headers())}));
    }

    #gone(reason: unknown): void {
        this.#waiting = [];
        this.#ending = false;
        if (this.#done) return;
        const stream = this.#stream;
        this.#finish();
        if (stream === undefined) {
            // Nobody reads this any more; the promise must still settle.
            this.#resolve(new Response(null, {status: 499}));
        } else {
            try {
                stream.close();
            } catch {
                // Already cancelled by the reader.
            }
        }
        this.#options.onGone(reason);
    }

    #finish(): void {
        this.#done = true;
        this.#stopKeepAlive?.();
        this.#signal.removeEventListener('abort', this.#onAbort);
        this.#options.onDone();
    }
}
