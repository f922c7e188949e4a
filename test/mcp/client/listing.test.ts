/** tools/list and resources/list: every page, and the servers whose listing must be refused. */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {McpProtocolViolationError, McpTimeoutError} from '../../../lib/mcp/client/index.js';
import type {Action} from './fixtures/fake-server.js';
import {assertGone, closeAll, connectFake, GUARD} from './support.js';

afterEach(closeAll);

function tool(name: string, extra: object = {}) {
    return {name, inputSchema: {type: 'object'}, ...extra};
}

function pages(method: string, ...results: object[]): {script: Record<string, Action[]>} {
    return {script: {[method]: results.map((result) => ({result}))}};
}

test('listTools follows nextCursor through every page and keeps each tool as sent', GUARD, async () => {
    const weather = tool('weather', {
        description: 'Weather',
        inputSchema: {
            type: 'object',
            properties: {city: {type: 'string'}},
            required: ['city'],
            $defs: {x: {}},
        },
        outputSchema: {type: 'object'},
        annotations: {readOnlyHint: true},
        _meta: {'vendor/x': 1},
    });
    const {client, wire} = await connectFake(
        pages(
            'tools/list',
            {tools: [weather, tool('b')], nextCursor: 'page-2'},
            {tools: [], nextCursor: ''},
            {tools: [tool('c')], nextCursor: null},
        ),
    );
    assert.deepEqual(await client.listTools(), [weather, tool('b'), tool('c')]);
    assert.deepEqual((await wire.receivedCount(5)).slice(2), [
        '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"page-2"}}',
        '{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":""}}',
    ]);
    await client.close();
});

test('listResources follows nextCursor through every page', GUARD, async () => {
    const first = {uri: 'file:///a', name: 'a', mimeType: 'text/plain'};
    const second = {uri: 'file:///b', name: 'b'};
    const {client, wire} = await connectFake(
        pages('resources/list', {resources: [first], nextCursor: 'n'}, {resources: [second]}),
    );
    assert.deepEqual(await client.listResources(), [first, second]);
    assert.deepEqual((await wire.receivedCount(4)).slice(3), [
        '{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":"n"}}',
    ]);
    await client.close();
});

test('a repeated cursor is refused, naming the cursor and the page', GUARD, async () => {
    const {client, pid} = await connectFake(
        pages(
            'tools/list',
            {tools: [tool('a')], nextCursor: 'x'},
            {tools: [tool('b')], nextCursor: 'y'},
            {tools: [tool('c')], nextCursor: 'x'},
        ),
    );
    await assert.rejects(client.listTools(), {
        name: 'McpProtocolViolationError',
        message:
            'The MCP server\'s tools/list result (page 3) repeats the cursor "x", which an earlier page already ' +
            'gave; following it would list the same pages forever',
    });
    // The session is still usable: the refusal belongs to that listing only.
    assert.deepEqual(await client.callTool('a'), {content: [{type: 'text', text: 'called a'}]});
    await client.close();
    assertGone(pid);
});

test('a tool name listed twice, across pages, is refused', GUARD, async () => {
    const {client} = await connectFake(
        pages(
            'tools/list',
            {tools: [tool('a'), tool('b')], nextCursor: 'x'},
            {tools: [tool('c'), tool('a')]},
        ),
    );
    await assert.rejects(client.listTools(), (error) => {
        assert.ok(error instanceof McpProtocolViolationError);
        assert.equal(
            error.message,
            'The MCP server\'s tools/list result (page 2) tools[1] repeats the tool name "a", already listed on ' +
                'page 1; tool names must be unique, so a call by that name would be ambiguous',
        );
        return true;
    });
    await client.close();
});

/** Each case: a listing result that breaks the shape the client relies on, and its message. */
const MALFORMED: [string, string, object, string][] = [
    ['tools/list', 'no tools array', {tools: {}}, 'result (page 1) is not an object with a "tools" array'],
    ['tools/list', 'a tool that is not an object', {tools: [1]}, 'result (page 1) tools[0] is not an object'],
    [
        'tools/list',
        'a tool without a name',
        {tools: [{inputSchema: {}}]},
        'result (page 1) tools[0] has no "name" string',
    ],
    [
        'tools/list',
        'a tool without an inputSchema',
        {tools: [{name: 'a'}]},
        'result (page 1) tools[0] ("a") has no "inputSchema" object',
    ],
    [
        'tools/list',
        'a cursor that is not a string',
        {tools: [], nextCursor: 2},
        'result (page 1) has a "nextCursor" that is not a string: number 2',
    ],
    [
        'resources/list',
        'a result that is not an object',
        {result: 'x'},
        'result (page 1) is not an object with a "resources" array',
    ],
    [
        'resources/list',
        'a resource without a uri',
        {resources: [{name: 'x'}]},
        'result (page 1) resources[0] has no "uri" string',
    ],
];

for (const [method, what, result, message] of MALFORMED) {
    test(`a ${method} result with ${what} is a protocol violation`, GUARD, async () => {
        const {client} = await connectFake(
            pages(method, 'result' in result ? (result.result as object) : result),
        );
        const list = method === 'tools/list' ? client.listTools() : client.listResources();
        await assert.rejects(list, {
            name: 'McpProtocolViolationError',
            message: `The MCP server's ${method} ${message}`,
        });
        await client.close();
    });
}

test('a listing error from the server rejects with it', GUARD, async () => {
    const {client} = await connectFake({
        script: {'tools/list': [{error: {code: -32601, message: 'No tools here'}}]},
    });
    await assert.rejects(client.listTools(), {
        name: 'McpRemoteError',
        code: -32601,
        message: 'No tools here',
    });
    await client.close();
});

test('the list timeout bounds every page together', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {
            'tools/list': [{result: {tools: [tool('a')], nextCursor: 'more'}}, {silent: true}],
        },
    });
    await assert.rejects(client.listTools({timeoutMs: 100}), (error) => {
        assert.ok(error instanceof McpTimeoutError);
        assert.equal(error.method, 'tools/list');
        assert.equal(error.timeoutMs, 100);
        return true;
    });
    assert.equal(
        await wire.receivedLine('notifications/cancelled'),
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"The client timed out after 100 ms"}}',
    );
    await client.close();
});

test(
    'a listing aborted while its second page is pending rejects with the reason and cancels that page',
    GUARD,
    async () => {
        const controller = new AbortController();
        const reason = new Error('enough');
        const {client, wire} = await connectFake({
            script: {'tools/list': [{result: {tools: [tool('a')], nextCursor: 'more'}}, {silent: true}]},
        });
        const listing = client.listTools({signal: controller.signal});
        const rejected = assert.rejects(listing, (error) => error === reason);
        // The second page is asked for only once the first has been answered.
        await wire.receivedLine('"cursor":"more"');
        controller.abort(reason);
        await rejected;
        assert.equal(
            await wire.receivedLine('notifications/cancelled'),
            '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"The client aborted the request"}}',
        );
        await client.close();
    },
);
