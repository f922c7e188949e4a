/**
 * The session's input: a caller-owned readable read in flowing mode into the line reader.
 *
 * It reports the input's end and its failures (an `error`, a `close` before `end`, a chunk that is
 * neither bytes nor a string, bytes that are not UTF-8), pauses and resumes the input for
 * backpressure, and stops it for good when the session closes. It adds listeners for `data`, `end`,
 * `error` and `close` only, and removes them all in `detach()`; it never ends or destroys the
 * stream.
 *
 * Stopping must also stop the reading of `process.stdin`'s file descriptor, or the process outlives
 * its session. Over a pipe or a socket, stdin stops reading on the tick after it emits `pause`, if
 * it is still paused then. A pause made inside a `data` listener is undone: the push that delivered
 * the chunk queues Readable's read-ahead (`maybeReadMore`) only once the listener has returned, so
 * it runs after stdin's stop and, the buffer being under its high-water mark, starts reading again
 * although the stream stays paused. A `pause()` of a paused stream emits nothing, so nothing stops
 * it again, and the process lives until the client closes stdin. A pause made outside a delivery
 * (a `close()` from a timer, say) is safe: a read-ahead still queued runs before stdin's stop,
 * while the descriptor is still read, and does nothing. So when the pause in force was made during
 * a delivery, `stop()` makes it again a turn later, once every read-ahead has run.
 */
import type {Readable} from 'node:stream';
import type {RecordSink} from '../../jsonrpc/framing.js';
import {LineReader} from '../../jsonrpc/framing.js';
import {describe} from '../../util/describe.js';

export interface InputEvents {
    /** The input ended and its last record was delivered. */
    onEnd(): void;
    /** The input failed; it may be called again for later failures until `detach()`. */
    onFailure(error: Error): void;
}

export class SessionInput {
    readonly #stream: Readable;
    readonly #reader: LineReader;
    readonly #events: InputEvents;
    #ended = false;
    #stopped = false;
    /** How many of this input's `data` deliveries are running (one, or more when re-entered). */
    #delivering = 0;
    /** The pause now in force was made during a delivery, so a read-ahead may have undone it. */
    #pausedInDelivery = false;

    readonly #onData = (chunk: unknown) => {
        this.#delivering += 1;
        try {
            this.#reader.push(asChunk(chunk));
        } catch (error) {
            this.#events.onFailure(error as Error);
        } finally {
            this.#delivering -= 1;
        }
    };
    readonly #onEnd = () => {
        this.#ended = true;
        if (this.#stopped) return;
        try {
            this.#reader.end();
        } catch (error) {
            this.#events.onFailure(error as Error);
            return;
        }
        this.#events.onEnd();
    };
    /** An error counts until `detach()`, also while the session drains after `stop()`. */
    readonly #onError = (error: Error) => this.#events.onFailure(error);
    readonly #onClose = () => {
        if (this.#stopped || this.#ended) return;
        this.#events.onFailure(
            new Error(
                'The input stream closed before its end: the MCP client went away without closing stdin',
            ),
        );
    };

    constructor(stream: Readable, sink: RecordSink, maxMessageBytes: number, events: InputEvents) {
        this.#stream = stream;
        this.#reader = new LineReader(sink, maxMessageBytes);
        this.#events = events;
    }

    /** Attaches the listeners and starts reading, also an input its owner had paused. */
    start(): void {
        const stream = this.#stream;
        stream.on('data', this.#onData);
        stream.on('end', this.#onEnd);
        stream.on('error', this.#onError);
        stream.on('close', this.#onClose);
        stream.resume();
    }

    /** Pauses reading for backpressure. */
    hold(): void {
        this.#pause();
    }

    /** Resumes reading after `hold()`, unless the input was stopped meanwhile. */
    release(): void {
        if (this.#stopped) return;
        this.#pausedInDelivery = false;
        this.#stream.resume();
    }

    /**
     * Stops reading for good: no record is delivered after this call, not even the rest of the
     * chunk being read, and the stream is paused. Resolves once the pause is effective; until
     * `detach()` the input's `error` events are still reported.
     */
    stop(): Promise<void> {
        this.#stopped = true;
        this.#reader.halt();
        this.#stream.off('data', this.#onData);
        this.#pause();
        if (!this.#pausedInDelivery) return Promise.resolve();
        // A turn later every read-ahead queued by the delivery has run.
        return new Promise((resolve) => {
            setImmediate(() => {
                this.#pauseAgain();
                resolve();
            });
        });
    }

    /** Removes the listeners that are left after `stop()`. */
    detach(): void {
        const stream = this.#stream;
        stream.off('end', this.#onEnd);
        stream.off('error', this.#onError);
        stream.off('close', this.#onClose);
    }

    #pause(): void {
        if (this.#delivering > 0) this.#pausedInDelivery = true;
        this.#stream.pause();
    }

    /**
     * Makes the pause again, outside any delivery: a pause emits `pause` only when the stream
     * flows, hence the resume just before it. The resume delivers nothing, since the stream is
     * paused again before its next tick and no `data` listener of ours is left. A stream that is
     * gone or that its owner resumed meanwhile is left as it is.
     */
    #pauseAgain(): void {
        const stream = this.#stream;
        if (stream.destroyed || stream.readableEnded || stream.readableFlowing !== false) return;
        stream.resume();
        stream.pause();
    }
}

/** A chunk the reader takes: a string, or a Buffer (a plain Uint8Array is viewed as one). */
function asChunk(chunk: unknown): Buffer | string {
    if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) return chunk;
    if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    throw new TypeError(
        `The input stream produced ${describe(chunk)} instead of bytes or a string; ` +
            'give start() a byte or text stream, not an object-mode stream of other values',
    );
}
