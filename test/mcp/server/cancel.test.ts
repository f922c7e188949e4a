import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {call, slowServer, text} from '../../helpers/session.js';
import {harness} from '../../helpers/streams.js';

const serverInfo = {name: 'cancel-test', version: '1.0.0'};

describe('server.cancel', () => {
    test('signals the active handler with the identical reason and returns true', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 0);
        await gate.started(1);
        const reason = {why: 'the user pressed stop'};
        assert.equal(h.server.cancel(0, reason), true);
        const {signal} = gate.call(0).context;
        assert.equal(signal.aborted, true);
        assert.equal(signal.reason, reason);
        gate.call(0).done.resolve(text('late'));
        await h.server.drain();
        assert.equal(h.output.lineCount, 1);
        h.input.push(null);
        await h.server.closed;
    });

    test('returns false for unknown, completed, already cancelled and initialize requests', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        assert.equal(h.server.cancel('init'), false);
        assert.equal(h.server.cancel(404), false);
        call(h, 1);
        call(h, 2);
        await gate.started(2);
        gate.call(0).done.resolve(text('done'));
        await h.records(2);
        assert.equal(h.server.cancel(1), false);
        assert.equal(h.server.cancel(2, 'first'), true);
        assert.equal(h.server.cancel(2, 'second'), false);
        assert.equal(gate.call(1).context.signal.reason, 'first');
        gate.call(1).done.resolve(text('ignored'));
        h.input.push(null);
        await h.server.closed;
        assert.equal(h.output.lineCount, 2);
    });

    test('keeps string and numeric ids distinct', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 7);
        call(h, '7');
        await gate.started(2);
        assert.equal(h.server.cancel('7', 'string only'), true);
        assert.equal(gate.call(0).context.signal.aborted, false);
        assert.equal(gate.call(1).context.signal.reason, 'string only');
        gate.call(0).done.resolve(text('number'));
        gate.call(1).done.resolve(text('string'));
        h.input.push(null);
        await h.server.closed;
        assert.deepEqual(h.output.records().slice(1), [{jsonrpc: '2.0', id: 7, result: text('number')}]);
    });

    test('sends no response for a cancelled request whose handler throws or returns an invalid result', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        call(h, 2);
        await gate.started(2);
        h.server.cancel(1, 'stop');
        h.server.cancel(2);
        gate.call(0).done.reject('stop');
        gate.call(1).done.resolve({not: 'a result'});
        h.input.push(null);
        await h.server.closed;
        assert.equal(h.output.lineCount, 1);
        assert.equal(h.errors.text, '');
    });

    test('diagnoses a cancelled handler that fails with something other than its abort reason', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        h.server.cancel(1, 'stop');
        gate.call(0).done.reject(new Error('cleanup failed'));
        h.input.push(null);
        await h.server.closed;
        assert.equal(h.output.lineCount, 1);
        assert.ok(
            h.errors.text.startsWith(
                '[arcane-os/mcp/stdio] The cancelled tools/call of tool "slow" (request id 1) failed; no response is sent\n',
            ),
        );
        assert.ok(h.errors.text.includes('cleanup failed'));
    });

    test('diagnoses a cancelled outcome that cannot even be inspected, and still sends nothing', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        h.server.cancel(1, 'stop');
        const hostile = new Proxy(
            {},
            {
                getPrototypeOf() {
                    throw new Error('no prototype for you');
                },
            },
        );
        gate.call(0).done.reject(hostile);
        h.input.push(null);
        await h.server.closed;
        assert.equal(h.output.lineCount, 1);
        assert.ok(
            h.errors.text.startsWith(
                '[arcane-os/mcp/stdio] The cancelled tools/call of tool "slow" (request id 1) could not be settled\n',
            ),
        );
        assert.ok(h.errors.text.includes('no prototype for you'));
    });

    test('aborts a signal first read after cancellation with the same reason', async () => {
        const reasons: unknown[] = [];
        let server: ReturnType<typeof harness>['server'] | undefined;
        const h = harness({
            serverInfo,
            tools: [
                {
                    name: 'self-cancel',
                    inputSchema: {type: 'object'},
                    handler: async (_args, context) => {
                        await Promise.resolve();
                        server?.cancel(context.requestId, 'before reading');
                        reasons.push(context.signal.aborted, context.signal.reason);
                        return text('unused');
                    },
                },
            ],
        });
        server = h.server;
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'self-cancel'}});
        h.input.push(null);
        await h.server.closed;
        assert.deepEqual(reasons, [true, 'before reading']);
        assert.equal(h.output.lineCount, 1);
    });

    test('throws a TypeError for an id that is neither a string nor an integer', () => {
        const {h} = slowServer();
        assert.throws(() => h.server.cancel(1.5), {
            name: 'TypeError',
            message:
                'server.cancel(requestId) needs a request id: a string, or an integer of at most 2^53 - 1 in magnitude; got number 1.5',
        });
        assert.throws(() => h.server.cancel(null as never), {
            name: 'TypeError',
            message:
                'server.cancel(requestId) needs a request id: a string, or an integer of at most 2^53 - 1 in magnitude; got null',
        });
        h.input.push(null);
        return h.server.closed;
    });
});

describe('notifications/cancelled', () => {
    test('signals the handler with the reason the client gave and suppresses its response', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 0);
        h.send({jsonrpc: '2.0', id: 'r', method: 'resources/read', params: {uri: 'slow://r'}});
        await gate.started(2);
        h.send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: {requestId: 0, reason: 'timed out'},
        });
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 'r'}});
        h.send({jsonrpc: '2.0', id: 'after', method: 'ping'});
        await h.records(2);
        assert.equal(gate.call(0).context.signal.reason, 'timed out');
        assert.equal((gate.call(1).context.signal.reason as Error).name, 'AbortError');
        gate.call(0).done.resolve(text('late'));
        gate.call(1).done.resolve({contents: []});
        h.input.push(null);
        await h.server.closed;
        assert.deepEqual(h.output.records().slice(1), [{jsonrpc: '2.0', id: 'after', result: {}}]);
    });

    test('ignores a cancellation of an unknown id or with a malformed requestId', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: '1'}});
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1.5}});
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled'});
        h.send({jsonrpc: '2.0', id: 'after', method: 'ping'});
        await h.records(2);
        assert.equal(gate.call(0).context.signal.aborted, false);
        gate.call(0).done.resolve(text('done'));
        await h.records(3);
        assert.deepEqual(h.output.records()[2], {jsonrpc: '2.0', id: 1, result: text('done')});
        h.input.push(null);
        await h.server.closed;
    });
});
