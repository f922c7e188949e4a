/**
 * Ordered writes of whole records to a caller-owned Node writable.
 *
 * Ordering guarantee: records reach the stream in the order they were queued (by `write` or
 * `writeLatest`), each record whole. A record that `writeLatest` puts over one still waiting in the
 * same slot takes that record's place in the order, and the older record is never written;
 * `withdraw` drops the record waiting in a slot. Neither ever moves or drops any other record, nor
 * one already handed to the stream. The writer waits for at most one `stream.write` at a time: the
 * next one starts only after the previous write's callback, or, for a write the stream took whole
 * at once, as soon as `TAKEN_BATCH` entries wait behind it (see there; that write's callback then
 * still comes, and changes nothing). Records queued while the writer waits go out together, in
 * order, as the next single write. A write is settled exactly once: by its callback, as done when
 * the stream took it whole and `TAKEN_BATCH` entries wait, or as failed by an `error`, `close` or
 * `finish` event that arrives first; a callback that comes after that changes nothing. After a
 * failure the writer drops what is queued and everything written later; the failure is reported
 * once, through `onFailure`.
 */
import {Writable} from 'node:stream';

export interface WriterEvents {
    /** The first failure of this stream; later records are dropped. */
    onFailure(error: Error): void;
    /**
     * A write settled (successfully or not); `backlog` and `idle` may have changed. Called from the
     * write's callback, or synchronously inside `write`/`writeLatest` when that record settled a
     * write the stream had taken whole (`TAKEN_BATCH`).
     */
    onSettled(): void;
}

/**
 * A place in the queue for a series of records where only the latest matters (one request's
 * progress, say): see `writeLatest`. The caller owns one per series, used with one writer only;
 * its fields are that writer's bookkeeping.
 */
export class QueueSlot {
    /** The generation of the queue that holds this slot's waiting record; -1 for none. */
    generation = -1;
    /** Where that record is in the queue. */
    index = 0;
}

/**
 * A write the stream took whole at once (a socket or pipe with room: its `writableLength` is 0
 * right after the call, and it has no error and is not destroyed) has nothing left to wait for but
 * its callback, and Node defers even that one to the next tick, after everything the current turn
 * still queues. So the records that wait behind such a write go out as soon as the queue holds this
 * many entries (a withdrawn record's empty place counts), instead of all at the end of the turn: the
 * client starts reading while the server still works. Fewer per batch cost more CPU, more gained
 * nothing (bench/LOG.md, entry 24).
 *
 * Only for a stream whose `write` is Node's own (`Writable.prototype.write`: sockets, pipes, files,
 * `PassThrough`, any `Writable` built on `_write`): a class that overrides `write` keeps none of the
 * state `writableLength` reports, so its writes always wait for their callbacks, which carry its
 * errors and its backpressure.
 */
const TAKEN_BATCH = 64;

export class RecordWriter {
    readonly #stream: Writable;
    readonly #label: string;
    readonly #events: WriterEvents;
    #queue: string[] = [];
    /** Counts the queues: a slot whose generation is older holds nothing that still waits. */
    #generation = 0;
    #queuedChars = 0;
    #inFlightChars = 0;
    /** Settles the outstanding write; undefined when no write is outstanding. */
    #settle: ((error: Error | null | undefined) => void) | undefined;
    /** The outstanding write was taken whole by the stream: only its callback is awaited. */
    #taken = false;
    /** The stream's `write` is Node's own, so its `writableLength` tells what it still holds. */
    readonly #reportsLength: boolean;
    /** Set once the stream can no longer be written. */
    #failure: Error | undefined;
    /** The stream closed or finished while no write was outstanding. */
    #ended: string | undefined;
    #waiters: (() => void)[] = [];
    readonly #onError = (error: Error) => this.#fail(error);
    readonly #onClose = () => this.#endedBy('closed');
    readonly #onFinish = () => this.#endedBy('finished');

    constructor(stream: Writable, label: string, events: WriterEvents) {
        this.#stream = stream;
        this.#reportsLength = stream.write === Writable.prototype.write;
        this.#label = label;
        this.#events = events;
        stream.on('error', this.#onError);
        stream.on('close', this.#onClose);
        stream.on('finish', this.#onFinish);
    }

    /** Characters queued or being written: the measure the session uses for backpressure. */
    get backlog(): number {
        return this.#queuedChars + this.#inFlightChars;
    }

    get idle(): boolean {
        return this.#settle === undefined && this.#queue.length === 0;
    }

    get failed(): boolean {
        return this.#failure !== undefined;
    }

    /** Queues one whole record (its line ending included). */
    write(record: string): void {
        this.#enqueue(record);
    }

    /**
     * Queues one whole record in `slot`: while the record last queued there still waits (no write
     * has taken it yet), `record` replaces it in its place; otherwise `record` is queued as `write`
     * would. Backlog counts only the record that waits.
     */
    writeLatest(record: string, slot: QueueSlot): void {
        if (slot.generation === this.#generation) {
            const index = slot.index;
            this.#queuedChars += record.length - (this.#queue[index] as string).length;
            this.#queue[index] = record;
            return;
        }
        const generation = this.#generation;
        const index = this.#queue.length;
        // When the record goes out at once, the generation moves on and the slot stays empty.
        if (this.#enqueue(record) && generation === this.#generation) {
            slot.generation = generation;
            slot.index = index;
        }
    }

    /** Drops the record still waiting in `slot`, if there is one. */
    withdraw(slot: QueueSlot): void {
        if (slot.generation !== this.#generation) return;
        slot.generation = -1;
        this.#queuedChars -= (this.#queue[slot.index] as string).length;
        // Emptied, not removed, so the other slots' indexes stay right; it joins as nothing.
        this.#queue[slot.index] = '';
    }

    /** Resolves once nothing is queued or being written. */
    whenIdle(): Promise<void> {
        if (this.idle) return Promise.resolve();
        return new Promise((resolve) => this.#waiters.push(resolve));
    }

    /** Removes this writer's listeners from the stream. */
    detach(): void {
        this.#stream.off('error', this.#onError);
        this.#stream.off('close', this.#onClose);
        this.#stream.off('finish', this.#onFinish);
    }

    /** False when the record was dropped: the stream has failed or ended. */
    #enqueue(record: string): boolean {
        if (this.#failure !== undefined) return false;
        if (this.#ended !== undefined) {
            this.#fail(
                new Error(`The ${this.#label} stream ${this.#ended} before this record could be written`),
            );
            return false;
        }
        this.#queue.push(record);
        this.#queuedChars += record.length;
        if (this.#settle === undefined) this.#flush();
        else if (this.#taken && this.#queue.length >= TAKEN_BATCH) this.#settle(null);
        return true;
    }

    #flush(): void {
        const batch = this.#queue.length === 1 ? (this.#queue[0] as string) : this.#queue.join('');
        this.#queue = [];
        this.#generation += 1;
        this.#inFlightChars = this.#queuedChars;
        this.#queuedChars = 0;
        // Everything that waited was withdrawn: there is nothing to write.
        if (batch === '') return;
        let done = false;
        const settle = (error: Error | null | undefined): void => {
            if (done) return;
            done = true;
            this.#settle = undefined;
            this.#inFlightChars = 0;
            if (error) {
                this.#fail(error);
            } else if (this.#queue.length > 0) {
                this.#flush();
            }
            if (this.idle) this.#wake();
            this.#events.onSettled();
        };
        this.#settle = settle;
        this.#taken = false;
        const stream = this.#stream;
        try {
            stream.write(batch, settle);
        } catch (error) {
            settle(error instanceof Error ? error : new Error(String(error)));
            return;
        }
        // Still this write's settle: its callback has not run (it may have, synchronously).
        if (this.#settle === settle && this.#reportsLength) {
            this.#taken = stream.writableLength === 0 && !stream.errored && !stream.destroyed;
            // Records queued while the stream ran its write (a reader answering at once).
            if (this.#taken && this.#queue.length >= TAKEN_BATCH) settle(null);
        }
    }

    #endedBy(how: string): void {
        if (this.#settle !== undefined) {
            this.#settle(new Error(`The ${this.#label} stream ${how} before a pending write completed`));
        } else {
            this.#ended ??= how;
        }
    }

    #fail(error: Error): void {
        if (this.#failure !== undefined) return;
        this.#failure = error;
        this.#queue = [];
        this.#generation += 1;
        this.#queuedChars = 0;
        this.#events.onFailure(error);
        const settle = this.#settle;
        if (settle === undefined) {
            this.#wake();
        } else {
            settle(error);
        }
    }

    #wake(): void {
        const waiters = this.#waiters;
        if (waiters.length === 0) return;
        this.#waiters = [];
        for (const resolve of waiters) resolve();
    }
}
