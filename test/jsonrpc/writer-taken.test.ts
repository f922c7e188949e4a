/**
 * The record writer and a write the stream took whole at once: its callback is only a formality
 * Node defers to the next tick, so the records waiting behind it go out in batches of 64 instead of
 * all after the callback. Only streams whose `write` is Node's own report what they still hold.
 */
import assert from 'node:assert/strict';
import {Writable} from 'node:stream';
import {test} from 'node:test';
import {QueueSlot, RecordWriter} from '../../lib/jsonrpc/writer.js';

type Callback = (error?: Error | null) => void;

/** A Node writable that records each write and calls back at once, or holds the callback. */
class Recorder extends Writable {
    readonly chunks: string[] = [];
    readonly held: Callback[] = [];
    hold = false;
    /** When set, the next `_write` fails at once with it. */
    failNext: Error | undefined;

    constructor(options: {autoDestroy?: boolean; emitClose?: boolean} = {}) {
        super({decodeStrings: false, ...options});
    }

    override _write(chunk: unknown, _encoding: BufferEncoding, callback: Callback): void {
        this.chunks.push(String(chunk));
        const failure = this.failNext;
        this.failNext = undefined;
        if (failure !== undefined) callback(failure);
        else if (this.hold) this.held.push(callback);
        else callback();
    }
}

interface Watched {
    writer: RecordWriter;
    failures: Error[];
    settled: () => number;
}

function watch(stream: Writable): Watched {
    const failures: Error[] = [];
    let settled = 0;
    const writer = new RecordWriter(stream, 'output', {
        onFailure: (error) => failures.push(error),
        onSettled: () => {
            settled += 1;
        },
    });
    return {writer, failures, settled: () => settled};
}

const records = (from: number, to: number): string =>
    Array.from({length: to - from + 1}, (_, index) => `{"id":${from + index}}\n`).join('');

function writeEach(writer: RecordWriter, from: number, to: number): void {
    for (let id = from; id <= to; id += 1) writer.write(`{"id":${id}}\n`);
}

test('sends the records waiting behind a write the stream took whole once 64 wait, before its callback', async () => {
    const stream = new Recorder();
    const {writer: w, failures, settled} = watch(stream);
    writeEach(w, 0, 63);
    assert.deepEqual(stream.chunks, [records(0, 0)], '63 wait: they keep waiting');
    w.write(records(64, 64));
    assert.deepEqual(stream.chunks, [records(0, 0), records(1, 64)]);
    assert.equal(settled(), 1, 'the first write counts as settled, once');
    assert.equal(w.backlog, records(1, 64).length);
    assert.equal(w.idle, false);
    await w.whenIdle();
    assert.equal(settled(), 2, 'the first write’s late callback changed nothing');
    assert.deepEqual(stream.chunks, [records(0, 0), records(1, 64)]);
    assert.equal(w.backlog, 0);
    assert.deepEqual(failures, []);
});

test('writes in batches of 64 to a writable that calls back at once, then the rest after the callback', async () => {
    const stream = new Recorder();
    const {writer: w} = watch(stream);
    writeEach(w, 0, 199);
    assert.deepEqual(stream.chunks, [records(0, 0), records(1, 64), records(65, 128), records(129, 192)]);
    await w.whenIdle();
    assert.deepEqual(stream.chunks.slice(4), [records(193, 199)]);
});

test('waits for the callback of a write the stream still holds', () => {
    const stream = new Recorder();
    stream.hold = true;
    const {writer: w} = watch(stream);
    writeEach(w, 0, 199);
    assert.deepEqual(stream.chunks, [records(0, 0)]);
    stream.hold = false;
    stream.held[0]?.();
    assert.deepEqual(stream.chunks, [records(0, 0), records(1, 199)]);
});

test('waits for the callback of a write that failed at once, and reports its failure once', async () => {
    // Not destroyed by its error, so only `errored` tells that the write did not go out.
    const stream = new Recorder({autoDestroy: false});
    stream.on('error', () => {});
    const failure = new Error('disk full');
    stream.failNext = failure;
    const {writer: w, failures, settled} = watch(stream);
    writeEach(w, 0, 99);
    assert.deepEqual(stream.chunks, [records(0, 0)]);
    assert.equal(settled(), 0, 'no write counts as settled before its callback');
    await w.whenIdle();
    assert.deepEqual(failures, [failure]);
    assert.deepEqual(stream.chunks, [records(0, 0)], 'the records behind it were dropped');
});

test('waits for the callback of a write to a destroyed stream, which carries its failure', async () => {
    const stream = new Recorder({emitClose: false});
    stream.on('error', () => {});
    stream.destroy();
    const {writer: w, failures, settled} = watch(stream);
    writeEach(w, 0, 99);
    assert.equal(settled(), 0, 'no write counts as settled before its callback');
    await w.whenIdle();
    assert.equal(failures.length, 1);
    assert.equal((failures[0] as NodeJS.ErrnoException).code, 'ERR_STREAM_DESTROYED');
    assert.deepEqual(stream.chunks, []);
});

test('records queued while the stream ran a write it took whole go out at once when 64 wait', () => {
    let w: RecordWriter | undefined;
    class Echoing extends Recorder {
        override _write(chunk: unknown, encoding: BufferEncoding, callback: Callback): void {
            // A reader that answers at once: 64 records queued from inside the first write.
            if (this.chunks.length === 0) writeEach(w as RecordWriter, 1, 64);
            super._write(chunk, encoding, callback);
        }
    }
    const stream = new Echoing();
    w = watch(stream).writer;
    w.write(records(0, 0));
    assert.deepEqual(stream.chunks, [records(0, 0), records(1, 64)]);
});

test('a close while a taken write waits for its callback fails it once; the late callbacks change nothing', async () => {
    const stream = new Recorder();
    const {writer: w, failures, settled} = watch(stream);
    writeEach(w, 0, 64);
    assert.equal(settled(), 1);
    stream.emit('close');
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.message, 'The output stream closed before a pending write completed');
    assert.equal(settled(), 2);
    assert.equal(w.idle, true);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(failures.length, 1);
    assert.equal(settled(), 2);
    w.write(records(65, 65));
    assert.equal(stream.chunks.length, 2);
});

test('a slot whose record went out in an early batch queues its next record anew', async () => {
    const stream = new Recorder();
    const {writer: w} = watch(stream);
    const slot = new QueueSlot();
    w.write(records(0, 0));
    w.writeLatest('p1\n', slot);
    writeEach(w, 1, 62);
    w.writeLatest('p2\n', slot);
    assert.equal(stream.chunks.length, 1, 'p2 took p1’s place: 63 entries wait');
    w.write(records(63, 63));
    assert.deepEqual(stream.chunks, [records(0, 0), `p2\n${records(1, 63)}`]);
    w.writeLatest('p3\n', slot);
    await w.whenIdle();
    assert.deepEqual(stream.chunks.slice(2), ['p3\n']);
});

test('a writable that overrides write waits for each callback, which carries its errors', async () => {
    let calls = 0;
    const failure = new Error('forward failed');
    class Forwarder extends Writable {
        readonly chunks: string[] = [];
        override write(chunk: unknown, callback?: unknown): boolean {
            this.chunks.push(String(chunk));
            const first = calls === 0;
            calls += 1;
            setImmediate(() => (callback as Callback)(first ? failure : null));
            return true;
        }
    }
    const stream = new Forwarder();
    const {writer: w, failures} = watch(stream);
    writeEach(w, 0, 99);
    assert.deepEqual(stream.chunks, [records(0, 0)], 'its writableLength says nothing: no early batch');
    await w.whenIdle();
    assert.deepEqual(failures, [failure]);
    assert.equal(calls, 1);
});
