/**
 * The rest of the server surface on the raw wire of a fake server: prompts and resource templates
 * listed through every page, a prompt got, an argument completed, a ping, the logging level and
 * resource subscriptions; the exact bytes sent, the results as sent, and every refusal.
 */
import assert from 'node:assert/strict';
import {after, test} from 'node:test';
import {closeAll, connectFake, GUARD} from './support.js';

after(closeAll);

const PROMPT_A = {name: 'a', description: 'First', arguments: [{name: 'topic', required: true}]};
const PROMPT_B = {name: 'b', title: 'Second'};
const TEMPLATE = {uriTemplate: 'file:///{path}', name: 'files', mimeType: 'text/plain'};

test('listPrompts follows nextCursor through every page and returns the prompts as sent', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {
            'prompts/list': [
                {result: {prompts: [PROMPT_A], nextCursor: 'p2'}},
                {result: {prompts: [PROMPT_B], nextCursor: null}},
            ],
        },
    });
    assert.deepEqual(await client.listPrompts(), [PROMPT_A, PROMPT_B]);
    assert.deepEqual((await wire.receivedCount(4)).slice(2), [
        '{"jsonrpc":"2.0","id":2,"method":"prompts/list","params":{}}',
        '{"jsonrpc":"2.0","id":3,"method":"prompts/list","params":{"cursor":"p2"}}',
    ]);
});

test(
    'a repeated prompt name, a nameless prompt or a repeated cursor is a protocol violation',
    GUARD,
    async () => {
        const {client} = await connectFake({
            script: {
                'prompts/list': [
                    {result: {prompts: [PROMPT_A], nextCursor: 'x'}},
                    {result: {prompts: [PROMPT_A]}},
                    {result: {prompts: [{description: 'no name'}]}},
                    {result: {prompts: [], nextCursor: 'same'}},
                    {result: {prompts: [], nextCursor: 'same'}},
                ],
            },
        });
        await assert.rejects(client.listPrompts(), {
            name: 'McpProtocolViolationError',
            message:
                'The MCP server\'s prompts/list result (page 2) prompts[0] repeats the prompt name "a", already listed on ' +
                'page 1; prompt names must be unique, so a get by that name would be ambiguous',
        });
        await assert.rejects(client.listPrompts(), {
            name: 'McpProtocolViolationError',
            message: 'The MCP server\'s prompts/list result (page 1) prompts[0] has no "name" string',
        });
        await assert.rejects(client.listPrompts(), {
            name: 'McpProtocolViolationError',
            message:
                'The MCP server\'s prompts/list result (page 2) repeats the cursor "same", which an earlier page already ' +
                'gave; following it would list the same pages forever',
        });
    },
);

test('listResourceTemplates lists every page and needs a uriTemplate on each', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {
            'resources/templates/list': [
                {result: {resourceTemplates: [TEMPLATE], nextCursor: 't2'}},
                {result: {resourceTemplates: []}},
                {result: {resourceTemplates: [{name: 'no template'}]}},
                {result: {templates: []}},
            ],
        },
    });
    assert.deepEqual(await client.listResourceTemplates(), [TEMPLATE]);
    assert.equal(
        await wire.receivedLine('"id":3'),
        '{"jsonrpc":"2.0","id":3,"method":"resources/templates/list","params":{"cursor":"t2"}}',
    );
    await assert.rejects(client.listResourceTemplates(), {
        name: 'McpProtocolViolationError',
        message:
            'The MCP server\'s resources/templates/list result (page 1) resourceTemplates[0] has no "uriTemplate" string',
    });
    await assert.rejects(client.listResourceTemplates(), {
        name: 'McpProtocolViolationError',
        message:
            'The MCP server\'s resources/templates/list result (page 1) is not an object with a "resourceTemplates" array',
    });
});

test(
    'getPrompt sends the name and string arguments and resolves with the result as sent',
    GUARD,
    async () => {
        const result = {
            description: 'Greets',
            messages: [{role: 'user', content: {type: 'text', text: 'Hello, Ada'}}],
            extra: 1,
        };
        const {client, wire} = await connectFake({
            script: {
                'prompts/get': [
                    {result},
                    {result: {messages: {}}},
                    {error: {code: -32602, message: 'No prompt x'}},
                ],
            },
        });
        assert.deepEqual(await client.getPrompt('greet', {name: 'Ada'}), result);
        assert.equal(
            await wire.receivedLine('prompts/get'),
            '{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"greet","arguments":{"name":"Ada"}}}',
        );
        await assert.rejects(client.getPrompt('greet'), {
            name: 'McpProtocolViolationError',
            message:
                'The MCP server\'s prompts/get result for "greet" is not an object with a "messages" array',
        });
        assert.equal(
            await wire.receivedLine('"id":3'),
            '{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"greet"}}',
        );
        await assert.rejects(client.getPrompt('x'), {
            name: 'McpRemoteError',
            code: -32602,
            method: 'prompts/get',
            message: 'No prompt x',
        });
        assert.throws(() => client.getPrompt('greet', {n: 1} as never), {
            name: 'TypeError',
            message: 'client.getPrompt: args.n must be a string (prompt arguments are text), got number 1',
        });
        assert.throws(() => client.getPrompt('greet', ['Ada'] as never), {
            name: 'TypeError',
            message: 'client.getPrompt: args must be an object of strings, got an array',
        });
        assert.throws(() => client.getPrompt('', {}), {
            name: 'TypeError',
            message: 'client.getPrompt: the prompt name must be a non-empty string, got the string ""',
        });
    },
);

test('complete sends ref, argument and context, and checks the suggestions', GUARD, async () => {
    const result = {completion: {values: ['python', 'pytorch'], total: 10, hasMore: true}};
    const {client, wire} = await connectFake({
        script: {'completion/complete': [{result}, {result: {completion: {values: [1]}}}, {result: {}}]},
    });
    const params = {
        ref: {type: 'ref/prompt', name: 'code'},
        argument: {name: 'language', value: 'py'},
        context: {arguments: {style: 'short'}},
    } as const;
    assert.deepEqual(await client.complete(params), result);
    assert.equal(
        await wire.receivedLine('completion/complete'),
        '{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"code"},' +
            '"argument":{"name":"language","value":"py"},"context":{"arguments":{"style":"short"}}}}',
    );
    const template = {
        ref: {type: 'ref/resource', uri: 'file:///{path}'},
        argument: {name: 'path', value: ''},
    } as const;
    await assert.rejects(client.complete(template), {
        name: 'McpProtocolViolationError',
        message:
            'The MCP server\'s completion/complete result has a "completion.values" entry that is not a string',
    });
    await assert.rejects(client.complete(template), {
        name: 'McpProtocolViolationError',
        message:
            'The MCP server\'s completion/complete result is not an object with a "completion" object holding a "values" array',
    });
    assert.throws(
        () =>
            client.complete({ref: {type: 'ref/tool', name: 'x'}, argument: {name: 'a', value: ''}} as never),
        {
            name: 'TypeError',
            message:
                "client.complete: ref must be {type: 'ref/prompt', name} or {type: 'ref/resource', uri}, got an object",
        },
    );
    assert.throws(() => client.complete({ref: params.ref, argument: {name: 'a'}} as never), {
        name: 'TypeError',
        message:
            'client.complete: argument must be {name, value} with two strings (value: what was typed so far), got an object',
    });
    assert.throws(() => client.complete({...params, context: {arguments: {a: 1}}} as never), {
        name: 'TypeError',
        message: 'client.complete: context must be {arguments?} with an object of strings, got an object',
    });
    assert.throws(() => client.complete({...params, ref: {...params.ref, extra: 1n}} as never), {
        name: 'TypeError',
        message:
            'client.complete: params cannot be serialized as JSON (Do not know how to serialize a BigInt)',
    });
    assert.throws(() => client.complete(null as never), {
        name: 'TypeError',
        message: 'client.complete(params) needs {ref, argument, context?}, got null',
    });
});

test(
    'ping, setLoggingLevel and the subscriptions send their one request and resolve with nothing',
    GUARD,
    async () => {
        const {client, wire} = await connectFake({
            script: {
                ping: [{result: {}}],
                'logging/setLevel': [{result: {}}],
                'resources/subscribe': [{result: {}}],
                'resources/unsubscribe': [{result: {}}, {error: {code: -32601, message: 'Method not found'}}],
            },
        });
        assert.equal(await client.ping(), undefined);
        assert.equal(await client.setLoggingLevel('warning'), undefined);
        assert.equal(await client.subscribeResource('mem://a'), undefined);
        assert.equal(await client.unsubscribeResource('mem://a'), undefined);
        assert.deepEqual((await wire.receivedCount(6)).slice(2), [
            '{"jsonrpc":"2.0","id":2,"method":"ping","params":{}}',
            '{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"warning"}}',
            '{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"mem://a"}}',
            '{"jsonrpc":"2.0","id":5,"method":"resources/unsubscribe","params":{"uri":"mem://a"}}',
        ]);
        await assert.rejects(client.unsubscribeResource('mem://a'), {name: 'McpRemoteError', code: -32601});
        assert.throws(() => client.setLoggingLevel('verbose' as never), {
            name: 'RangeError',
            message:
                'client.setLoggingLevel: the level must be one of debug, info, notice, warning, error, critical, alert, ' +
                'emergency, got "verbose"',
        });
        assert.throws(() => client.setLoggingLevel(3 as never), {
            name: 'TypeError',
            message: 'client.setLoggingLevel: the level must be a string, got number 3',
        });
        assert.throws(() => client.subscribeResource(undefined as never), {
            name: 'TypeError',
            message: 'client.subscribeResource: the uri must be a non-empty string, got undefined',
        });
    },
);

test('the new methods follow the timeout, signal and option rules of the others', GUARD, async () => {
    const {client, wire} = await connectFake({
        script: {ping: [{silent: true}], 'prompts/get': [{silent: true}]},
    });
    await assert.rejects(client.ping({timeoutMs: 30}), {
        name: 'McpTimeoutError',
        method: 'ping',
        timeoutMs: 30,
    });
    assert.equal(
        await wire.receivedLine('notifications/cancelled'),
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"The client timed out after 30 ms"}}',
    );
    const controller = new AbortController();
    const getting = client.getPrompt('p', {}, {signal: controller.signal});
    await wire.receivedLine('prompts/get');
    const reason = new Error('stop');
    controller.abort(reason);
    await assert.rejects(getting, (error) => error === reason);
    assert.equal(
        await wire.receivedLine('"requestId":3'),
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"The client aborted the request"}}',
    );
    assert.throws(() => client.listPrompts({onProgress: () => {}} as never), {
        name: 'TypeError',
        message: 'client.listPrompts: unknown option "onProgress"; the options are signal, timeoutMs',
    });
    assert.throws(() => client.ping({timeoutMs: 0}), {name: 'RangeError'});
});
