/**
 * `connectInProcess` against a scripted server of the same shape as this package's: what a server
 * writes that breaks the framing, a server that fails, and a stderr callback that throws, each
 * ending the session as it would over stdio.
 */
import assert from 'node:assert/strict';
import type {Readable, Writable} from 'node:stream';
import {test} from 'node:test';
import type {InProcessServer} from '../../../lib/mcp/client/index.js';
import {connectInProcess} from '../../../lib/mcp/client/index.js';
import {GUARD} from './support.js';

interface Scripted extends InProcessServer {
    output: Writable | undefined;
    error: Writable | undefined;
    fail(reason: Error): void;
}

/** A server that answers initialize, then does what the test writes on its output. */
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

test('a line that is not JSON ends the session with a protocol violation', GUARD, async () => {
    const server = scripted();
    const client = await connectInProcess(server);
    const listing = client.listTools();
    server.output?.write('hello there\n');
    await assert.rejects(listing, {
        name: 'McpProtocolViolationError',
        message: 'The MCP server wrote a line that is not JSON: "hello there"',
    });
    await client.close();
});

test('a line over maxMessageBytes, or bytes that are not UTF-8, end the session', GUARD, async () => {
    const server = scripted();
    const client = await connectInProcess(server, {maxMessageBytes: 200});
    const listing = client.listTools();
    server.output?.write(`${'x'.repeat(201)}\n`);
    await assert.rejects(listing, {
        name: 'McpProtocolViolationError',
        message:
            "The MCP server wrote a line of 201 bytes, over the client's limit of 200 bytes (maxMessageBytes); the line was discarded",
    });
    await client.close();
    const other = scripted();
    const second = await connectInProcess(other);
    const pinging = second.ping();
    other.output?.write(Buffer.from([0xff, 0x0a]));
    await assert.rejects(pinging, {
        name: 'McpProtocolViolationError',
        message: 'The MCP server wrote bytes that are not UTF-8',
    });
    await second.close();
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
