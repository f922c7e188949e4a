/**
 * Prompts on the raw wire, both eras: the list exactly as authored, `prompts/get` and its argument
 * rules, the handler's context, malformed results, and the options checked at construction.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {describe, test} from 'node:test';
import type {HandlerContext, McpPrompt, McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer, McpProtocolError} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {
    end,
    errorLine,
    HEAD,
    LIST_TAIL,
    legacy,
    lines,
    modern,
    modernLine,
    resultLine,
    SERVER_INFO,
    serve,
} from '../../helpers/wire.js';

const greeting = {messages: [{role: 'user', content: {type: 'text', text: 'Hello'}}]};

const PROMPTS: McpPrompt[] = [
    {name: 'simple', description: 'Says hello', handler: () => greeting as never},
    {
        name: 'review',
        title: 'Code review',
        arguments: [
            {name: 'code', description: 'The code', required: true},
            {name: 'language', required: false, vendor: 'kept'},
        ],
        icons: [{src: 'https://example.com/r.svg', mimeType: 'image/svg+xml'}],
        _meta: {'example.com/x': 1},
        category: 'unknown fields are kept',
        complete: {language: () => ['python']},
        handler: (args) => ({
            description: 'Review',
            messages: [
                {
                    role: 'user',
                    content: {type: 'text', text: `Review: ${args.code} (${args.language ?? '-'})`},
                },
                {
                    role: 'assistant',
                    content: {type: 'resource', resource: {uri: 'test://x', text: 'embedded'}},
                    extra: true,
                },
            ],
        }),
    },
];

const LIST =
    '[{"name":"simple","description":"Says hello"},{"name":"review","title":"Code review",' +
    '"arguments":[{"name":"code","description":"The code","required":true},{"name":"language","required":false,"vendor":"kept"}],' +
    '"icons":[{"src":"https://example.com/r.svg","mimeType":"image/svg+xml"}],"_meta":{"example.com/x":1},' +
    '"category":"unknown fields are kept"}]';

function server(prompts: McpPrompt[] = PROMPTS, extra: Partial<McpStdioServerOptions> = {}) {
    return serve({prompts, ...extra});
}

describe('prompts/list', () => {
    test('legacy: the descriptors exactly as authored, less handler and complete; the prompts capability', async () => {
        const h = server();
        assert.equal(
            JSON.stringify(await h.initialize()),
            '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25",' +
                '"capabilities":{"prompts":{},"completions":{}},"serverInfo":{"name":"surface-test","version":"1.0.0"}}}',
        );
        assert.equal(
            await legacy(h, 1, 'prompts/list'),
            `{"jsonrpc":"2.0","id":1,"result":{"prompts":${LIST}}}`,
        );
        assert.equal(
            await legacy(h, 2, 'prompts/list', {cursor: 'x'}),
            errorLine(
                2,
                -32602,
                'prompts/list returns the complete list in one result and takes no "cursor"',
            ),
        );
        await end(h);
    });

    test('2026-07-28: identity, caching hints, and prompts in server/discover', async () => {
        const h = server();
        assert.equal(
            await modern(h, 1, 'prompts/list'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"prompts":${LIST}${LIST_TAIL}}`,
        );
        assert.equal(
            await modern(h, 2, 'server/discover'),
            `{"jsonrpc":"2.0","id":2,"result":${HEAD}"supportedVersions":["2026-07-28","2025-11-25"],` +
                `"capabilities":{"prompts":{},"completions":{}}${LIST_TAIL}}`,
        );
        await end(h);
    });

    test('a prompt without completers advertises prompts alone', async () => {
        const h = server([PROMPTS[0] as McpPrompt]);
        assert.equal(
            await modern(h, 1, 'server/discover'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"supportedVersions":["2026-07-28","2025-11-25"],` +
                `"capabilities":{"prompts":{}}${LIST_TAIL}}`,
        );
        await end(h);
    });
});

describe('prompts/get', () => {
    test('legacy: the handler result passed through untouched, arguments as given', async () => {
        const h = server();
        await h.initialize();
        assert.equal(await legacy(h, 1, 'prompts/get', {name: 'simple'}), resultLine(1, greeting));
        assert.equal(
            await legacy(h, 2, 'prompts/get', {name: 'review', arguments: {code: 'x = 1', extra: 'ok'}}),
            '{"jsonrpc":"2.0","id":2,"result":{"description":"Review","messages":[' +
                '{"role":"user","content":{"type":"text","text":"Review: x = 1 (-)"}},' +
                '{"role":"assistant","content":{"type":"resource","resource":{"uri":"test://x","text":"embedded"}},"extra":true}]}}',
        );
        await end(h);
    });

    test('2026-07-28: resultType and the server identity, no caching hints', async () => {
        const h = server();
        assert.equal(await modern(h, 1, 'prompts/get', {name: 'simple'}), modernLine(1, greeting));
        assert.ok(!(await modern(h, 2, 'prompts/get', {name: 'simple'})).includes('ttlMs'));
        await end(h);
    });

    for (const era of ['legacy', 'modern'] as const) {
        test(`${era}: an unknown name, a missing required argument and non-string arguments are -32602`, async () => {
            const h = server();
            if (era === 'legacy') await h.initialize();
            const ask = (id: number, params: object) =>
                era === 'legacy'
                    ? legacy(h, id, 'prompts/get', params)
                    : modern(h, id, 'prompts/get', params);
            assert.equal(await ask(1, {name: 'nope'}), errorLine(1, -32602, 'Unknown prompt: "nope"'));
            assert.equal(
                await ask(2, {}),
                errorLine(2, -32602, 'prompts/get needs "params.name", the prompt name as a string'),
            );
            assert.equal(
                await ask(3, {name: 'review'}),
                errorLine(
                    3,
                    -32602,
                    'prompts/get of prompt "review" is missing the required argument "code"',
                ),
            );
            assert.equal(
                await ask(4, {name: 'review', arguments: {language: 'py'}}),
                errorLine(
                    4,
                    -32602,
                    'prompts/get of prompt "review" is missing the required argument "code"',
                ),
            );
            assert.equal(
                await ask(5, {name: 'review', arguments: {code: 1}}),
                errorLine(5, -32602, 'prompts/get of prompt "review": argument "code" must be a string'),
            );
            assert.equal(
                await ask(6, {name: 'review', arguments: ['x']}),
                errorLine(6, -32602, 'prompts/get "params.arguments" must be an object of string values'),
            );
            assert.equal(
                await ask(7, {name: 'simple', arguments: null}),
                errorLine(7, -32602, 'prompts/get "params.arguments" must be an object of string values'),
            );
            await end(h);
        });
    }

    test('several missing required arguments are named together', async () => {
        const h = server([
            {
                name: 'two',
                arguments: [
                    {name: 'a', required: true},
                    {name: 'b', required: true},
                ],
                handler: () => greeting as never,
            },
        ]);
        assert.equal(
            await modern(h, 1, 'prompts/get', {name: 'two', arguments: {}}),
            errorLine(1, -32602, 'prompts/get of prompt "two" is missing the required arguments "a", "b"'),
        );
        await end(h);
    });

    test('the handler context is a tool’s: method, params, signal, progress, cancellation', async () => {
        const gate = new Gate<HandlerContext<'prompts/get'>>();
        const h = server([{name: 'slow', handler: gate.handler as never}]);
        await h.initialize();
        h.send({
            jsonrpc: '2.0',
            id: 7,
            method: 'prompts/get',
            params: {name: 'slow', arguments: {a: 'b'}, _meta: {progressToken: 'tok'}},
        });
        await gate.started(1);
        const {args, context} = gate.call(0);
        assert.deepEqual(args, {a: 'b'});
        assert.equal(context.method, 'prompts/get');
        assert.equal(context.requestId, 7);
        assert.deepEqual(context.params, {name: 'slow', arguments: {a: 'b'}, _meta: {progressToken: 'tok'}});
        assert.deepEqual(context.clientInfo, {name: 'test-client', version: '1.0.0'});
        assert.equal(context.reportProgress({progress: 1}), true);
        await h.output.waitForLines(2);
        assert.equal(
            lines(h)[1],
            '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":1}}',
        );
        const aborted = once(context.signal, 'abort');
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 7, reason: 'stop'}});
        await aborted;
        assert.equal(context.signal.reason, 'stop');
        gate.call(0).done.reject(context.signal.reason);
        await h.server.drain();
        assert.equal(lines(h).length, 2);
        await end(h);
    });

    test('an async handler is answered when it settles', async () => {
        const gate = new Gate();
        const h = server([{name: 'later', handler: gate.handler as never}]);
        h.send({jsonrpc: '2.0', id: 1, method: 'prompts/get', params: {name: 'later', _meta: {...meta()}}});
        await gate.started(1);
        const answered = h.output.waitForLines(1);
        gate.call(0).done.resolve(greeting);
        await answered;
        assert.deepEqual(lines(h), [modernLine(1, greeting)]);
        await end(h);
    });
});

function meta() {
    return {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
    };
}

describe('prompts/get failures', () => {
    const internal = (id: number, what: string) =>
        errorLine(
            id,
            -32603,
            `Internal error in prompts/get of prompt "bad" (request id ${id}): ${what}; the server's diagnostics have the details`,
        );

    const cases: [string, unknown, string][] = [
        [
            'no messages array',
            {messages: 'x'},
            'the handler returned an invalid GetPromptResult: it must be an object with a "messages" array',
        ],
        [
            'a message with another role',
            {messages: [{role: 'system', content: {type: 'text', text: 'x'}}]},
            'the handler returned an invalid GetPromptResult: messages[0] needs "role" "user" or "assistant"',
        ],
        [
            'a message without a content block',
            {messages: [{role: 'user', content: 'x'}]},
            'the handler returned an invalid GetPromptResult: messages[0] needs a "content" block with a "type" string',
        ],
    ];
    for (const [what, result, problem] of cases) {
        test(`a malformed result (${what}) is -32603 with a diagnostic, in both eras`, async () => {
            const h = server([{name: 'bad', handler: () => result as never}]);
            assert.equal(await modern(h, 1, 'prompts/get', {name: 'bad'}), internal(1, problem));
            await h.initialize();
            assert.equal(await legacy(h, 2, 'prompts/get', {name: 'bad'}), internal(2, problem));
            assert.ok(
                h.errors.text.startsWith(
                    `[arcane-os/mcp/stdio] The prompts/get of prompt "bad" (request id 1) failed: ${problem}; answered -32603\n`,
                ),
            );
            await end(h);
        });
    }

    test('a throwing handler is -32603; an McpProtocolError is answered as thrown', async () => {
        const h = server([
            {
                name: 'bad',
                handler: () => {
                    throw new Error('no template');
                },
            },
            {
                name: 'chosen',
                handler: () => {
                    throw new McpProtocolError(-32099, 'chosen by the app', {why: 1});
                },
            },
        ]);
        assert.equal(await modern(h, 1, 'prompts/get', {name: 'bad'}), internal(1, 'the handler threw'));
        assert.match(h.errors.text, /Error: no template/);
        assert.equal(
            await modern(h, 2, 'prompts/get', {name: 'chosen'}),
            errorLine(2, -32099, 'chosen by the app', {why: 1}),
        );
        await end(h);
    });

    test('a result that claims another resultType is -32603 under 2026-07-28', async () => {
        const h = server([{name: 'bad', handler: () => ({...greeting, resultType: 'incomplete'}) as never}]);
        assert.equal(
            await modern(h, 1, 'prompts/get', {name: 'bad'}),
            internal(
                1,
                'it claims "resultType": "incomplete", but this server answers only complete results',
            ),
        );
        await end(h);
    });
});

describe('without the prompts option', () => {
    test('prompts/list and prompts/get stay unknown methods in both eras, before and after initialize', async () => {
        const h = serve({tools: []});
        const unknown = (id: number, method: string) =>
            errorLine(id, -32601, `Method not found: "${method}"`);
        assert.equal(await legacy(h, 1, 'prompts/list'), unknown(1, 'prompts/list'));
        assert.equal(await modern(h, 2, 'prompts/list'), unknown(2, 'prompts/list'));
        assert.equal(await modern(h, 3, 'prompts/get', {name: 'x'}), unknown(3, 'prompts/get'));
        await h.initialize();
        assert.equal(await legacy(h, 4, 'prompts/get', {name: 'x'}), unknown(4, 'prompts/get'));
        assert.equal(await legacy(h, 5, 'prompts/list'), unknown(5, 'prompts/list'));
        await end(h);
    });

    test('an empty prompts array changes nothing either', async () => {
        const h = serve({prompts: []});
        assert.equal(
            await modern(h, 1, 'server/discover'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"supportedVersions":["2026-07-28","2025-11-25"],` +
                `"capabilities":{}${LIST_TAIL}}`,
        );
        assert.equal(
            await modern(h, 2, 'prompts/list'),
            errorLine(2, -32601, 'Method not found: "prompts/list"'),
        );
        await end(h);
    });
});

describe('the prompts option at construction', () => {
    const P = 'createMcpStdioServer: ';
    const rejects = (prompts: unknown, message: string) =>
        assert.throws(
            () => createMcpStdioServer({serverInfo: SERVER_INFO, prompts: prompts as McpPrompt[]}),
            (error: unknown) => error instanceof TypeError && error.message === message,
        );
    const handler = () => greeting as never;

    test('each wrong shape is a TypeError naming the entry', () => {
        rejects({}, `${P}prompts must be an array, got an object`);
        rejects([null], `${P}prompts[0] must be an object, got null`);
        rejects([{handler}], `${P}prompts[0] needs a non-empty "name" string, got undefined`);
        rejects([{name: 'p'}], `${P}prompts[0] ("p") needs a "handler" function, got undefined`);
        rejects(
            [
                {name: 'p', handler},
                {name: 'p', handler},
            ],
            `${P}prompts[1] ("p") repeats a prompt name; each prompt name must be unique`,
        );
        rejects(
            [{name: 'p', arguments: {}, handler}],
            `${P}prompts[0] ("p") needs "arguments" to be an array of {name, description?, required?}, got an object`,
        );
        rejects(
            [{name: 'p', arguments: [{}], handler}],
            `${P}prompts[0] ("p") arguments[0] must be an object with a non-empty "name" string, got an object`,
        );
        rejects(
            [{name: 'p', arguments: [{name: 'a', required: 'yes'}], handler}],
            `${P}prompts[0] ("p") arguments[0] needs "required", when given, to be a boolean, got the string "yes"`,
        );
        rejects(
            [{name: 'p', arguments: [{name: 'a'}, {name: 'a'}], handler}],
            `${P}prompts[0] ("p") arguments[1] repeats the argument name "a"`,
        );
        rejects(
            [{name: 'p', complete: [], handler}],
            `${P}prompts[0] ("p") needs "complete" to be an object of completer functions by argument name, got an array`,
        );
        rejects(
            [{name: 'p', arguments: [{name: 'a'}], complete: {b: () => []}, handler}],
            `${P}prompts[0] ("p") has a completer for "b", which is not one of its arguments; its arguments are a`,
        );
        rejects(
            [{name: 'p', complete: {b: () => []}, handler}],
            `${P}prompts[0] ("p") has a completer for "b", which is not one of its arguments; it has no arguments`,
        );
        rejects(
            [{name: 'p', arguments: [{name: 'a'}], complete: {a: 'x'}, handler}],
            `${P}prompts[0] ("p") needs complete["a"] to be a function, got the string "x"`,
        );
    });

    test('the descriptor is copied at construction: later changes to it have no effect', async () => {
        const prompt: McpPrompt = {name: 'p', description: 'before', handler};
        const h = serve({prompts: [prompt]});
        prompt.description = 'after';
        assert.equal(
            await modern(h, 1, 'prompts/list'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"prompts":[{"name":"p","description":"before"}]${LIST_TAIL}}`,
        );
        await end(h);
    });

    test('a prompt that cannot be serialized is a TypeError naming it', () => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        assert.throws(
            () =>
                createMcpStdioServer({
                    serverInfo: SERVER_INFO,
                    prompts: [{name: 'p', _meta: cyclic, handler}],
                }),
            (error: unknown) =>
                error instanceof TypeError &&
                error.message.startsWith(`${P}prompts[0] ("p") cannot be serialized as JSON`),
        );
    });
});
