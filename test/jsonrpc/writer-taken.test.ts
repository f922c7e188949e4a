/**
 * The record writer and a write the stream took whole at once: its callback is only a formality
 * Node defers to the next tick, so the records waiting behind it go out in batches of 64 instead of
 * all after the callback.
 */
import assert from 'node:assert/strict';
import type {Writable} from 'node:stream';
import {test} from 'node:test';
import {QueueSlot, RecordWriter} from '../../lib/jsonrpc/writer.js';
import {Sink} from '../helpers/streams.js';
import {FakeStream} from '../helpers/writer.js';

/** A stream double that reports, as a Node writable does, what is still buffered and any error. */
class TakingStream extends FakeStream {
    writableLength = 0;
    errored: Error | null = null;
}

function taking(): {writer: RecordWriter; stream: TakingStream; settled: () => number} {
    const stream = new TakingStream();
    let settled = 0;
    const writer = new RecordWriter(stream as unknown as Writable, 'output', {
        onFailure: assert.fail,
        onSettled: () => {
            settled += 1;
        },
    });
    return {writer, stream, settled: () => settled};
}

const records = (from: number, to: number): string[] =>
    Array.from({length: to - from + 1}, (_, index) => `{"id":${from + index}}\n`);

test('sends the records waiting behind a write the stream took whole once 64 wait, before its callback', () => {
    const {writer: w, stream, settled} = taking();
    for (const record of records(0, 63)) w.write(record);
    assert.deepEqual(stream.chunks, [records(0, 0).join('')], '63 wait: they keep waiting');
    w.write(records(64, 64).join(''));
    assert.deepEqual(stream.chunks, [records(0, 0).join(''), records(1, 64).join('')]);
    assert.equal(settled(), 1, 'the first write counts as settled once');
    assert.equal(w.backlog, records(1, 64).join('').length);
    stream.complete(0);
    assert.equal(settled(), 1, 'its late callback changes nothing');
    assert.equal(stream.writes.length, 2);
    stream.complete(1);
    assert.equal(settled(), 2);
    assert.equal(w.idle, true);
    assert.equal(w.backlog, 0);
});

test('waits for the callback of a write the stream did not take whole', () => {
    const {writer: w, stream} = taking();
    stream.writableLength = 9;
    for (const record of records(0, 199)) w.write(record);
    assert.deepEqual(stream.chunks, [records(0, 0).join('')]);
    stream.writableLength = 0;
    stream.complete(0);
    assert.deepEqual(stream.chunks, [records(0, 0).join(''), records(1, 199).join('')]);
});

test('waits for the callback of a write after which the stream has an error', () => {
    const {writer: w, stream} = taking();
    stream.errored = new Error('broken pipe');
    for (const record of records(0, 99)) w.write(record);
    assert.deepEqual(stream.chunks, [records(0, 0).join('')]);
});

test('a slot whose record went out in an early batch queues its next record anew', () => {
    const {writer: w, stream} = taking();
    const slot = new QueueSlot();
    w.write(records(0, 0).join(''));
    w.writeLatest('p1\n', slot);
    for (const record of records(1, 62)) w.write(record);
    w.writeLatest('p2\n', slot);
    assert.equal(stream.writes.length, 1, 'p2 took p1’s place: 63 wait');
    w.write(records(63, 63).join(''));
    assert.deepEqual(stream.chunks, [records(0, 0).join(''), `p2\n${records(1, 63).join('')}`]);
    w.writeLatest('p3\n', slot);
    stream.complete(1);
    assert.deepEqual(stream.chunks.slice(2), ['p3\n']);
});

test('writes in batches of 64 to a real Node writable that calls back at once, then the rest after the callback', async () => {
    const sink = new Sink();
    const w = new RecordWriter(sink, 'output', {onFailure: assert.fail, onSettled: () => {}});
    for (const record of records(0, 199)) w.write(record);
    assert.deepEqual(sink.chunks, [
        records(0, 0).join(''),
        records(1, 64).join(''),
        records(65, 128).join(''),
        records(129, 192).join(''),
    ]);
    await w.whenIdle();
    assert.deepEqual(sink.chunks.slice(4), [records(193, 199).join('')]);
    assert.equal(sink.text, records(0, 199).join(''));
    w.detach();
});
