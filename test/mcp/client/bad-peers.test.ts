/**
 * Servers that break the protocol or go away. A stray line (one that belongs to no request) is
 * told to `onProtocolError` and skipped by default, and ends the session with `strict: true`. Each
 * fatal case gives the caller a clear error, ends the child, leaves no handle or timer behind, and
 * raises no unhandled rejection (the runner fails a test that does).
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import type {McpClient, McpProtocolErrorEvent} from '../../../lib/mcp/client/index.js';
import {McpConnectionError, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import type {Action} from './fixtures/fake-server.js';
import {assertGone, closeAll, connectFake, GUARD, startFake} from './support.js';

afterEach(closeAll);

/** A call answered by `action` must reject with `check`; then the session is over and the child gone. */
async function fatalCall(action: Action, check: (error: unknown) => boolean, maxMessageBytes?: number) {
    const {client, pid} = await connectFake(
        {script: {'tools/call': [action]}},
        maxMessageBytes === undefined ? {strict: true} : {strict: true, maxMessageBytes},
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

/** A good answer to the request, written right after a stray line. */
const ANSWER = '{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}\n';

const NOT_JSON_TAIL =
    '. An MCP server over stdio must write only JSON-RPC messages to stdout (logs belong on stderr).';

test(
    'strict: a line that is not JSON ends stdin of the child without the caller closing',
    GUARD,
    async () => {
        const {client, wire} = await connectFake({script: {'tools/call': [{raw: 'oops\n'}]}}, {strict: true});
        await assert.rejects(client.callTool('x'), {name: 'McpProtocolViolationError'});
        // The session closes the transport by itself: the child is told to exit, and does.
        assert.equal(await wire.until((line) => line === 'EOF'), 'EOF');
    },
);

test('strict: a banner before the handshake fails connecting and ends the child', GUARD, async () => {
    const {connecting, wire} = startFake({banner: 'hello\n'}, {strict: true});
    await assert.rejects(connecting, {name: 'McpProtocolViolationError'});
    assertGone(await wire.pid());
});

test('by default: a banner before the handshake is told and skipped', GUARD, async () => {
    const events: McpProtocolErrorEvent[] = [];
    const {connecting} = startFake({banner: 'hello\n'}, {onProtocolError: (event) => events.push(event)});
    const client = await connecting;
    assert.deepEqual(events, [
        {
            kind: 'not-json',
            message: `The MCP server wrote a line to stdout that is not JSON: "hello"${NOT_JSON_TAIL}`,
            text: 'hello',
        },
    ]);
    assert.deepEqual(await client.listTools(), []);
    await client.close();
});

test('strict: a second answer to the same request ends the session', GUARD, async () => {
    const {client, pid} = await connectFake(
        {
            script: {
                'tools/call': [
                    {raw: '{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}\n'},
                    {raw: '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n'},
                ],
            },
        },
        {strict: true},
    );
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

test('by default: a second answer to the same request is told and skipped', GUARD, async () => {
    const events: McpProtocolErrorEvent[] = [];
    const {client} = await connectFake(
        {
            script: {
                'tools/call': [
                    {raw: ANSWER},
                    {
                        raw: `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"again"}]}}\n${ANSWER}`,
                    },
                ],
            },
        },
        {onProtocolError: (event) => events.push(event)},
    );
    assert.deepEqual(await client.callTool('x'), {content: []});
    assert.deepEqual(await client.callTool('y'), {content: []});
    assert.deepEqual(events, [
        {
            kind: 'unmatched-response',
            message:
                'The MCP server sent an answer for request id 2, which this client never sent or already settled',
            text: '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"again"}]}}',
        },
    ]);
    await client.close();
});

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

test('strict: bytes that are not UTF-8 end the session', GUARD, async () => {
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

test('by default: a line that is not UTF-8 is told and skipped', GUARD, async () => {
    const events: McpProtocolErrorEvent[] = [];
    const answer = Buffer.from('{"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n');
    const bytes = Buffer.concat([Buffer.from([0x7b, 0xff, 0xfe, 0x0a]), answer]);
    const {client} = await connectFake(
        {script: {'tools/call': [{bytes: bytes.toString('base64')}, {result: {content: []}}]}},
        {onProtocolError: (event) => events.push(event)},
    );
    assert.deepEqual(await client.callTool('x'), {content: []});
    assert.deepEqual(events, [
        {
            kind: 'not-utf8',
            message:
                'The MCP server wrote a line of 3 bytes to stdout that is not UTF-8; the line was skipped',
            text: '{\uFFFD\uFFFD',
        },
    ]);
    assert.deepEqual(await client.callTool('y'), {content: []});
    await client.close();
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
