/**
 * `connectInProcess`: this package's stdio server and the client in one process, over a pair of
 * streams, with the guarantees of stdio: the handshake, calls, timeouts and cancellation, a close
 * that closes the server, and a server that closes or fails ending the session.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {connectInProcess} from '../../../lib/mcp/client/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {longServer} from './fixtures/long-server.js';
import {GUARD} from './support.js';

function echoServer() {
    return createMcpStdioServer({
        serverInfo: {name: 'echo', version: '2.0.0'},
        instructions: 'Echoes.',
        tools: [
            {
                name: 'echo',
                inputSchema: {type: 'object', properties: {text: {type: 'string'}}},
                handler: ({text}) => ({content: [{type: 'text', text: String(text)}]}),
            },
        ],
        resources: [
            {
                uri: 'mem://note',
                name: 'note',
                handler: ({uri}) => ({contents: [{uri, text: 'a note'}]}),
            },
        ],
    });
}

test(
    'the client reaches a server in the same process: handshake, list, call, read, and close',
    GUARD,
    async () => {
        const server = echoServer();
        const client = await connectInProcess(server);
        assert.deepEqual(
            {
                serverInfo: client.serverInfo,
                protocolVersion: client.protocolVersion,
                instructions: client.instructions,
            },
            {
                serverInfo: {name: 'echo', version: '2.0.0'},
                protocolVersion: '2025-11-25',
                instructions: 'Echoes.',
            },
        );
        assert.deepEqual(await client.listTools(), [
            {name: 'echo', inputSchema: {type: 'object', properties: {text: {type: 'string'}}}},
        ]);
        assert.deepEqual(await client.callTool('echo', {text: 'hi'}), {
            content: [{type: 'text', text: 'hi'}],
        });
        assert.deepEqual(await client.readResource('mem://note'), {
            contents: [{uri: 'mem://note', text: 'a note'}],
        });
        await client.ping();
        const closing = client.close();
        assert.equal(client.close(), closing);
        await closing;
        // The server saw the end of its input and closed cleanly.
        await server.closed;
        await assert.rejects(client.listTools(), {
            name: 'McpConnectionError',
            message: 'Cannot send tools/list: The MCP client was closed',
        });
    },
);

test('a call that times out is cancelled in the server, and the session goes on', GUARD, async () => {
    const {server, nextCall} = longServer();
    const client = await connectInProcess(server);
    const calling = client.callTool('quiet', {}, {timeoutMs: 50});
    const call = await nextCall();
    await assert.rejects(calling, {name: 'McpTimeoutError', timeoutMs: 50});
    assert.equal(await call.cancelled, 'The client timed out after 50 ms');
    const again = client.callTool('quiet', {});
    (await nextCall()).finish();
    assert.deepEqual(await again, {content: [{type: 'text', text: 'finished'}]});
    await client.close();
    await server.closed;
});

test(
    'closing with a call in flight cancels it and closes the server once its grace is over',
    GUARD,
    async () => {
        const {server, nextCall} = longServer();
        const client = await connectInProcess(server, {exitGraceMs: 50});
        const calling = client.callTool('quiet', {});
        const call = await nextCall();
        const refused = assert.rejects(calling, {
            name: 'McpConnectionError',
            message: 'The MCP client was closed before the server answered tools/call',
        });
        await client.close();
        await refused;
        assert.equal(await call.cancelled, 'The client is closing');
        await server.closed;
    },
);

test('a server that closes by itself ends the session with a connection error', GUARD, async () => {
    const server = echoServer();
    const client = await connectInProcess(server);
    await server.close();
    await assert.rejects(client.listTools(), {
        name: 'McpConnectionError',
        message: 'Cannot send tools/list: The in-process MCP server closed',
    });
    await client.close();
});

test('stderr takes the server diagnostics, or discards them', GUARD, async () => {
    for (const stderr of ['ignore', (_text: string) => {}] as const) {
        const server = echoServer();
        const client = await connectInProcess(server, {stderr});
        assert.deepEqual(await client.callTool('echo', {text: 'x'}), {content: [{type: 'text', text: 'x'}]});
        await client.close();
        await server.closed;
    }
});

test('what is not a fresh server, or an unknown option, is refused at the call site', GUARD, async () => {
    assert.throws(() => connectInProcess({} as never), {
        name: 'TypeError',
        message:
            'connectInProcess(server) needs a server not yet started, as createMcpStdioServer(...) returns, got an object',
    });
    assert.throws(
        () => connectInProcess(echoServer(), {command: 'node'} as never),
        (error: unknown) => {
            assert.ok(error instanceof TypeError);
            assert.match(
                error.message,
                /^connectInProcess: unknown option "command"; the options are clientInfo, /,
            );
            return true;
        },
    );
    assert.throws(() => connectInProcess(echoServer(), {exitGraceMs: -1}), {
        name: 'RangeError',
        message: `connectInProcess: exitGraceMs must be a whole number from 0 to 2147483647, got -1`,
    });
    const started = echoServer();
    const first = await connectInProcess(started);
    await assert.rejects(connectInProcess(started), {
        name: 'TypeError',
        message:
            'server.start() was already called: a server serves exactly one session; create another server for another session',
    });
    await first.close();
});
