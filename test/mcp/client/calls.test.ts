/** tools/call and resources/read: results, errors, cancellation, timeouts and progress. */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import type {Progress} from '../../../lib/mcp/client/index.js';
import {McpProtocolViolationError, McpRemoteError, McpTimeoutError} from '../../../lib/mcp/client/index.js';
import {closeAll, connectFake, GUARD} from './support.js';

afterEach(closeAll);

const cancelled = (id: number, reason: string) =>
    `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"${reason}"}}`;

test('callTool sends {name, arguments} and resolves with the result exactly as sent', GUARD, async () => {
    const result = {
        content: [
            {type: 'text', text: 'sunny'},
            {type: 'image', data: 'AA==', mimeType: 'image/png'},
        ],
        structuredContent: {sky: 'clear'},
        _meta: {'x/y': true},
        extra: 1,
    };
    const {client, wire} = await connectFake({script: {'tools/call': [{result}]}});
    assert.deepEqual(await client.callTool('weather', {city: 'Oslo', days: [1, 2]}), result);
    assert.equal(
        await wire.receivedLine('tools/call'),
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"weather","arguments":{"city":"Oslo","days":[1,2]}}}',
    );
    await client.close();
});

test('callTool without arguments sends an empty arguments object', GUARD, async () => {
    const {client, wire} = await connectFake();
    await client.callTool('ping');
    assert.equal(
        await wire.receivedLine('tools/call'),
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{}}}',
    );
    await client.close();
});

test('a tool that reports isError resolves with that result, not an empty success', GUARD, async () => {
    const result = {content: [{type: 'text', text: 'no such city'}], isError: true};
    const {client} = await connectFake({script: {'tools/call': [{result}]}});
    assert.deepEqual(await client.callTool('weather', {city: '?'}), result);
    await client.close();
});

test(
    'a JSON-RPC error to tools/call rejects with McpRemoteError carrying code, message and data',
    GUARD,
    async () => {
        const {client} = await connectFake({
            script: {
                'tools/call': [{error: {code: -32602, message: 'Unknown tool: nope', data: {tool: 'nope'}}}],
            },
        });
        await assert.rejects(client.callTool('nope'), (error) => {
            assert.ok(error instanceof McpRemoteError);
            assert.equal(error.name, 'McpRemoteError');
            assert.equal(error.method, 'tools/call');
            assert.equal(error.code, -32602);
            assert.equal(error.message, 'Unknown tool: nope');
            assert.deepEqual(error.data, {tool: 'nope'});
            return true;
        });
        await client.close();
    },
);

test('an error without data has no data member', GUARD, async () => {
    const {client} = await connectFake({script: {'tools/call': [{error: {code: -32603, message: 'boom'}}]}});
    await assert.rejects(client.callTool('x'), (error) => {
        assert.ok(error instanceof McpRemoteError);
        assert.equal(Object.hasOwn(error, 'data'), false);
        return true;
    });
    await client.close();
});

test('a tools/call result without a content array is a protocol violation', GUARD, async () => {
    const {client} = await connectFake({script: {'tools/call': [{result: {structuredContent: {}}}]}});
    await assert.rejects(client.callTool('x'), {
        name: 'McpProtocolViolationError',
        message: 'The MCP server\'s tools/call result for "x" is not an object with a "content" array',
    });
    await client.close();
});

test('readResource sends the uri and resolves with the result as sent', GUARD, async () => {
    const result = {contents: [{uri: 'file:///a', mimeType: 'text/plain', text: 'hello'}]};
    const {client, wire} = await connectFake({script: {'resources/read': [{result}]}});
    assert.deepEqual(await client.readResource('file:///a'), result);
    assert.equal(
        await wire.receivedLine('resources/read'),
        '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a"}}',
    );
    await client.close();
});

test('a resources/read error or malformed result rejects', GUARD, async () => {
    const {client} = await connectFake({
        script: {
            'resources/read': [
                {error: {code: -32002, message: 'Resource not found'}},
                {result: {contents: 1}},
            ],
        },
    });
    await assert.rejects(client.readResource('file:///gone'), {name: 'McpRemoteError', code: -32002});
    await assert.rejects(client.readResource('file:///x'), {
        name: 'McpProtocolViolationError',
        message:
            'The MCP server\'s resources/read result for "file:///x" is not an object with a "contents" array',
    });
    await client.close();
});

test(
    'aborting a call sends notifications/cancelled and rejects with the identical reason',
    GUARD,
    async () => {
        const {client, wire} = await connectFake({
            script: {'tools/call': [{silent: true}, {result: {content: []}}]},
        });
        const controller = new AbortController();
        const reason = {why: 'the user pressed stop'};
        const call = client.callTool('slow', {}, {signal: controller.signal});
        await wire.receivedLine('tools/call');
        controller.abort(reason);
        await assert.rejects(call, (error) => error === reason);
        assert.equal(
            await wire.receivedLine('notifications/cancelled'),
            cancelled(2, 'The client aborted the request'),
        );
        // The session goes on.
        assert.deepEqual(await client.callTool('next'), {content: []});
        await client.close();
    },
);

test('an already aborted signal rejects at once and sends nothing', GUARD, async () => {
    const {client, wire} = await connectFake();
    const reason = new Error('stop');
    await assert.rejects(
        client.callTool('x', {}, {signal: AbortSignal.abort(reason)}),
        (error) => error === reason,
    );
    await client.callTool('y');
    assert.deepEqual((await wire.receivedCount(3)).slice(2), [
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"y","arguments":{}}}',
    ]);
    await client.close();
});

test(
    'a call that times out sends notifications/cancelled and rejects with McpTimeoutError',
    GUARD,
    async () => {
        const {client, wire} = await connectFake({script: {'tools/call': [{silent: true}]}});
        await assert.rejects(client.callTool('slow', {}, {timeoutMs: 40}), (error) => {
            assert.ok(error instanceof McpTimeoutError);
            assert.equal(error.method, 'tools/call');
            assert.equal(error.timeoutMs, 40);
            assert.equal(
                error.message,
                'The MCP server did not answer tools/call within 40 ms; the client stopped waiting and sent ' +
                    'notifications/cancelled, but the server may still be working on it. Raise timeoutMs if the ' +
                    'operation needs longer.',
            );
            return true;
        });
        assert.equal(
            await wire.receivedLine('notifications/cancelled'),
            cancelled(2, 'The client timed out after 40 ms'),
        );
        await client.close();
    },
);

test('the client-wide callTimeoutMs is the default for calls and reads', GUARD, async () => {
    const {client} = await connectFake(
        {script: {'tools/call': [{silent: true}], 'resources/read': [{silent: true}]}},
        {
            callTimeoutMs: 30,
        },
    );
    await assert.rejects(client.callTool('slow'), {name: 'McpTimeoutError', timeoutMs: 30});
    await assert.rejects(client.readResource('x:y'), {
        name: 'McpTimeoutError',
        timeoutMs: 30,
        method: 'resources/read',
    });
    await client.close();
});

test('an answer that arrives after the call was cancelled is dropped', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {
            'tools/call': [{afterCancel: {result: {content: [{type: 'text', text: 'late'}]}}}, {raw: ''}],
        },
    });
    const controller = new AbortController();
    const call = client.callTool('slow', {}, {signal: controller.signal});
    await wire.receivedLine('tools/call');
    controller.abort();
    await assert.rejects(call, {name: 'AbortError'});
    // The server answers once it has read the cancellation; the session goes on regardless.
    await wire.receivedLine('notifications/cancelled');
    assert.deepEqual(await client.listTools(), []);
    await client.close();
});

test('onProgress adds a progress token and receives each notification for the call', GUARD, async () => {
    const updates: Progress[] = [];
    const {client, wire} = await connectFake({
        script: {
            'tools/call': [
                {
                    progress: [
                        {progress: 1, total: 3},
                        {progress: 2, total: 3, message: 'halfway'},
                        {progress: 3},
                    ],
                    andThen: {result: {content: []}},
                },
            ],
        },
    });
    await client.callTool('long', {n: 1}, {onProgress: (update) => updates.push(update)});
    assert.deepEqual(updates, [
        {progress: 1, total: 3},
        {progress: 2, total: 3, message: 'halfway'},
        {progress: 3},
    ]);
    assert.equal(
        await wire.receivedLine('tools/call'),
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"long","arguments":{"n":1},' +
            '"_meta":{"progressToken":2}}}',
    );
    await client.close();
});

test('progress for a call that asked for none, or for no call, is ignored', GUARD, async () => {
    const {client} = await connectFake({
        script: {
            'tools/call': [
                {
                    progress: [{progress: 1}],
                    andThen: {
                        raw: '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":99,"progress":1}}\n',
                    },
                },
                {result: {content: []}},
            ],
        },
    });
    const first = client.callTool('a');
    // The first call's progress carries no token and the stray one names no call: neither is an error.
    assert.deepEqual(await client.callTool('b'), {content: []});
    const firstFails = assert.rejects(first, {
        name: 'McpConnectionError',
        message: 'The MCP client was closed before the server answered tools/call',
    });
    await client.close();
    await firstFails;
});

test('a progress callback that throws fails the call with what it threw, and cancels it', GUARD, async () => {
    const thrown = new Error('callback bug');
    const {client, wire} = await connectFake({
        script: {'tools/call': [{progress: [{progress: 1}], andThen: {silent: true}}]},
    });
    const call = client.callTool(
        'long',
        {},
        {
            onProgress: () => {
                throw thrown;
            },
        },
    );
    await assert.rejects(call, (error) => error === thrown);
    assert.equal(
        await wire.receivedLine('notifications/cancelled'),
        cancelled(2, "The client's progress callback failed"),
    );
    await client.close();
});

test('a malformed progress notification fails its call as a protocol violation', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {'tools/call': [{progress: [{progress: 'half'}], andThen: {silent: true}}]},
    });
    await assert.rejects(client.callTool('long', {}, {onProgress: () => {}}), (error) => {
        assert.ok(error instanceof McpProtocolViolationError);
        assert.match(
            error.message,
            /^The MCP server sent a progress notification for tools\/call whose "progress"/,
        );
        return true;
    });
    assert.equal(
        await wire.receivedLine('notifications/cancelled'),
        cancelled(2, 'The server sent a malformed progress notification'),
    );
    await client.close();
});
