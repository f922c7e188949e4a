/**
 * The default, tolerant client against a real server process that logs on stdout (made with this
 * package's own stdio server; `test/integration/servers/chatty.test.ts` does the same with the
 * official SDK 1.x), the same server under `strict: true`, and what `onProtocolError` may do
 * without breaking the session.
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {McpClient, McpProtocolErrorEvent, McpStdioClientOptions} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import {assertGone, closeAll, connectFake, GUARD, Wire} from './support.js';

afterEach(closeAll);

const CHATTY = fileURLToPath(new URL('./fixtures/chatty-server.js', import.meta.url));

const NOT_JSON_TAIL =
    '. An MCP server over stdio must write only JSON-RPC messages to stdout (logs belong on stderr).';

function notJson(text: string): McpProtocolErrorEvent {
    return {
        kind: 'not-json',
        message: `The MCP server wrote a line to stdout that is not JSON: ${JSON.stringify(text)}${NOT_JSON_TAIL}`,
        text,
    };
}

function chatty(options: Partial<McpStdioClientOptions>): {connecting: Promise<McpClient>; wire: Wire} {
    const wire = new Wire();
    const connecting = connectMcpClient({
        command: process.execPath,
        args: [CHATTY],
        stderr: wire.stderr,
        ...options,
    } as McpStdioClientOptions);
    return {connecting, wire};
}

const ran = (name: string) => ({content: [{type: 'text', text: `ran ${name}`}]});

test(
    'by default, a real server that prints a banner and a stray line between answers serves every call',
    GUARD,
    async () => {
        const events: McpProtocolErrorEvent[] = [];
        const {connecting, wire} = chatty({onProtocolError: (event) => events.push(event)});
        const client = await connecting;
        assert.deepEqual(client.serverInfo, {name: 'chatty', version: '1.0.0'});
        assert.deepEqual(events, [notJson('chatty MCP server v1.0.0 ready on stdio')]);
        assert.deepEqual(await client.callTool('quiet'), ran('quiet'));
        assert.deepEqual(await client.callTool('noisy'), ran('noisy'));
        assert.deepEqual(await client.callTool('quiet'), ran('quiet'));
        assert.deepEqual(
            (await client.listTools()).map((tool) => tool.name),
            ['quiet', 'noisy'],
        );
        assert.deepEqual(events, [
            notJson('chatty MCP server v1.0.0 ready on stdio'),
            notJson('[chatty] running noisy'),
        ]);
        await client.close();
        assertGone(await wire.pid());
    },
);

test(
    'with strict: true, the same server fails connecting with the banner, as it always did',
    GUARD,
    async () => {
        const events: McpProtocolErrorEvent[] = [];
        const {connecting, wire} = chatty({strict: true, onProtocolError: (event) => events.push(event)});
        await assert.rejects(connecting, (error) => {
            assert.ok(error instanceof McpProtocolViolationError);
            assert.equal(
                error.message,
                `The MCP server wrote a line to stdout that is not JSON: "chatty MCP server v1.0.0 ready on stdio"${NOT_JSON_TAIL}`,
            );
            assert.equal((error.cause as Error).name, 'SyntaxError');
            return true;
        });
        assert.deepEqual(events, [notJson('chatty MCP server v1.0.0 ready on stdio')]);
        assertGone(await wire.pid());
    },
);

test('without a callback, stray lines are skipped silently', GUARD, async () => {
    const {connecting, wire} = chatty({});
    const client = await connecting;
    assert.deepEqual(await client.callTool('noisy'), ran('noisy'));
    assert.deepEqual(await client.callTool('quiet'), ran('quiet'));
    await client.close();
    assertGone(await wire.pid());
});

test(
    'a callback that throws, or returns a promise that rejects, does not break the session',
    GUARD,
    async () => {
        const told: string[] = [];
        const {client, pid} = await connectFake(
            {
                banner: 'banner\n',
                script: {
                    'tools/call': [
                        {raw: 'first\n{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}\n'},
                        {raw: 'second\n{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}\n'},
                    ],
                },
            },
            {
                onProtocolError: (event) => {
                    told.push(event.text);
                    if (event.text === 'first') throw new Error('the logger broke');
                    if (event.text === 'second')
                        return Promise.reject(new Error('async logger broke')) as never;
                },
            },
        );
        assert.deepEqual(await client.callTool('a'), {content: []});
        assert.deepEqual(await client.callTool('b'), {content: []});
        assert.deepEqual(told, ['banner', 'first', 'second']);
        await client.close();
        assertGone(pid);
    },
);

test(
    'a callback may close the client: the pending call fails as closed, nothing more is told',
    GUARD,
    async () => {
        const told: string[] = [];
        let client: McpClient | undefined;
        const connected = await connectFake(
            {script: {'tools/call': [{raw: 'bye\nlater\n'}]}},
            {
                onProtocolError: (event) => {
                    told.push(event.text);
                    void client?.close();
                },
            },
        );
        client = connected.client;
        await assert.rejects(client.callTool('a'), {
            name: 'McpConnectionError',
            message: 'The MCP client was closed before the server answered tools/call',
        });
        await client.close();
        assert.deepEqual(told, ['bye']);
        assertGone(connected.pid);
    },
);

test('the text is cut at 200 characters, never inside a surrogate pair', GUARD, async () => {
    const events: McpProtocolErrorEvent[] = [];
    const long = `${'a'.repeat(199)}\u{1F600}tail`;
    const {client} = await connectFake(
        {script: {'tools/call': [{raw: `${long}\n{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}\n`}]}},
        {onProtocolError: (event) => events.push(event)},
    );
    assert.deepEqual(await client.callTool('a'), {content: []});
    assert.equal(events[0]?.text, `${'a'.repeat(199)}…`);
    assert.ok(Object.isFrozen(events[0]));
    await client.close();
});
