import assert from 'node:assert/strict';
import type {Writable} from 'node:stream';
import {test} from 'node:test';
import {RecordWriter} from '../../lib/jsonrpc/writer.js';
import {Sink} from '../helpers/streams.js';
import {FakeStream, writer} from '../helpers/writer.js';

/** Lets every already queued promise reaction run; waits for no timer. */
async function flushMicrotasks(): Promise<void> {
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

test('writes one record whole and leaves the next queued until the write callback', () => {
    const {writer: w, stream} = writer();
    w.write('{"a":1}\n');
    assert.deepEqual(stream.chunks, ['{"a":1}\n']);
    w.write('{"b":2}\n');
    assert.deepEqual(stream.chunks, ['{"a":1}\n']);
    stream.complete(0);
    assert.deepEqual(stream.chunks, ['{"a":1}\n', '{"b":2}\n']);
});

test('sends the records queued during a pending write together, in call order, as the next write', () => {
    const {writer: w, stream} = writer();
    w.write('1\n');
    w.write('2\n');
    w.write('3\n');
    w.write('4\n');
    assert.deepEqual(stream.chunks, ['1\n']);
    stream.complete(0);
    assert.deepEqual(stream.chunks, ['1\n', '2\n3\n4\n']);
    w.write('5\n');
    assert.deepEqual(stream.chunks, ['1\n', '2\n3\n4\n']);
    stream.complete(1);
    assert.deepEqual(stream.chunks, ['1\n', '2\n3\n4\n', '5\n']);
    stream.complete(2);
    assert.equal(w.idle, true);
    assert.equal(stream.writes.length, 3);
});

test('counts queued and in-flight characters as the backlog', () => {
    const {writer: w, stream} = writer();
    assert.equal(w.backlog, 0);
    w.write('ab\n');
    assert.equal(w.backlog, 3);
    w.write('cdé\n');
    w.write('🌙\n');
    assert.equal(w.backlog, 3 + 4 + 3);
    stream.complete(0);
    assert.equal(w.backlog, 7);
    w.write('x\n');
    assert.equal(w.backlog, 9);
    stream.complete(1);
    assert.equal(w.backlog, 2);
    stream.complete(2);
    assert.equal(w.backlog, 0);
});

test('is idle only when nothing is queued or being written', () => {
    const {writer: w, stream} = writer();
    assert.equal(w.idle, true);
    w.write('a\n');
    assert.equal(w.idle, false);
    w.write('b\n');
    stream.complete(0);
    assert.equal(w.idle, false);
    stream.complete(1);
    assert.equal(w.idle, true);
});

test('whenIdle resolves at once when idle and otherwise only after the last write callback', async () => {
    const {writer: w, stream} = writer();
    await w.whenIdle();
    w.write('a\n');
    w.write('b\n');
    let idle = false;
    const waiting = w.whenIdle().then(() => {
        idle = true;
    });
    await flushMicrotasks();
    assert.equal(idle, false);
    stream.complete(0);
    await flushMicrotasks();
    assert.equal(idle, false);
    stream.complete(1);
    await waiting;
    assert.equal(idle, true);
});

test('reports onSettled once for each settled write', () => {
    const recorded = writer();
    recorded.writer.write('a\n');
    recorded.writer.write('b\n');
    assert.equal(recorded.settled, 0);
    recorded.stream.complete(0);
    assert.equal(recorded.settled, 1);
    recorded.stream.complete(1);
    assert.equal(recorded.settled, 2);
    assert.deepEqual(recorded.failures, []);
});

test('handles a stream that calls its write callback before write returns', () => {
    const recorded = writer();
    recorded.stream.syncCallback = true;
    recorded.writer.write('a\n');
    recorded.writer.write('b\n');
    recorded.writer.write('c\n');
    assert.deepEqual(recorded.stream.chunks, ['a\n', 'b\n', 'c\n']);
    assert.equal(recorded.settled, 3);
    assert.equal(recorded.writer.idle, true);
    assert.equal(recorded.writer.backlog, 0);
});

for (const event of ['error', 'close', 'finish'] as const) {
    test(`settles a pending write as failed on ${event} although its callback never arrives`, async () => {
        const recorded = writer();
        const {writer: w, stream} = recorded;
        w.write('a\n');
        w.write('b\n');
        const idle = w.whenIdle();
        const streamError = new Error('EPIPE: broken pipe');
        if (event === 'error') stream.emit('error', streamError);
        else stream.emit(event);
        await idle;
        assert.equal(recorded.failures.length, 1);
        const failure = recorded.failures[0] as Error;
        if (event === 'error') {
            assert.equal(failure, streamError);
        } else {
            const how = event === 'close' ? 'closed' : 'finished';
            assert.equal(failure.message, `The output stream ${how} before a pending write completed`);
        }
        assert.equal(recorded.settled, 1);
        assert.equal(w.failed, true);
        assert.equal(w.idle, true);
        assert.equal(w.backlog, 0);
        assert.deepEqual(stream.chunks, ['a\n']);

        stream.complete(0);
        stream.complete(0, new Error('late'));
        assert.equal(recorded.settled, 1);
        assert.equal(recorded.failures.length, 1);
        assert.deepEqual(stream.chunks, ['a\n']);
    });
}

test('names its stream in the failure of a pending write', () => {
    const recorded = writer('diagnostic');
    recorded.writer.write('a\n');
    recorded.stream.emit('close');
    assert.equal(
        recorded.failures[0]?.message,
        'The diagnostic stream closed before a pending write completed',
    );
});

test('fails a write made after the stream closed or finished while nothing was pending', () => {
    for (const [event, how] of [
        ['close', 'closed'],
        ['finish', 'finished'],
    ] as const) {
        const recorded = writer();
        recorded.writer.write('a\n');
        recorded.stream.complete(0);
        recorded.stream.emit(event);
        assert.equal(recorded.failures.length, 0);
        recorded.writer.write('b\n');
        assert.equal(recorded.failures.length, 1);
        assert.equal(
            recorded.failures[0]?.message,
            `The output stream ${how} before this record could be written`,
        );
        assert.deepEqual(recorded.stream.chunks, ['a\n']);
        assert.equal(recorded.writer.failed, true);
        assert.equal(recorded.writer.idle, true);
    }
});

test('keeps the first ending when the stream both finishes and closes', () => {
    const recorded = writer();
    recorded.stream.emit('finish');
    recorded.stream.emit('close');
    recorded.writer.write('a\n');
    assert.equal(
        recorded.failures[0]?.message,
        'The output stream finished before this record could be written',
    );
});

test('reports a failed write callback once, even when the stream also emits error and close', () => {
    const recorded = writer();
    const {writer: w, stream} = recorded;
    w.write('a\n');
    w.write('b\n');
    const error = new Error('EPIPE');
    stream.complete(0, error);
    stream.emit('error', error);
    stream.emit('error', new Error('second'));
    stream.emit('close');
    assert.deepEqual(recorded.failures, [error]);
    assert.equal(recorded.settled, 1);
    assert.deepEqual(stream.chunks, ['a\n']);
});

test('reports an error event while no write is pending and writes nothing afterwards', async () => {
    const recorded = writer();
    const error = new Error('ECONNRESET');
    recorded.stream.emit('error', error);
    assert.deepEqual(recorded.failures, [error]);
    assert.equal(recorded.settled, 0);
    recorded.writer.write('a\n');
    assert.deepEqual(recorded.stream.chunks, []);
    assert.equal(recorded.writer.backlog, 0);
    await recorded.writer.whenIdle();
});

test('drops the queued records and every later record after a failure', () => {
    const recorded = writer();
    const {writer: w, stream} = recorded;
    w.write('a\n');
    w.write('b\n');
    w.write('c\n');
    assert.equal(w.backlog, 6);
    stream.complete(0, new Error('EPIPE'));
    assert.equal(w.backlog, 0);
    w.write('d\n');
    assert.equal(w.backlog, 0);
    assert.deepEqual(stream.chunks, ['a\n']);
    assert.equal(recorded.failures.length, 1);
});

test('settles a write that throws synchronously as failed', () => {
    const recorded = writer();
    const thrown = new Error('write after end');
    recorded.stream.throwOnWrite = thrown;
    recorded.writer.write('a\n');
    assert.deepEqual(recorded.failures, [thrown]);
    assert.equal(recorded.settled, 1);
    assert.equal(recorded.writer.idle, true);
    assert.equal(recorded.writer.backlog, 0);
    recorded.stream.throwOnWrite = undefined;
    recorded.writer.write('b\n');
    assert.deepEqual(recorded.stream.chunks, []);
});

test('wraps a thrown non-Error value in an Error', () => {
    const recorded = writer();
    recorded.stream.throwOnWrite = 'not an error';
    recorded.writer.write('a\n');
    assert.equal(recorded.failures.length, 1);
    const failure = recorded.failures[0] as unknown;
    assert.ok(failure instanceof Error);
    assert.equal(failure.message, 'not an error');
});

test('detach removes exactly the listeners it added', () => {
    const stream = new FakeStream();
    const own = {error: () => {}, close: () => {}, finish: () => {}};
    stream.on('error', own.error);
    stream.on('close', own.close);
    stream.on('finish', own.finish);
    const failures: Error[] = [];
    const w = new RecordWriter(stream as unknown as Writable, 'output', {
        onFailure: (error) => failures.push(error),
        onSettled: () => {},
    });
    assert.equal(stream.listenerCount('error'), 2);
    assert.equal(stream.listenerCount('close'), 2);
    assert.equal(stream.listenerCount('finish'), 2);
    w.detach();
    assert.deepEqual(stream.listeners('error'), [own.error]);
    assert.deepEqual(stream.listeners('close'), [own.close]);
    assert.deepEqual(stream.listeners('finish'), [own.finish]);
    stream.emit('error', new Error('after detach'));
    stream.emit('close');
    assert.deepEqual(failures, []);
    assert.equal(w.failed, false);
});

test('writes whole records in call order to a real Node writable, one write per callback', async () => {
    const sink = new Sink();
    sink.hold = true;
    const w = new RecordWriter(sink, 'output', {onFailure: assert.fail, onSettled: () => {}});
    w.write('{"id":1}\n');
    w.write('{"id":2}\n');
    w.write('{"id":3}\n');
    await sink.waitForLines(1);
    assert.deepEqual(sink.chunks, ['{"id":1}\n']);
    assert.equal(sink.release(), 1);
    await sink.waitForLines(3);
    assert.deepEqual(sink.chunks, ['{"id":1}\n', '{"id":2}\n{"id":3}\n']);
    assert.equal(sink.heldCount, 1);
    const idle = w.whenIdle();
    sink.release();
    await idle;
    assert.equal(sink.text, '{"id":1}\n{"id":2}\n{"id":3}\n');
    w.detach();
});

test('fails a pending write when a real Node writable is destroyed before calling back', async () => {
    const sink = new Sink();
    sink.hold = true;
    const failures: Error[] = [];
    const w = new RecordWriter(sink, 'output', {
        onFailure: (error) => failures.push(error),
        onSettled: () => {},
    });
    w.write('{"id":1}\n');
    await sink.waitForLines(1);
    const idle = w.whenIdle();
    sink.destroy();
    await idle;
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.message, 'The output stream closed before a pending write completed');
    sink.release();
    assert.equal(failures.length, 1);
    w.write('{"id":2}\n');
    assert.equal(sink.text, '{"id":1}\n');
});
