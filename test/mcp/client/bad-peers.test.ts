/**
 * Servers that break the protocol or go away. Each case gives the caller a clear error, ends the
 * child, leaves no handle or timer behind, and raises no unhandled rejection (the runner fails a
 * test that does).
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import type {McpClient} from '../../../lib/mcp/client/index.js';
import {McpConnectionError, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import type {Action} from './fixtures/fake-server.js';
import {assertGone, closeAll, connectFake, GUARD, startFake} from './support.js';

afterEach(closeAll);

/** A call answered by `action` must reject with `check`; then the session is over and the child gone. */
async function fatalCall(action: Action, check: (error: unknown) => boolean, maxMessageBytes?: number) {
    const {client, pid} = await connectFake(
        {script: {'tools/call': [action]}},
        maxMessageBytes === undefined ? {} : {maxMessageBytes},
    );
    let failure: unknown;
    await assert.rejects(client.callTool('x'), (error) => {
        failure = error;
        return check(error);
    });
    await assertOver(client, failure);
    assertGone(pid);
}

/** Later calls fail at once with a connection error that names the failure. */
async function assertOver(client: McpClient, failure: unknown): Promise<void> {
    await client.close();
    await assert.rejects(client.callTool('y'), (error) => {
        assert.ok(error instanceof McpConnectionError);
        assert.equal(error.cause, failure);
        return true;
    });
}

function violation(message: string): (error: unknown) => boolean {
    return (error) => {
        assert.ok(error instanceof McpProtocolViolationError, String(error));
        assert.equal(error.message, message);
        return true;
    };
}

test('a line that is not JSON ends the session with a protocol violation', GUARD, async () => {
    await fatalCall(
        {raw: 'Server ready on stdio!\n'},
        violation(
            'The MCP server wrote a line to stdout that is not JSON: "Server ready on stdio!". An MCP server over ' +
                'stdio must write only JSON-RPC messages to stdout (logs belong on stderr).',
        ),
    );
});

test('a line that is not JSON ends stdin of the child without the caller closing', GUARD, async () => {
    const {client, wire} = await connectFake({script: {'tools/call': [{raw: 'oops\n'}]}});
    await assert.rejects(client.callTool('x'), {name: 'McpProtocolViolationError'});
    // The session closes the transport by itself: the child is told to exit, and does.
    assert.equal(await wire.until((line) => line === 'EOF'), 'EOF');
});

test('a long non-JSON line is shown shortened', GUARD, async () => {
    await fatalCall(
        {raw: `${'x'.repeat(100)}\n`},
        violation(
            `The MCP server wrote a line to stdout that is not JSON: "${'x'.repeat(80)}…". An MCP server over ` +
                'stdio must write only JSON-RPC messages to stdout (logs belong on stderr).',
        ),
    );
});

test('a banner before the handshake fails connecting and ends the child', GUARD, async () => {
    const {connecting, wire} = startFake({banner: 'hello\n'});
    await assert.rejects(connecting, {name: 'McpProtocolViolationError'});
    assertGone(await wire.pid());
});

test('an answer to an id the client never sent ends the session', GUARD, async () => {
    await fatalCall(
        {raw: '{"jsonrpc":"2.0","id":77,"result":{}}\n'},
        violation(
            'The MCP server sent an answer for request id 77, which this client never sent or already settled',
        ),
    );
});

test('an error for an id the client never sent ends the session', GUARD, async () => {
    await fatalCall(
        {raw: '{"jsonrpc":"2.0","id":"2","error":{"code":1,"message":"m"}}\n'},
        violation(
            'The MCP server sent an error for request id "2", which this client never sent or already settled',
        ),
    );
});

test('a second answer to the same request ends the session', GUARD, async () => {
    const {client, pid} = await connectFake({
        script: {
            'tools/call': [
                {raw: '{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}\n'},
                {raw: '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n'},
            ],
        },
    });
    assert.deepEqual(await client.callTool('x'), {content: []});
    await assert.rejects(
        client.callTool('y'),
        violation(
            'The MCP server sent an answer for request id 2, which this client never sent or already settled',
        ),
    );
    await client.close();
    assertGone(pid);
});

test(
    'an error without an id ends the session and says the server could not read a message',
    GUARD,
    async () => {
        await fatalCall(
            {raw: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n'},
            violation(
                'The MCP server sent an error without a request id (code -32700: "Parse error"); it could not read a ' +
                    'message this client sent',
            ),
        );
    },
);

test('a response without result or error fails its request and the session goes on', GUARD, async () => {
    const {client} = await connectFake({
        script: {'tools/call': [{raw: '{"jsonrpc":"2.0","id":$ID}\n'}, {result: {content: []}}]},
    });
    await assert.rejects(
        client.callTool('x'),
        violation(
            'The MCP server\'s answer to tools/call is not a valid JSON-RPC response: it has neither "result" nor "error"',
        ),
    );
    assert.deepEqual(await client.callTool('x'), {content: []});
    await client.close();
});

test('a response without result, error or a usable id ends the session', GUARD, async () => {
    await fatalCall(
        {raw: '{"jsonrpc":"2.0","id":1.5}\n'},
        violation(
            'The MCP server sent a response that cannot be matched to a request: it has neither "result" nor "error"',
        ),
    );
});

test('a message that is not valid JSON-RPC ends the session', GUARD, async () => {
    await fatalCall(
        {raw: '{"jsonrpc":"1.0","method":"notifications/message"}\n'},
        violation('The MCP server sent an invalid message: The "jsonrpc" member must be exactly "2.0"'),
    );
});

test('a line over maxMessageBytes ends the session without buffering it', GUARD, async () => {
    await fatalCall(
        {
            raw: `{"jsonrpc":"2.0","id":$ID,"result":{"content":[{"type":"text","text":"${'y'.repeat(200)}"}]}}\n`,
        },
        violation(
            "The MCP server wrote a line of 273 bytes, over the client's limit of 200 bytes (maxMessageBytes); " +
                'the line was discarded',
        ),
        200,
    );
});

test('bytes that are not UTF-8 end the session', GUARD, async () => {
    await fatalCall({bytes: Buffer.from([0x7b, 0xff, 0xfe, 0x0a]).toString('base64')}, (error) => {
        assert.ok(error instanceof McpProtocolViolationError);
        assert.equal(error.message, 'The MCP server wrote bytes to stdout that are not UTF-8');
        assert.equal((error.cause as Error).name, 'Utf8DecodeError');
        assert.equal(
            (error.cause as Error).message,
            'The input is not valid UTF-8: the MCP server must send UTF-8 encoded JSON-RPC records, ' +
                'one per line. The transport was closed.',
        );
        return true;
    });
});

test('a server that exits mid-call fails the call with a connection error', GUARD, async () => {
    await fatalCall({exit: 3}, (error) => {
        assert.ok(error instanceof McpConnectionError);
        assert.match(
            error.message,
            /^The MCP server process \(.+\) exited with code 3; its stderr may say why$/,
        );
        return true;
    });
});

test('a server that closes its stdout and keeps running is ended', GUARD, async () => {
    const {client, pid} = await connectFake(
        {script: {'tools/call': [{closeStdout: true}]}},
        {exitGraceMs: 50},
    );
    await assert.rejects(client.callTool('x'), {
        name: 'McpConnectionError',
        message: 'The MCP server closed its stdout but did not exit',
    });
    await client.close();
    assertGone(pid);
});

test('every pending request fails together when the session ends', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {'tools/call': [{silent: true}, {exit: 9}], 'resources/read': [{silent: true}]},
    });
    const first = client.callTool('a');
    const second = client.readResource('x:y');
    await wire.receivedLine('resources/read');
    const third = client.callTool('c');
    const results = await Promise.allSettled([first, second, third]);
    const reasons = results.map((result) => (result.status === 'rejected' ? result.reason : undefined));
    assert.ok(reasons[0] instanceof McpConnectionError);
    assert.equal(reasons[1], reasons[0]);
    assert.equal(reasons[2], reasons[0]);
    await client.close();
});

test('a ping from the server is answered and an unknown request is refused, on the wire', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {
            'tools/call': [
                {
                    send: [
                        {jsonrpc: '2.0', id: 's1', method: 'ping'},
                        {jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {}},
                        {
                            jsonrpc: '2.0',
                            method: 'notifications/message',
                            params: {level: 'info', data: 'hi'},
                        },
                    ],
                    andThen: {result: {content: []}},
                },
            ],
        },
    });
    assert.deepEqual(await client.callTool('x'), {content: []});
    assert.equal(await wire.receivedLine('"s1"'), '{"jsonrpc":"2.0","id":"s1","result":{}}');
    assert.equal(
        await wire.receivedLine('"id":7'),
        '{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"This client does not serve sampling/createMessage"}}',
    );
    await client.close();
});

test('a server that stops reading its stdin fails the next write and is ended', GUARD, async () => {
    const {client, pid} = await connectFake(
        {script: {'tools/call': [{closeStdin: true, andThen: {result: {content: []}}}]}},
        {exitGraceMs: 50},
    );
    assert.deepEqual(await client.callTool('x'), {content: []});
    await assert.rejects(client.callTool('y'), (error) => {
        assert.ok(error instanceof McpConnectionError);
        assert.match(
            error.message,
            /^Could not write to the MCP server's stdin \(.+\): it stopped reading or exited$/,
        );
        return true;
    });
    await client.close();
    assertGone(pid);
});
