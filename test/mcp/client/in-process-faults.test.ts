/**
 * `connectInProcess` against a scripted server of the same shape as this package's: what a server
 * writes that breaks the framing (skipped and told, or fatal under `strict`), a server that fails,
 * and a stderr callback that throws, each handled as over stdio.
 */
import assert from 'node:assert/strict';
import type {Readable, Writable} from 'node:stream';
import {test} from 'node:test';
import type {InProcessServer, McpProtocolErrorEvent} from '../../../lib/mcp/client/index.js';
import {connectInProcess} from '../../../lib/mcp/client/index.js';
import {GUARD} from './support.js';

interface Scripted extends InProcessServer {
    output: Writable | undefined;
    error: Writable | undefined;
    fail(reason: Error): void;
}

/** A server that answers initialize and tools/list (no tools), and leaves ping unanswered. */
function scripted(): Scripted {
    let failClosed: (reason: Error) => void = () => {};
    let resolveClosed: () => void = () => {};
    const closed = new Promise<void>((resolve, reject) => {
        resolveClosed = resolve;
        failClosed = reject;
    });
    const server: Scripted = {
        output: undefined,
        error: undefined,
        closed,
        fail: (reason) => failClosed(reason),
        close: async () => resolveClosed(),
        start({input, output, error}: {input: Readable; output: Writable; error?: Writable}) {
            server.output = output;
            server.error = error;
            input.setEncoding('utf8');
            input.on('data', (text: string) => {
                for (const line of text.split('\n').filter((each) => each !== '')) {
                    const message = JSON.parse(line) as {id?: number; method: string};
                    if (message.method === 'tools/list') {
                        output.write(
                            `${JSON.stringify({jsonrpc: '2.0', id: message.id, result: {tools: []}})}\n`,
                        );
                    }
                    if (message.method === 'initialize') {
                        output.write(
                            `${JSON.stringify({
                                jsonrpc: '2.0',
                                id: message.id,
                                result: {
                                    protocolVersion: '2025-11-25',
                                    capabilities: {},
                                    serverInfo: {name: 'scripted', version: '1'},
                                },
                            })}\n`,
                        );
                    }
                }
            });
            input.on('end', () => resolveClosed());
            return server;
        },
    };
    return server;
}

test(
    'a line that is not JSON, too long or not UTF-8 is told to onProtocolError and skipped',
    GUARD,
    async () => {
        const server = scripted();
        const told: McpProtocolErrorEvent[] = [];
        const client = await connectInProcess(server, {
            maxMessageBytes: 200,
            onProtocolError: (event) => told.push(event),
        });
        server.output?.write('hello there\n');
        server.output?.write(`${'x'.repeat(201)}\n`);
        server.output?.write(Buffer.from([0x68, 0xff, 0x0a]));
        assert.deepEqual(await client.listTools(), []);
        assert.deepEqual(told, [
            {
                kind: 'not-json',
                message: 'The MCP server wrote a line to its output that is not JSON: "hello there".',
                text: 'hello there',
            },
            {
                kind: 'oversized',
                message:
                    "The MCP server wrote a line of 201 bytes, over the client's limit of 200 bytes (maxMessageBytes); the line was discarded",
                text: '',
            },
            {
                kind: 'not-utf8',
                message:
                    'The MCP server wrote a line of 2 bytes to its output that is not UTF-8; the line was skipped',
                text: 'h\ufffd',
            },
        ]);
        await client.close();
    },
);

test('under strict, each of them ends the session with a protocol violation', GUARD, async () => {
    const cases: [string | Buffer, string][] = [
        ['hello there\n', 'The MCP server wrote a line to its output that is not JSON: "hello there".'],
        [
            `${'x'.repeat(201)}\n`,
            "The MCP server wrote a line of 201 bytes, over the client's limit of 200 bytes (maxMessageBytes); the line was discarded",
        ],
        [Buffer.from([0xff, 0x0a]), 'The MCP server wrote bytes to its output that are not UTF-8'],
    ];
    for (const [written, message] of cases) {
        const server = scripted();
        const client = await connectInProcess(server, {maxMessageBytes: 200, strict: true});
        const pinging = client.ping();
        server.output?.write(written);
        await assert.rejects(pinging, {name: 'McpProtocolViolationError', message});
        await client.close();
    }
});

test('a server whose closed promise rejects ends the session with a connection error', GUARD, async () => {
    const server = scripted();
    const client = await connectInProcess(server);
    const pinging = client.ping();
    server.fail(new Error('output broke'));
    await assert.rejects(pinging, {
        name: 'McpConnectionError',
        message: 'The in-process MCP server failed: output broke',
    });
    await assert.rejects(client.ping(), {
        name: 'McpConnectionError',
        message: 'Cannot send ping: The in-process MCP server failed: output broke',
    });
    await client.close();
});

test('diagnostics reach the stderr function as text; one that throws ends the session', GUARD, async () => {
    const server = scripted();
    const seen: string[] = [];
    const client = await connectInProcess(server, {
        stderr: (text) => {
            seen.push(text);
            if (text.includes('bad')) throw new Error('stderr bug');
        },
    });
    server.error?.write('first diagnostic\n');
    assert.deepEqual(seen, ['first diagnostic\n']);
    const pinging = client.ping();
    server.error?.write('bad diagnostic\n');
    await assert.rejects(pinging, {
        name: 'McpConnectionError',
        message: 'The stderr callback threw: stderr bug',
    });
    await client.close();
});
