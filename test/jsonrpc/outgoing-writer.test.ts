/**
 * The outgoing-request registry with a writer of its own (the client's form): numeric ids, the
 * timeout progress restarts under a hard maximum, exchanges, late answers and closing.
 */
import assert from 'node:assert/strict';
import {EventEmitter, once} from 'node:events';
import {test} from 'node:test';
import {OutgoingRequests} from '../../lib/jsonrpc/outgoing.js';
import type {OutgoingTerms, OutgoingWriter, WaitingRequest} from '../../lib/jsonrpc/outgoing-types.js';
import {readResponse} from '../../lib/jsonrpc/response.js';

interface Written {
    kind: 'request' | 'cancel';
    id: string | number;
    text: string;
}

function registry(
    options: {prefix?: string; exchanges?: boolean; dropLateAnswers?: boolean} = {},
    throwOn?: string,
): {outgoing: OutgoingRequests; written: Written[]; events: EventEmitter; seen: WaitingRequest[]} {
    const written: Written[] = [];
    const events = new EventEmitter();
    const seen: WaitingRequest[] = [];
    const writer: OutgoingWriter = {
        writeRequest: (request, params) => {
            if (request.method === throwOn) throw new Error(`cannot write ${request.method}`);
            seen.push(request);
            written.push({
                kind: 'request',
                id: request.id,
                text: `${request.method} ${JSON.stringify(params)}`,
            });
        },
        writeCancel: (request, reason) => {
            written.push({kind: 'cancel', id: request.id, text: reason});
            events.emit('cancel', request.id);
        },
        timedOut: (method, ms, bound) => new Error(`timeout ${method} ${ms} ${bound}`),
        remoteError: (method, error) => new Error(`remote ${method} ${error.code}`),
        invalidResponse: (method, problem) => new Error(`invalid ${method}: ${problem}`),
        reasons: {
            timeout: (ms) => `timed out ${ms}`,
            maxTotal: (ms) => `maximum ${ms}`,
            abort: () => 'aborted',
        },
    };
    return {outgoing: new OutgoingRequests(options, writer), written, events, seen};
}

const long: OutgoingTerms = {timeoutMs: 60_000};

test('without a prefix ids count up from 1 as numbers; settle routes a read response', async () => {
    const {outgoing, written} = registry();
    const first = outgoing.request('a', {x: 1}, long);
    const second = outgoing.request('b', {}, long);
    assert.deepEqual(
        written.map((record) => record.id),
        [1, 2],
    );
    assert.equal(outgoing.get(1)?.method, 'a');
    assert.equal(outgoing.get('1'), undefined);
    assert.equal(
        outgoing.settle(readResponse({jsonrpc: '2.0', id: 2, error: {code: -5, message: 'no'}})),
        true,
    );
    assert.equal(outgoing.settle(readResponse({jsonrpc: '2.0', id: 1, result: 'r', error: {}})), true);
    assert.equal(outgoing.settle(readResponse({jsonrpc: '2.0', id: 3, result: {}})), false);
    assert.equal(outgoing.settle(readResponse({jsonrpc: '2.0', result: {}})), false);
    await assert.rejects(second, {message: 'remote b -5'});
    await assert.rejects(first, {message: 'invalid a: it has both "result" and "error"'});
    assert.equal(outgoing.size, 0);
});

test('a writer that throws rejects with what it threw, and the next request takes the id', async () => {
    const {outgoing, written} = registry({}, 'bad');
    await assert.rejects(outgoing.request('bad', {}, long), {message: 'cannot write bad'});
    assert.equal(outgoing.size, 0);
    const next = outgoing.request('good', {}, long);
    assert.deepEqual(written, [{kind: 'request', id: 1, text: 'good {}'}]);
    outgoing.settle(readResponse({jsonrpc: '2.0', id: 1, result: 7}));
    assert.equal(await next, 7);
});

test('each restart of the timer waits the whole timeout again; the maximum still ends the request', async () => {
    const {outgoing, written, events, seen} = registry({exchanges: true});
    const cancelled = once(events, 'cancel');
    const pending = outgoing.request('slow', {}, {timeoutMs: 60_000, maxTotalMs: 5});
    const request = seen[0] as WaitingRequest;
    outgoing.restartTimer(request);
    await cancelled;
    await assert.rejects(pending, {message: 'timeout slow 5 maxTotalTimeoutMs'});
    assert.deepEqual(written[1], {kind: 'cancel', id: 1, text: 'maximum 5'});
    assert.equal(request.exchange?.signal.aborted, true);
    assert.equal(
        (request.exchange as AbortController).signal.reason.message,
        'timeout slow 5 maxTotalTimeoutMs',
    );
    // Settled: restarting, giving up or failing it again does nothing.
    outgoing.restartTimer(request);
    outgoing.giveUp(request, new Error('again'), 'again');
    outgoing.fail(request, new Error('again'));
    assert.equal(written.length, 2);
});

test('the timeout names its own bound and reason; an Infinity timeout arms no timer', async () => {
    const {outgoing, written, events} = registry();
    const cancelled = once(events, 'cancel');
    const timed = outgoing.request('t', {}, {timeoutMs: 2, elapsedMs: 1});
    await cancelled;
    await assert.rejects(timed, {message: 'timeout t 2 timeoutMs'});
    assert.deepEqual(written[1], {kind: 'cancel', id: 1, text: 'timed out 2'});
    const endless = outgoing.request(
        'e',
        {},
        {timeoutMs: Number.POSITIVE_INFINITY, maxTotalMs: Number.POSITIVE_INFINITY},
    );
    const request = outgoing.get(2);
    assert.equal(request?.method, 'e');
    outgoing.restartTimer(request as WaitingRequest);
    outgoing.fail(request as WaitingRequest, new Error('write failed'));
    await assert.rejects(endless, {message: 'write failed'});
    assert.equal(written.length, 3);
});

test('late answers of given-up requests are dropped once; not cancellable ones are not cancelled', async () => {
    const {outgoing, written} = registry({dropLateAnswers: true});
    const controller = new AbortController();
    const aborted = outgoing.request('a', {}, {timeoutMs: 60_000, signal: controller.signal});
    controller.abort(new Error('stop'));
    await assert.rejects(aborted, {message: 'stop'});
    assert.deepEqual(written[1], {kind: 'cancel', id: 1, text: 'aborted'});
    const quiet = outgoing.request('q', {}, {timeoutMs: 60_000, cancellable: false, dropLateAnswer: true});
    const plain = outgoing.request('p', {}, {timeoutMs: 60_000, cancellable: false});
    outgoing.giveUp(outgoing.get(2) as WaitingRequest, new Error('quiet'), 'unused');
    outgoing.giveUp(outgoing.get(3) as WaitingRequest, new Error('plain'), 'unused');
    await assert.rejects(quiet, {message: 'quiet'});
    await assert.rejects(plain, {message: 'plain'});
    assert.equal(written.length, 4);
    const late = (id: number) => outgoing.settle(readResponse({jsonrpc: '2.0', id, result: {}}));
    assert.equal(late(1), true);
    assert.equal(late(1), false);
    assert.equal(late(2), true);
    assert.equal(late(3), false);
});

test('cancelAll cancels the cancellable requests first, then rejects each with its own error', async () => {
    const {outgoing, written, seen} = registry({exchanges: true, dropLateAnswers: true});
    const controller = new AbortController();
    const given = outgoing.request('g', {}, {timeoutMs: 60_000, signal: controller.signal});
    controller.abort(new Error('gone'));
    await assert.rejects(given, {message: 'gone'});
    const first = outgoing.request('a', {}, long);
    const second = outgoing.request('b', {}, {timeoutMs: 60_000, cancellable: false});
    const closed = new Error('closed');
    outgoing.cancelAll('closing', (request) => new Error(`closed before ${request.method}`), closed);
    assert.deepEqual(written.slice(4), [{kind: 'cancel', id: 2, text: 'closing'}]);
    await assert.rejects(first, {message: 'closed before a'});
    await assert.rejects(second, {message: 'closed before b'});
    assert.equal(
        ((seen[1] as WaitingRequest).exchange as AbortController).signal.reason.message,
        'closed before a',
    );
    await assert.rejects(outgoing.request('c', {}, long), closed);
    // Closing forgets the given-up ids: a late answer is nobody's now.
    assert.equal(outgoing.settle(readResponse({jsonrpc: '2.0', id: 1, result: {}})), false);
    assert.equal(outgoing.size, 0);
});

test('the line form: a default maximum reason, and answers whose id is not a string or number', async () => {
    const sent: string[] = [];
    const outgoing = new OutgoingRequests('p:', {
        send: (record) => sent.push(record),
        timedOut: (method, ms, bound) => new Error(`timeout ${method} ${ms} ${bound}`),
        remoteError: () => new Error('remote'),
        invalidResponse: () => new Error('invalid'),
    });
    const pending = outgoing.request('m', {}, {timeoutMs: 60_000, maxTotalMs: 1});
    await assert.rejects(pending, {message: 'timeout m 1 maxTotalTimeoutMs'});
    assert.equal(
        sent[1],
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"p:1","reason":"No answer within its maximum of 1 ms"}}\n',
    );
    assert.equal(outgoing.receive({jsonrpc: '2.0', id: null, result: {}}), false);
    assert.equal(outgoing.receive({jsonrpc: '2.0', result: {}}), false);
});
