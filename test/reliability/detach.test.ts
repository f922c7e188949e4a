/**
 * Streams a hosting app passes to `start()`: however the session ends, once `closed` has settled
 * the adapter has removed every listener it added to the three streams and left the input paused,
 * and it reads nothing more from it. The ways of ending mirror session-end.test.ts (EPIPE aside,
 * which only a real pipe has); each fault comes while the adapter handles the input chunk that
 * caused it or, for write faults, a turn later while that chunk's result has paused the input.
 */
import assert from 'node:assert/strict';
import type {Readable, Writable} from 'node:stream';
import {test} from 'node:test';
import {setImmediate as turn} from 'node:timers/promises';
import type {McpStdioServer, StartOptions} from '../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../lib/mcp/stdio/index.js';
import {inputStream, Sink} from '../helpers/streams.js';
import type {Fault} from './support.js';
import {callRecord, initializeRecord, MARK, Relay, text, waitForAbort, watchEscapes} from './support.js';

interface Streams {
    input: Readable;
    output: Writable;
    error: Writable;
}

interface Way {
    name: string;
    rejects: boolean;
    /** The streams to pass, when not plain ones. */
    streams?: (sink: Sink) => Partial<StartOptions>;
    /** What the `trigger` tool does from inside its handler. */
    trigger?: (server: McpStdioServer, input: Readable) => void;
    /** What the client sends after `initialize`. Default: a call of `trigger`. */
    send?: string | Buffer | null;
}

const relay = (fault: Fault) => (sink: Sink) => ({
    output: new Relay(sink, fault, `the output broke (${fault})`),
});
const WAYS: readonly Way[] = [
    {name: 'EOF', rejects: false, send: null},
    {name: 'close() from a handler', rejects: false, trigger: (server) => void server.close()},
    {
        name: 'close({cancelPending: true}) from a handler',
        rejects: false,
        send: callRecord('pending', 'wait') + callRecord('trigger', 'trigger'),
        trigger: (server) => void server.close({cancelPending: true}),
    },
    ...(['callback', 'error', 'close', 'finish'] as const).map((fault) => ({
        name: `an output write that fails by ${fault === 'callback' ? 'its callback' : `${fault} without its callback`}`,
        rejects: true,
        streams: relay(fault),
    })),
    {
        name: 'a diagnostic write that fails',
        rejects: true,
        streams: (sink) => ({error: new Relay(sink, 'callback', 'the diagnostics broke')}),
        send: `{${MARK}${'x'.repeat(4096)}\n`,
    },
    {
        name: 'an input error',
        rejects: true,
        trigger: (_server, input) => input.emit('error', new Error('the input broke')),
    },
    {name: 'an input close without end', rejects: true, trigger: (_server, input) => input.emit('close')},
    {name: 'invalid UTF-8', rejects: true, send: Buffer.from([0x7b, 0xff, 0x0a])},
    {
        name: 'an input chunk that is not bytes',
        rejects: true,
        trigger: (_server, input) => input.emit('data', 42),
    },
];

/** Every event name of `stream` with its listener count. */
function listeners(stream: Readable | Writable): [string | symbol, number][] {
    return stream.eventNames().map((name) => [name, stream.listenerCount(name)]);
}

for (const way of WAYS) {
    test(`after ${way.name}, the app's streams have none of the adapter's listeners and the input stays paused`, async () => {
        const escapes = watchEscapes();
        const sink = new Sink();
        const streams: Streams = {
            input: inputStream(),
            output: new Sink(),
            error: new Sink(),
            ...way.streams?.(sink),
        };
        const {input, output, error} = streams;
        const before = [listeners(input), listeners(output), listeners(error)];
        const server: McpStdioServer = createMcpStdioServer({
            serverInfo: {name: 'detach', version: '1'},
            outputHighWaterMark: 1024,
            tools: [
                {
                    name: 'trigger',
                    inputSchema: {type: 'object'},
                    handler: () => {
                        way.trigger?.(server, input);
                        return text(way.streams === undefined ? 'done' : MARK + 'z'.repeat(4096));
                    },
                },
                {
                    name: 'wait',
                    inputSchema: {type: 'object'},
                    handler: (_args, {signal}) => waitForAbort(signal),
                },
            ],
        }).start(streams);
        input.push(initializeRecord);
        input.push(way.send === undefined ? callRecord('trigger', 'trigger') : way.send);
        const settled = await server.closed.then(
            () => false,
            () => true,
        );
        assert.equal(settled, way.rejects);
        assert.deepEqual([listeners(input), listeners(output), listeners(error)], before);
        assert.equal(input.readableFlowing, false);
        assert.equal(input.isPaused(), true);
        if (way.send !== null) {
            // An input that ended destroys itself; any other is left open, and what comes after
            // the session stays unread in it, for its owner.
            assert.equal(input.destroyed, false);
            const late = '{"jsonrpc":"2.0","id":"late","method":"ping"}\n';
            input.push(late);
            await turn();
            assert.equal(input.readableLength, late.length);
            assert.equal(input.readableFlowing, false);
        }
        assert.deepEqual(escapes.stop(), []);
    });
}
