/**
 * The record writer's replaceable slots: `writeLatest` keeps at most one waiting record per slot,
 * in its place in the order, and `withdraw` drops it; nothing else moves.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {QueueSlot} from '../../lib/jsonrpc/writer.js';
import {writer} from '../helpers/writer.js';

test('writeLatest replaces the record still waiting in its slot, in that record’s place', () => {
    const {writer: w, stream} = writer();
    const slot = new QueueSlot();
    w.write('a\n');
    w.writeLatest('p1\n', slot);
    w.write('b\n');
    w.writeLatest('p2\n', slot);
    w.writeLatest('p3\n', slot);
    w.write('c\n');
    stream.complete(0);
    assert.deepEqual(stream.chunks, ['a\n', 'p3\nb\nc\n']);
});

test('writeLatest queues anew once the slot’s record has been handed to the stream', () => {
    const {writer: w, stream} = writer();
    const slot = new QueueSlot();
    w.writeLatest('p1\n', slot);
    assert.deepEqual(stream.chunks, ['p1\n'], 'an idle writer writes at once');
    w.writeLatest('p2\n', slot);
    w.writeLatest('p3\n', slot);
    stream.complete(0);
    assert.deepEqual(stream.chunks, ['p1\n', 'p3\n']);
    w.writeLatest('p4\n', slot);
    w.write('x\n');
    w.writeLatest('p5\n', slot);
    stream.complete(1);
    stream.complete(2);
    assert.deepEqual(stream.chunks, ['p1\n', 'p3\n', 'p5\nx\n']);
    assert.equal(w.idle, true);
});

test('keeps the slots of different series apart', () => {
    const {writer: w, stream} = writer();
    const first = new QueueSlot();
    const second = new QueueSlot();
    w.write('a\n');
    w.writeLatest('1a\n', first);
    w.writeLatest('2a\n', second);
    w.writeLatest('1b\n', first);
    w.writeLatest('2b\n', second);
    stream.complete(0);
    assert.deepEqual(stream.chunks, ['a\n', '1b\n2b\n']);
});

test('counts only the waiting record of a slot in the backlog', () => {
    const {writer: w, stream} = writer();
    const slot = new QueueSlot();
    w.write('ab\n');
    w.writeLatest('1\n', slot);
    assert.equal(w.backlog, 3 + 2);
    w.writeLatest('12345\n', slot);
    assert.equal(w.backlog, 3 + 6);
    w.writeLatest('123\n', slot);
    assert.equal(w.backlog, 3 + 4);
    stream.complete(0);
    assert.equal(w.backlog, 4);
    stream.complete(1);
    assert.equal(w.backlog, 0);
});

test('withdraw drops the waiting record of a slot and leaves every other record alone', () => {
    const {writer: w, stream} = writer();
    const slot = new QueueSlot();
    w.write('a\n');
    w.write('b\n');
    w.writeLatest('p\n', slot);
    w.write('c\n');
    w.withdraw(slot);
    assert.equal(w.backlog, 2 + 2 + 2);
    w.writeLatest('q\n', slot);
    stream.complete(0);
    assert.deepEqual(stream.chunks, ['a\n', 'b\nc\nq\n'], 'a withdrawn slot queues anew at the end');
});

test('withdraw cannot take back a record already handed to the stream', () => {
    const {writer: w, stream} = writer();
    const slot = new QueueSlot();
    w.writeLatest('p\n', slot);
    w.withdraw(slot);
    w.withdraw(new QueueSlot());
    assert.deepEqual(stream.chunks, ['p\n']);
    assert.equal(w.backlog, 2);
    stream.complete(0);
    assert.equal(w.idle, true);
});

test('when everything waiting was withdrawn, the writer goes idle without writing', async () => {
    const recorded = writer();
    const {writer: w, stream} = recorded;
    const slot = new QueueSlot();
    w.write('a\n');
    w.writeLatest('p\n', slot);
    const idle = w.whenIdle();
    w.withdraw(slot);
    assert.equal(w.idle, false, 'the first write is still outstanding');
    stream.complete(0);
    await idle;
    assert.equal(w.idle, true);
    assert.equal(w.backlog, 0);
    assert.deepEqual(stream.chunks, ['a\n']);
    assert.equal(recorded.settled, 1);
    w.write('b\n');
    assert.deepEqual(stream.chunks, ['a\n', 'b\n']);
});

test('writeLatest drops its record after a failure, and the slot stays empty', () => {
    const recorded = writer();
    const {writer: w, stream} = recorded;
    const slot = new QueueSlot();
    w.write('a\n');
    w.writeLatest('p1\n', slot);
    stream.complete(0, new Error('EPIPE'));
    w.writeLatest('p2\n', slot);
    w.writeLatest('p3\n', slot);
    w.withdraw(slot);
    assert.deepEqual(stream.chunks, ['a\n']);
    assert.equal(w.backlog, 0);
    assert.equal(recorded.failures.length, 1);
});

test('writeLatest after the stream ended fails the writer as write does', () => {
    const recorded = writer();
    const slot = new QueueSlot();
    recorded.stream.emit('close');
    recorded.writer.writeLatest('p\n', slot);
    assert.equal(
        recorded.failures[0]?.message,
        'The output stream closed before this record could be written',
    );
    recorded.writer.writeLatest('q\n', slot);
    assert.equal(recorded.failures.length, 1);
    assert.deepEqual(recorded.stream.chunks, []);
});
