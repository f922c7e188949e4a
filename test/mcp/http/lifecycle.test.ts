import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {SessionEndInfo} from '../../../lib/mcp/http/index.js';
import {errorBody, events, Gate, initializeBody, makeHandler, modern, post, read, text} from './support.js';

const SHUTTING = errorBody(undefined, -32603, 'The MCP server is shutting down; retry on another instance');

describe('the HTTP handler lifecycle', () => {
    test('close() lets running handlers finish and answer, refuses new requests 503, then ends sessions', async () => {
        const ended: SessionEndInfo[] = [];
        const {handler, gate} = makeHandler(new Gate(), {onSessionEnd: (info) => void ended.push(info)});
        const initialized = await handler.fetch(post(initializeBody()));
        const id = initialized.headers.get('mcp-session-id') as string;
        const pending = handler.fetch(modern(1, 'tools/call', {name: 'wait'}));
        await gate.started(1);
        let closed = false;
        const closing = handler.close().then(() => {
            closed = true;
        });
        assert.deepEqual(await read(await handler.fetch(modern(2, 'tools/list'))), [
            503,
            'application/json',
            SHUTTING,
        ]);
        assert.equal(closed, false);
        gate.release(0, text('finished'));
        assert.match((await read(await pending))[2], /"text":"finished"/);
        await closing;
        await handler.closed;
        assert.deepEqual(ended, [{sessionId: id, reason: 'closed'}]);
        assert.equal(handler.sessionCount, 0);
        assert.equal(handler.close(), handler.close());
    });

    test('close({cancelPending: true}) cancels handlers with one reason and answers their clients 503', async () => {
        const {handler, gate} = makeHandler();
        const json = handler.fetch(modern(1, 'tools/call', {name: 'wait'}));
        const sse = await handler.fetch(modern(2, 'tools/call', {name: 'steps', _meta: {progressToken: 1}}));
        const stream = events(sse);
        await stream.next();
        await gate.started(2);
        await handler.close({cancelPending: true});
        const [first, second] = gate.contexts;
        assert.equal(first?.signal.reason.name, 'AbortError');
        assert.equal(first?.signal.reason.message, 'The MCP server was closed with cancelPending: true');
        assert.equal(second?.signal.reason, first?.signal.reason);
        assert.deepEqual(await read(await json), [503, 'application/json', SHUTTING]);
        assert.equal(await stream.next(), undefined);
    });

    test('drain() resolves once every running handler has answered', async () => {
        const {handler, gate} = makeHandler();
        await handler.drain();
        const pending = handler.fetch(modern(1, 'tools/call', {name: 'wait'}));
        await gate.started(1);
        let drained = false;
        const draining = handler.drain().then(() => {
            drained = true;
        });
        await Promise.resolve();
        assert.equal(drained, false);
        gate.release(0, text('x'));
        await draining;
        assert.equal((await pending).status, 200);
    });

    test('close() checks its options', () => {
        const {handler} = makeHandler();
        assert.throws(() => handler.close(1 as never), {
            name: 'TypeError',
            message: 'handler.close(options) needs an options object, got number 1',
        });
        assert.throws(() => handler.close({cancelPending: 'yes' as never}), {
            name: 'TypeError',
            message: 'handler.close(): cancelPending must be a boolean, got the string "yes"',
        });
    });
});
