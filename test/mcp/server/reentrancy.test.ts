import assert from 'node:assert/strict';
import {once} from 'node:events';
import {describe, test} from 'node:test';
import type {CallToolResult, HandlerContext, McpStdioServer, McpTool} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {deferred, Gate} from '../../helpers/deferred.js';
import {text, tool, whenSettled} from '../../helpers/session.js';
import {harness, inputStream, Sink} from '../../helpers/streams.js';

const serverInfo = {name: 'reentrancy-test', version: '1.0.0'};

function callRecord(id: number | string, name: string): string {
    return `${JSON.stringify({jsonrpc: '2.0', id, method: 'tools/call', params: {name}})}\n`;
}

describe('a handler that calls back into the server', () => {
    test('closing from a synchronous handler waits for its answer before closed resolves', async () => {
        let server: McpStdioServer | undefined;
        const h = harness({
            serverInfo,
            tools: [
                tool('quit', () => {
                    void server?.close();
                    return text('bye');
                }),
            ],
        });
        server = h.server;
        await h.initialize();
        h.output.hold = true;
        h.sendRaw(callRecord(1, 'quit'));
        await h.output.waitForLines(2);
        let closed = false;
        const watching = h.server.closed.then(() => {
            closed = true;
        });
        await Promise.resolve();
        assert.equal(closed, false, 'closed must wait for the write callback of the answer');
        assert.equal(h.output.listenerCount('error'), 1);
        h.output.hold = false;
        h.output.release();
        await watching;
        assert.deepEqual(h.output.records()[1], {jsonrpc: '2.0', id: 1, result: text('bye')});
    });

    test('closing from an async handler before it settles waits for it', async () => {
        let server: McpStdioServer | undefined;
        const finish = deferred<CallToolResult>();
        const h = harness({
            serverInfo,
            tools: [
                tool('quit', () => {
                    void server?.close();
                    return finish.promise;
                }),
            ],
        });
        server = h.server;
        await h.initialize();
        const read = once(h.input, 'data');
        h.sendRaw(callRecord(1, 'quit'));
        await read;
        finish.resolve(text('after close'));
        await h.server.closed;
        // Had closed not waited for the handler, the answer would be written only after it resolved.
        assert.deepEqual(h.output.records()[1], {jsonrpc: '2.0', id: 1, result: text('after close')});
        assert.equal(h.output.lineCount, 2);
    });

    test('close with cancelPending from a synchronous handler cancels that handler too', async () => {
        let server: McpStdioServer | undefined;
        const seen: unknown[] = [];
        const h = harness({
            serverInfo,
            tools: [
                tool('abort-all', (_args, context) => {
                    void server?.close({cancelPending: true});
                    seen.push(context.signal.aborted, (context.signal.reason as Error).name);
                    return text('never sent');
                }),
            ],
        });
        server = h.server;
        await h.initialize();
        h.sendRaw(callRecord(1, 'abort-all'));
        await h.server.closed;
        assert.deepEqual(seen, [true, 'AbortError']);
        assert.equal(h.output.lineCount, 1);
    });

    test('a synchronous handler can cancel itself, and then gets no response', async () => {
        let server: McpStdioServer | undefined;
        const returned: boolean[] = [];
        const h = harness({
            serverInfo,
            tools: [
                tool('self', (_args, context) => {
                    returned.push(server?.cancel(context.requestId, 'changed my mind') ?? false);
                    return text('never sent');
                }),
            ],
        });
        server = h.server;
        await h.initialize();
        h.sendRaw(callRecord(1, 'self'));
        h.send({jsonrpc: '2.0', id: 2, method: 'ping'});
        await h.records(2);
        assert.deepEqual(returned, [true]);
        assert.deepEqual(h.output.records()[1], {jsonrpc: '2.0', id: 2, result: {}});
        h.input.push(null);
        await h.server.closed;
        assert.equal(h.output.lineCount, 2);
    });

    test('a call that starts while a synchronous handler runs is served, and the running one keeps its id', async () => {
        const events: string[] = [];
        let server: McpStdioServer | undefined;
        let input: ReturnType<typeof inputStream> | undefined;
        const h = harness({
            serverInfo,
            tools: [
                tool('outer', () => {
                    events.push('outer starts');
                    // A flowing input delivers this chunk at once, while this handler runs.
                    input?.push(`${callRecord(1, 'outer')}${callRecord(2, 'inner')}`);
                    events.push(`cancel outer from outer: ${server?.cancel(1, 'no') ?? 'none'}`);
                    return text('outer done');
                }),
                tool('inner', () => {
                    events.push('inner runs');
                    return text('inner done');
                }),
            ],
        });
        server = h.server;
        input = h.input;
        await h.initialize();
        h.sendRaw(callRecord(1, 'outer'));
        h.send({jsonrpc: '2.0', id: 3, method: 'ping'});
        await h.records(4);
        assert.deepEqual(events, ['outer starts', 'inner runs', 'cancel outer from outer: true']);
        assert.deepEqual(h.output.records().slice(1), [
            {
                jsonrpc: '2.0',
                id: 1,
                error: {
                    code: -32600,
                    message:
                        'Request id 1 is already in use by a request in progress; use a new id for each request',
                },
            },
            {jsonrpc: '2.0', id: 2, result: text('inner done')},
            {jsonrpc: '2.0', id: 3, result: {}},
        ]);
        h.send({jsonrpc: '2.0', id: 1, method: 'ping'});
        await h.records(5);
        assert.deepEqual(h.output.records()[4], {jsonrpc: '2.0', id: 1, result: {}});
        h.input.push(null);
        await h.server.closed;
    });
});

describe('settled but not yet answered', () => {
    test('keeps the id in use, refuses to cancel it, and answers it before the next record', async () => {
        const gate = new Gate<HandlerContext>();
        const h = harness({serverInfo, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        await h.initialize();
        h.sendRaw(callRecord(7, 'slow'));
        await gate.started(1);
        const settled = whenSettled(7);
        gate.call(0).done.resolve(text('first'));
        await settled;
        assert.equal(h.server.cancel(7, 'too late'), false);
        h.sendRaw(`${callRecord(7, 'slow')}{"jsonrpc":"2.0","id":"B","method":"ping"}\n`);
        await h.records(3);
        assert.deepEqual(h.output.records().slice(1), [
            {jsonrpc: '2.0', id: 7, result: text('first')},
            {jsonrpc: '2.0', id: 'B', result: {}},
        ]);
        assert.equal(gate.calls.length, 2, 'the reused id is a new request once the first was answered');
        gate.call(1).done.resolve(text('second'));
        h.input.push(null);
        await h.server.closed;
    });
});

describe('settled but not yet answered, continued', () => {
    test('is answered before an oversized record is rejected', async () => {
        const gate = new Gate<HandlerContext>();
        const h = harness({
            serverInfo,
            maxMessageBytes: 300,
            tools: [tool('slow', gate.handler as McpTool['handler'])],
        });
        await h.initialize();
        h.sendRaw(callRecord(1, 'slow'));
        await gate.started(1);
        const settled = whenSettled(1);
        gate.call(0).done.resolve(text('first'));
        await settled;
        h.sendRaw(`${'x'.repeat(400)}\n`);
        await h.records(3);
        assert.deepEqual(h.output.records().slice(1), [
            {jsonrpc: '2.0', id: 1, result: text('first')},
            {
                jsonrpc: '2.0',
                error: {
                    code: -32600,
                    message:
                        'The record of 400 bytes exceeds the limit of 300 bytes (maxMessageBytes) and was discarded',
                },
            },
        ]);
        h.input.push(null);
        await h.server.closed;
    });

    test('is still answered when close({cancelPending: true}) comes before its answer', async () => {
        const gate = new Gate<HandlerContext>();
        const h = harness({serverInfo, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        await h.initialize();
        h.sendRaw(callRecord(1, 'slow'));
        await gate.started(1);
        const {signal} = gate.call(0).context;
        const settled = whenSettled(1);
        gate.call(0).done.resolve(text('done'));
        await settled;
        await h.server.close({cancelPending: true});
        assert.equal(signal.aborted, false);
        assert.deepEqual(h.output.records()[1], {jsonrpc: '2.0', id: 1, result: text('done')});
    });
});

describe('the handler context', () => {
    test('is a frozen plain object whose spread keeps the signal and reportProgress and exposes nothing internal', async () => {
        const contexts: HandlerContext[] = [];
        const h = harness({
            serverInfo,
            tools: [
                tool('look', (_args, context) => {
                    contexts.push(context);
                    return text('ok');
                }),
            ],
        });
        await h.initialize();
        h.sendRaw(callRecord(0, 'look'));
        await h.records(2);
        const [context] = contexts;
        assert.ok(context !== undefined);
        assert.deepEqual(Object.keys(context), [
            'signal',
            'requestId',
            'method',
            'params',
            'clientInfo',
            'clientCapabilities',
            'protocolVersion',
            'reportProgress',
            'log',
            'elicit',
            'createMessage',
            'listRoots',
        ]);
        assert.equal(Object.isFrozen(context), true);
        assert.equal(Object.getPrototypeOf(context), Object.prototype);
        assert.equal(Object.create(context).signal, context.signal);
        assert.equal({...context}.signal, context.signal);
        assert.ok(context.signal instanceof AbortSignal);
        assert.equal(typeof context.reportProgress, 'function');
        assert.equal(Object.create(context).reportProgress, context.reportProgress);
        assert.equal({...context}.reportProgress, context.reportProgress);
        assert.equal(typeof context.log, 'function');
        assert.equal({...context}.log, context.log);
        assert.equal({...context}.elicit, context.elicit);
        assert.equal(Object.create(context).listRoots, context.listRoots);
        h.input.push(null);
        await h.server.closed;
    });
});

describe('poisoned promises', () => {
    test('a native promise whose constructor getter throws is answered and releases its id', async () => {
        const poisoned = Promise.resolve(text('unreachable'));
        Object.defineProperty(poisoned, 'constructor', {
            get() {
                throw new Error('poisoned constructor');
            },
        });
        const h = harness({serverInfo, tools: [tool('poison', () => poisoned)]});
        await h.initialize();
        h.sendRaw(callRecord(1, 'poison'));
        await h.records(2);
        h.send({jsonrpc: '2.0', id: 1, method: 'ping'});
        await h.records(3);
        assert.deepEqual(h.output.records()[2], {jsonrpc: '2.0', id: 1, result: {}});
        h.input.push(null);
        await h.server.closed;
    });
});

describe('input chunks', () => {
    test('reads plain Uint8Array chunks as bytes', async () => {
        const input = inputStream();
        const output = new Sink();
        const server = createMcpStdioServer({serverInfo}).start({input, output, error: new Sink()});
        const bytes = new TextEncoder().encode('xx{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
        input.emit('data', bytes.subarray(2));
        input.push(null);
        await server.closed;
        assert.equal(output.text, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    });

    test('fails the transport on a chunk that is neither bytes nor a string', async () => {
        const input = inputStream();
        const errors = new Sink();
        const server = createMcpStdioServer({serverInfo}).start({input, output: new Sink(), error: errors});
        input.emit('data', {not: 'bytes'});
        const failure = await server.closed.then(
            () => assert.fail('closed resolved'),
            (error: unknown) => error as AggregateError,
        );
        const [cause] = failure.errors as TypeError[];
        assert.equal(cause?.name, 'TypeError');
        assert.equal(
            cause?.message,
            'The input stream produced an object instead of bytes or a string; give start() a byte or text stream, not an object-mode stream of other values',
        );
    });

    test('records an input error that arrives while a graceful close drains', async () => {
        const gate = new Gate<HandlerContext>();
        const h = harness({serverInfo, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        await h.initialize();
        h.sendRaw(callRecord(1, 'slow'));
        await gate.started(1);
        void h.server.close();
        const fault = new Error('read EIO during drain');
        const {signal} = gate.call(0).context;
        const aborted = once(signal, 'abort');
        h.input.destroy(fault);
        await aborted;
        assert.equal(signal.reason, fault);
        gate.call(0).done.reject(fault);
        const failure = await h.server.closed.then(
            () => assert.fail('closed resolved'),
            (error: unknown) => error as AggregateError,
        );
        assert.deepEqual(failure.errors, [fault]);
    });
});

describe('start after close', () => {
    test('says that the server was closed before it started', async () => {
        const server = createMcpStdioServer({serverInfo});
        await server.close();
        assert.throws(() => server.start({input: inputStream(), output: new Sink(), error: new Sink()}), {
            name: 'TypeError',
            message:
                'server.start() after server.close(): a closed server cannot start; create another server',
        });
    });
});
