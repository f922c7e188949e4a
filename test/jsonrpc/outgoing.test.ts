/** The outgoing-request registry alone: ids, answers, errors, aborts, timeouts and the end. */
import assert from 'node:assert/strict';
import {EventEmitter, once} from 'node:events';
import {test} from 'node:test';
import {OutgoingRequests} from '../../lib/jsonrpc/outgoing.js';
import type {RemoteErrorObject} from '../../lib/jsonrpc/outgoing-types.js';

function registry(): {outgoing: OutgoingRequests; sent: string[]; written: EventEmitter} {
    const sent: string[] = [];
    const written = new EventEmitter();
    const outgoing = new OutgoingRequests('p:', {
        send: (record) => {
            sent.push(record);
            written.emit('record', record);
        },
        timedOut: (method, ms) => new Error(`timeout ${method} ${ms}`),
        remoteError: (method, error: RemoteErrorObject) =>
            new Error(`remote ${method} ${error.code} ${error.message}`),
        invalidResponse: (method, problem) => new Error(`invalid ${method}: ${problem}`),
    });
    return {outgoing, sent, written};
}

test('ids carry the prefix; results and errors settle their own request; other ids are not ours', async () => {
    const {outgoing, sent} = registry();
    const first = outgoing.request('a', {x: 1}, {timeoutMs: 60_000});
    const second = outgoing.request('b', {}, {timeoutMs: 60_000});
    assert.deepEqual(sent, [
        '{"jsonrpc":"2.0","id":"p:1","method":"a","params":{"x":1}}\n',
        '{"jsonrpc":"2.0","id":"p:2","method":"b","params":{}}\n',
    ]);
    assert.equal(outgoing.size, 2);
    assert.equal(outgoing.receive({jsonrpc: '2.0', id: 1, result: {}}), false);
    assert.equal(outgoing.receive({jsonrpc: '2.0', id: 'p:9', result: {}}), false);
    assert.equal(outgoing.receive({jsonrpc: '2.0', id: 'p:2', error: {code: -1, message: 'no'}}), true);
    assert.equal(outgoing.receive({jsonrpc: '2.0', id: 'p:1', result: {ok: true}}), true);
    assert.deepEqual(await first, {ok: true});
    await assert.rejects(second, {message: 'remote b -1 no'});
    assert.equal(outgoing.size, 0);
});

test('a malformed error object rejects as an invalid response', async () => {
    const {outgoing} = registry();
    const pending = outgoing.request('a', {}, {timeoutMs: 60_000});
    outgoing.receive({jsonrpc: '2.0', id: 'p:1', error: 'bad'});
    await assert.rejects(pending, {
        message: 'invalid a: its "error" is not an object with an integer "code" and a "message" string',
    });
});

test('an abort tells the peer with the reason; an aborted signal writes nothing', async () => {
    const {outgoing, sent} = registry();
    const controller = new AbortController();
    const pending = outgoing.request('a', {}, {timeoutMs: 60_000, signal: controller.signal});
    controller.abort(new Error('stop now'));
    await assert.rejects(pending, {message: 'stop now'});
    assert.equal(
        sent[1],
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"p:1","reason":"stop now"}}\n',
    );
    const other = new AbortController();
    other.abort();
    await assert.rejects(outgoing.request('b', {}, {timeoutMs: 1, signal: other.signal}), {
        name: 'AbortError',
    });
    const third = new AbortController();
    const later = outgoing.request('c', {}, {timeoutMs: 60_000, signal: third.signal});
    third.abort(42);
    await assert.rejects(later, (reason) => reason === 42);
    assert.equal(
        sent.at(-1),
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"p:2","reason":"The request was aborted"}}\n',
    );
    assert.equal(sent.length, 4);
});

test('a timeout tells the peer and rejects; rejectAll rejects the waiting and every later request', async () => {
    const {outgoing, sent, written} = registry();
    const told = once(written, 'record');
    const timed = assert.rejects(outgoing.request('slow', {}, {timeoutMs: 1}), {message: 'timeout slow 1'});
    await told;
    await timed;
    assert.equal(
        sent[1],
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"p:1","reason":"No answer within 1 ms"}}\n',
    );
    const waiting = outgoing.request('w', {}, {timeoutMs: 60_000});
    const end = new Error('over');
    outgoing.rejectAll(end);
    await assert.rejects(waiting, end);
    await assert.rejects(outgoing.request('x', {}, {timeoutMs: 60_000}), end);
    assert.equal(sent.length, 3);
});

test('params that cannot be serialized reject without writing or waiting', async () => {
    const {outgoing, sent} = registry();
    await assert.rejects(outgoing.request('a', {n: 1n}, {timeoutMs: 60_000}), TypeError);
    assert.equal(sent.length, 0);
    assert.equal(outgoing.size, 0);
});
