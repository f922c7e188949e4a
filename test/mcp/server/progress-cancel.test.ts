/**
 * Progress and cancellation on the raw wire: a notification still waiting at the cancel is never
 * written, and nothing is sent after it.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {describe, test} from 'node:test';
import type {HandlerContext, McpTool} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {afterInit, callWork, finish, progressLine, workServer} from '../../helpers/progress.js';

describe('cancellation', () => {
    test('a waiting notification is withdrawn at the cancel, and nothing is sent afterwards', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        callWork(h, 1, {progressToken: 'p'});
        await gate.started(1);
        const {reportProgress, signal} = gate.call(0).context;
        const duringAbort: boolean[] = [];
        signal.addEventListener('abort', () => duringAbort.push(reportProgress({progress: 3})));
        h.output.hold = true;
        assert.equal(reportProgress({progress: 1}), true);
        assert.equal(reportProgress({progress: 2}), true);
        const aborted = once(signal, 'abort');
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1, reason: 'stop'}});
        await aborted;
        assert.deepEqual(duringAbort, [false]);
        assert.equal(reportProgress({progress: 4}), false);
        h.output.hold = false;
        h.output.release();
        gate.call(0).done.reject(signal.reason);
        await h.server.drain();
        assert.equal(reportProgress({progress: 5}), false);
        assert.deepEqual(afterInit(h), [progressLine('p', 1)]);
        assert.equal(h.output.chunks.length, 2);
        await finish(h);
    });

    test('server.cancel and close with cancelPending withdraw waiting notifications too', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        callWork(h, 1, {progressToken: 'one'});
        callWork(h, 2, {progressToken: 'two'});
        await gate.started(2);
        h.output.hold = true;
        gate.call(0).context.reportProgress({progress: 1});
        gate.call(0).context.reportProgress({progress: 2});
        gate.call(1).context.reportProgress({progress: 1});
        assert.equal(h.server.cancel(1, 'stop one'), true);
        const closing = h.server.close({cancelPending: true});
        assert.equal(gate.call(1).context.reportProgress({progress: 2}), false);
        h.output.hold = false;
        h.output.release();
        for (const {done, context} of gate.calls) done.reject(context.signal.reason);
        await closing;
        assert.deepEqual(afterInit(h), [progressLine('one', 1)]);
    });

    test('a notification already handed to the stream when the cancel arrives is not taken back', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        callWork(h, 1, {progressToken: 'p'});
        await gate.started(1);
        h.output.hold = true;
        gate.call(0).context.reportProgress({progress: 1});
        await h.output.waitForLines(2);
        assert.equal(h.server.cancel(1), true);
        h.output.hold = false;
        h.output.release();
        gate.call(0).done.reject(gate.call(0).context.signal.reason);
        await h.server.drain();
        assert.deepEqual(afterInit(h), [progressLine('p', 1)]);
        await finish(h);
    });
});
