import assert from 'node:assert/strict';
import {once} from 'node:events';
import type {Readable} from 'node:stream';
import {Writable} from 'node:stream';
import {describe, test} from 'node:test';
import {createMcpStdioServer, Utf8DecodeError} from '../../../lib/mcp/stdio/index.js';
import {call, slowServer, text, tool} from '../../helpers/session.js';
import {failingWritable, harness, inputStream, Sink} from '../../helpers/streams.js';

const serverInfo = {name: 'lifecycle-test', version: '1.0.0'};

async function rejection(promise: Promise<unknown>): Promise<AggregateError> {
    try {
        await promise;
    } catch (error) {
        assert.ok(error instanceof AggregateError, 'closed must reject with an AggregateError');
        return error;
    }
    assert.fail('closed resolved, but it should have rejected');
}

describe('start', () => {
    test('returns the same server', () => {
        const server = createMcpStdioServer({serverInfo});
        const input = inputStream();
        assert.equal(server.start({input, output: new Sink(), error: new Sink()}), server);
        input.push(null);
        return server.closed;
    });

    test('throws a TypeError when called a second time', async () => {
        const h = harness({serverInfo});
        assert.throws(() => h.server.start({input: inputStream(), output: new Sink(), error: new Sink()}), {
            name: 'TypeError',
            message:
                'server.start() was already called: a server serves exactly one session; create another server for another session',
        });
        h.input.push(null);
        await h.server.closed;
    });

    test('refuses one stream for both output and diagnostics', () => {
        const shared = new Sink();
        assert.throws(
            () =>
                createMcpStdioServer({serverInfo}).start({
                    input: inputStream(),
                    output: shared,
                    error: shared,
                }),
            {
                name: 'TypeError',
                message:
                    'server.start(): output and error must be different streams; diagnostics on the output stream would corrupt the protocol',
            },
        );
    });

    test('refuses values that are not streams, and streams that are no longer open', () => {
        const start = (options: object) => () => createMcpStdioServer({serverInfo}).start(options);
        assert.throws(start({input: {}}), {
            name: 'TypeError',
            message: 'server.start(): input must be a Node readable stream, got an object',
        });
        assert.throws(start({input: inputStream(), output: 'stdout'}), {
            name: 'TypeError',
            message: 'server.start(): output must be a Node writable stream, got the string "stdout"',
        });
        const ended = inputStream();
        ended.destroy();
        assert.throws(start({input: ended}), {
            name: 'TypeError',
            message: 'server.start(): input must be open: it has already ended or been destroyed',
        });
        const finished = new Sink();
        finished.end();
        assert.throws(start({input: inputStream(), output: new Sink(), error: finished}), {
            name: 'TypeError',
            message: 'server.start(): error must be open: it has already ended or been destroyed',
        });
        assert.throws(() => createMcpStdioServer({serverInfo}).start(5 as never), {
            name: 'TypeError',
            message: 'server.start(options) needs an options object, got number 5',
        });
    });

    test('refuses an option it does not know, naming it and the ones it takes', () => {
        const input = inputStream();
        assert.throws(() => createMcpStdioServer({serverInfo}).start({stdin: input} as never), {
            name: 'TypeError',
            message: 'server.start(): unknown option "stdin"; the options are input, output, error',
        });
        assert.equal(input.listenerCount('data'), 0);
    });

    test('reads an input that the caller had paused', async () => {
        const input = inputStream();
        input.pause();
        const output = new Sink();
        const server = createMcpStdioServer({serverInfo}).start({input, output, error: new Sink()});
        input.push('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
        input.push(null);
        await server.closed;
        assert.equal(output.text, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    });
});

describe('framing through the server', () => {
    test('answers each record as its newline arrives, before the input ends', async () => {
        const h = harness({serverInfo});
        h.sendRaw('{"jsonrpc":"2.0","id":1,');
        h.sendRaw('"method":"ping"}\r\n{"jsonrpc":"2.0","id":2,"method"');
        await h.records(1);
        assert.equal(h.output.text, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
        h.sendRaw(':"ping"}');
        h.input.push(null);
        await h.server.closed;
        assert.equal(
            h.output.text,
            '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
        );
    });

    test('keeps a multibyte character split across byte chunks', async () => {
        const seen: unknown[] = [];
        const h = harness({
            serverInfo,
            tools: [
                {
                    name: 'echo',
                    inputSchema: {type: 'object'},
                    handler: (args) => {
                        seen.push(args.text);
                        return text(String(args.text));
                    },
                },
            ],
        });
        await h.initialize();
        const bytes = Buffer.from(
            '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"🌕 lune"}}}\n',
        );
        const at = bytes.indexOf(Buffer.from('🌕')) + 2;
        h.sendRaw(bytes.subarray(0, at));
        h.sendRaw(bytes.subarray(at));
        await h.records(2);
        assert.deepEqual(seen, ['🌕 lune']);
        h.input.push(null);
        await h.server.closed;
    });

    test('closes the transport on invalid UTF-8 with the affected chunks and pending text in the diagnostic', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        const first = Buffer.from('{"jsonrpc":"2.0","id":2,"method":"pi');
        const second = Buffer.from([0x6e, 0xff, 0x67]);
        const {signal} = gate.call(0).context;
        const aborted = once(signal, 'abort');
        h.sendRaw(first);
        h.sendRaw(second);
        await aborted;
        gate.call(0).done.reject(signal.reason);
        const failure = await rejection(h.server.closed);
        assert.equal(failure.errors.length, 1);
        const cause = failure.errors[0] as Utf8DecodeError;
        assert.ok(cause instanceof Utf8DecodeError);
        assert.deepEqual(cause.chunks, [first, second]);
        assert.equal(cause.chunks[0], first);
        assert.equal(cause.pendingText, first.toString());
        assert.equal(signal.reason, cause);
        assert.ok(h.errors.text.includes(`'${first.toString('hex')}'`));
        assert.ok(h.errors.text.includes(`'${second.toString('hex')}'`));
        assert.ok(h.errors.text.includes(`pendingText: '${first.toString()}'`));
        assert.equal(
            failure.message,
            'The MCP stdio session failed: The input is not valid UTF-8: the MCP client must send UTF-8 encoded JSON-RPC records, one per line. The transport was closed.',
        );
    });
});

describe('drain', () => {
    test('waits for accepted handlers and their writes without stopping input', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        let drained = false;
        const draining = h.server.drain().then(() => {
            drained = true;
        });
        call(h, 2);
        await gate.started(2);
        gate.call(0).done.resolve(text('one'));
        await h.records(2);
        assert.equal(drained, false);
        h.output.hold = true;
        gate.call(1).done.resolve(text('two'));
        await h.records(3);
        assert.equal(drained, false);
        h.output.hold = false;
        assert.equal(h.output.release(), 1);
        await draining;
        assert.equal(h.input.isPaused(), false);
        h.send({jsonrpc: '2.0', id: 3, method: 'ping'});
        await h.records(4);
        h.input.push(null);
        await h.server.closed;
    });

    test('resolves at once before start', async () => {
        await createMcpStdioServer({serverInfo}).drain();
    });
});

describe('close and closed', () => {
    test('stops reading, drains, detaches its listeners and resolves closed, without ending the streams', async () => {
        const {gate, h} = slowServer();
        const listeners = (stream: Readable | Writable) =>
            ['data', 'end', 'error', 'close', 'finish'].map((event) => stream.listenerCount(event));
        assert.deepEqual(listeners(h.input), [1, 1, 1, 1, 0]);
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        const closing = h.server.close();
        assert.equal(h.server.close(), closing);
        assert.equal(h.input.isPaused(), true);
        h.send({jsonrpc: '2.0', id: 'late', method: 'ping'});
        gate.call(0).done.resolve(text('finished'));
        await closing;
        await h.server.closed;
        assert.deepEqual(h.output.records().slice(1), [{jsonrpc: '2.0', id: 1, result: text('finished')}]);
        assert.equal(gate.call(0).context.signal.aborted, false);
        const none = [0, 0, 0, 0, 0];
        assert.deepEqual([listeners(h.input), listeners(h.output), listeners(h.errors)], [none, none, none]);
        assert.equal(h.input.destroyed, false);
        assert.equal(h.output.writableEnded, false);
        assert.equal(h.output.destroyed, false);
        assert.equal(h.errors.writableEnded, false);
    });

    test('takes the graceful path at EOF, answering work already accepted', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        h.input.push(null);
        await once(h.input, 'end');
        gate.call(0).done.resolve(text('after eof'));
        await h.server.closed;
        assert.deepEqual(h.output.records()[1], {jsonrpc: '2.0', id: 1, result: text('after eof')});
    });

    test('aborts pending work with cancelPending and sends no response for it', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        const closing = h.server.close({cancelPending: true});
        const reason = gate.call(0).context.signal.reason as DOMException;
        assert.equal(reason.name, 'AbortError');
        assert.equal(reason.message, 'The MCP session was closed with cancelPending: true');
        gate.call(0).done.reject(reason);
        await closing;
        await h.server.closed;
        assert.equal(h.output.lineCount, 1);
        assert.equal(h.errors.text, '');
    });

    test('lets a later close with cancelPending abort work an earlier graceful close waits for', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        const graceful = h.server.close();
        assert.equal(gate.call(0).context.signal.aborted, false);
        const forced = h.server.close({cancelPending: true});
        assert.equal(forced, graceful);
        const {signal} = gate.call(0).context;
        assert.equal(signal.aborted, true);
        gate.call(0).done.reject(signal.reason);
        await graceful;
        await h.server.closed;
    });

    test('called from a handler, leaves alone an input its owner resumed or destroyed meanwhile', async () => {
        for (const owner of ['resume', 'destroy'] as const) {
            const h = harness({
                serverInfo,
                tools: [
                    tool('quit', () => {
                        void h.server.close();
                        h.input[owner]();
                        return text('bye');
                    }),
                ],
            });
            await h.initialize();
            call(h, 1, 'quit');
            await h.server.closed;
            assert.equal(h.input.readableFlowing, owner === 'resume');
            assert.equal(h.input.destroyed, owner === 'destroy');
        }
    });

    test('validates its options', () => {
        const server = createMcpStdioServer({serverInfo});
        assert.throws(() => server.close({cancelPending: 'yes'} as never), {
            name: 'TypeError',
            message: 'server.close(): cancelPending must be a boolean, got the string "yes"',
        });
        assert.throws(() => server.close(true as never), {
            name: 'TypeError',
            message: 'server.close(options) needs an options object, got boolean true',
        });
    });

    test('resolves closed at once when closed before start', async () => {
        const server = createMcpStdioServer({serverInfo});
        await server.close();
        await server.closed;
    });

    test('keeps the session open after request failures', async () => {
        const h = harness({
            serverInfo,
            tools: [
                {
                    name: 'boom',
                    inputSchema: {type: 'object'},
                    handler: () => {
                        throw new Error('boom');
                    },
                },
            ],
        });
        await h.initialize();
        h.sendRaw('not json\n');
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'boom'}});
        h.send({jsonrpc: '2.0', id: 2, method: 'nope'});
        h.send({jsonrpc: '2.0', id: 3, method: 'ping'});
        await h.records(5);
        assert.deepEqual(h.output.records()[4], {jsonrpc: '2.0', id: 3, result: {}});
        h.input.push(null);
        await h.server.closed;
    });
});

describe('stream failures', () => {
    test('an input error cancels pending work with that error and rejects closed once the work settles', async () => {
        const {gate, h} = slowServer();
        await h.initialize();
        call(h, 1);
        await gate.started(1);
        const failure = new Error('read EIO');
        const {signal} = gate.call(0).context;
        const aborted = once(signal, 'abort');
        h.input.destroy(failure);
        await aborted;
        assert.equal(signal.reason, failure);
        let settled = false;
        const closed = h.server.closed.finally(() => {
            settled = true;
        });
        await Promise.resolve();
        assert.equal(settled, false);
        gate.call(0).done.reject(signal.reason);
        const aggregate = await rejection(closed);
        assert.deepEqual(aggregate.errors, [failure]);
        assert.equal(aggregate.message, 'The MCP stdio session failed: read EIO');
        assert.ok(
            h.errors.text.startsWith(
                '[arcane-os/mcp/stdio] Transport failure, closing the session and cancelling pending requests: read EIO\n',
            ),
        );
        assert.equal(h.output.lineCount, 1);
    });

    test('an input closed without EOF is a transport failure', async () => {
        const h = harness({serverInfo});
        h.input.destroy();
        const aggregate = await rejection(h.server.closed);
        assert.equal(
            (aggregate.errors[0] as Error).message,
            'The input stream closed before its end: the MCP client went away without closing stdin',
        );
    });

    test('a failed output write rejects closed and is diagnosed', async () => {
        const failure = new Error('write EPIPE');
        const input = inputStream();
        const errors = new Sink();
        const server = createMcpStdioServer({serverInfo}).start({
            input,
            output: failingWritable(failure),
            error: errors,
        });
        input.push('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
        const aggregate = await rejection(server.closed);
        assert.deepEqual(aggregate.errors, [failure]);
        assert.ok(
            errors.text.includes(
                'Transport failure, closing the session and cancelling pending requests: write EPIPE',
            ),
        );
        assert.equal(input.destroyed, false);
    });

    test('a failed diagnostic write rejects closed', async () => {
        const failure = new Error('stderr is gone');
        const input = inputStream();
        const output = new Sink();
        const server = createMcpStdioServer({serverInfo}).start({
            input,
            output,
            error: failingWritable(failure),
        });
        input.push('not json\n');
        const aggregate = await rejection(server.closed);
        assert.deepEqual(aggregate.errors, [failure]);
        assert.equal(output.lineCount, 1);
    });

    test('an output that closes during a pending write settles it as failed', async () => {
        const input = inputStream();
        const holder = new Writable({write() {}});
        const server = createMcpStdioServer({serverInfo}).start({input, output: holder, error: new Sink()});
        input.push('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
        await once(input, 'data');
        holder.destroy();
        const aggregate = await rejection(server.closed);
        assert.equal(
            (aggregate.errors[0] as Error).message,
            'The output stream closed before a pending write completed',
        );
    });
});
