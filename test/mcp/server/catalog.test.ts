import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {McpResource, McpStdioServerOptions, McpTool} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import type {Harness} from '../../helpers/streams.js';
import {finish, harness} from '../../helpers/streams.js';
import {text} from '../../helpers/tools.js';

const SERVER_INFO = {name: 'catalog', version: '1.0.0'};

function tool(name: string, extra: Partial<McpTool> = {}): McpTool {
    return {name, inputSchema: {type: 'object'}, handler: () => text(name), ...extra};
}

function resource(uri: string, extra: Partial<McpResource> = {}): McpResource {
    return {uri, name: uri, handler: ({uri: at}) => ({contents: [{uri: at, text: at}]}), ...extra};
}

/** Asserts that construction throws exactly this error. */
function rejects(options: unknown, name: 'TypeError' | 'RangeError', message: string): void {
    assert.throws(
        () => createMcpStdioServer(options as McpStdioServerOptions),
        (error: unknown) => {
            assert.ok(error instanceof Error);
            assert.equal(error.constructor.name, name);
            assert.equal(error.message, message);
            return true;
        },
    );
}

const P = 'createMcpStdioServer: ';

/** Initializes, sends one request, and returns the exact response line for it. */
async function responseLine(h: Harness, method: string, params?: unknown): Promise<string> {
    await h.initialize();
    const before = h.output.lineCount;
    h.send({jsonrpc: '2.0', id: 2, method, ...(params === undefined ? {} : {params})});
    await h.output.waitForLines(before + 1);
    return h.output.text.split('\n')[before] as string;
}

// --- Construction errors -------------------------------------------------------------------------

test('rejects options that are not an object', () => {
    for (const [options, described] of [
        [undefined, 'undefined'],
        [null, 'null'],
        [[], 'an array'],
        ['moon', 'the string "moon"'],
    ] as const) {
        rejects(
            options,
            'TypeError',
            `createMcpStdioServer(options) needs an options object, got ${described}`,
        );
    }
});

test('rejects an unknown option by name', () => {
    rejects(
        {serverInfo: SERVER_INFO, tool: []},
        'TypeError',
        `${P}unknown option "tool"; the options are serverInfo, instructions, tools, resources, resourceTemplates, prompts, logging, protocolVersions, listCache, readCache, maxMessageBytes, outputHighWaterMark, asking, subscriptions, maxSubscriptions`,
    );
});

test('rejects a serverInfo without name and version strings', () => {
    for (const [serverInfo, described] of [
        [undefined, 'undefined'],
        [{name: 'x'}, 'an object'],
        [{version: '1'}, 'an object'],
        [{name: 'x', version: 1}, 'an object'],
        ['x', 'the string "x"'],
    ] as const) {
        rejects(
            {serverInfo},
            'TypeError',
            `${P}serverInfo must be an object with "name" and "version" strings, got ${described}`,
        );
    }
});

test('rejects a serverInfo that cannot be serialized', () => {
    rejects(
        {serverInfo: {...SERVER_INFO, build: 1n}},
        'TypeError',
        `${P}serverInfo cannot be serialized as JSON (Do not know how to serialize a BigInt); supply JSON-serializable protocol values`,
    );
});

test('rejects instructions that are not a string', () => {
    rejects(
        {serverInfo: SERVER_INFO, instructions: 42},
        'TypeError',
        `${P}instructions must be a string, got number 42`,
    );
    rejects(
        {serverInfo: SERVER_INFO, instructions: null},
        'TypeError',
        `${P}instructions must be a string, got null`,
    );
});

test('rejects tools and resources that are not arrays', () => {
    rejects({serverInfo: SERVER_INFO, tools: {}}, 'TypeError', `${P}tools must be an array, got an object`);
    rejects({serverInfo: SERVER_INFO, tools: null}, 'TypeError', `${P}tools must be an array, got null`);
    rejects(
        {serverInfo: SERVER_INFO, resources: 'pantry://menu'},
        'TypeError',
        `${P}resources must be an array, got the string "pantry://menu"`,
    );
});

test('rejects a tool entry that is not an object, naming its index', () => {
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('a'), null]},
        'TypeError',
        `${P}tools[1] must be an object, got null`,
    );
    rejects(
        {serverInfo: SERVER_INFO, tools: [[tool('a')]]},
        'TypeError',
        `${P}tools[0] must be an object, got an array`,
    );
});

test('rejects a hole in the tools or resources array, naming its index', () => {
    const tools = Object.assign(new Array<McpTool>(3), {0: tool('a'), 2: tool('b')});
    rejects({serverInfo: SERVER_INFO, tools}, 'TypeError', `${P}tools[1] must be an object, got undefined`);
    const resources = Object.assign(new Array<McpResource>(2), {1: resource('x://a')});
    rejects(
        {serverInfo: SERVER_INFO, resources},
        'TypeError',
        `${P}resources[0] must be an object, got undefined`,
    );
});

test('rejects a tool without a non-empty name, naming its index', () => {
    const {name: _omitted, ...nameless} = tool('a');
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('ok'), nameless]},
        'TypeError',
        `${P}tools[1] needs a non-empty "name" string, got undefined`,
    );
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('')]},
        'TypeError',
        `${P}tools[0] needs a non-empty "name" string, got the string ""`,
    );
    rejects(
        {serverInfo: SERVER_INFO, tools: [{...tool('a'), name: 7}]},
        'TypeError',
        `${P}tools[0] needs a non-empty "name" string, got number 7`,
    );
});

test('rejects a tool without a handler function, naming the tool', () => {
    const {handler: _omitted, ...handlerless} = tool('moon.menu');
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('a'), handlerless]},
        'TypeError',
        `${P}tools[1] ("moon.menu") needs a "handler" function, got undefined`,
    );
    rejects(
        {serverInfo: SERVER_INFO, tools: [{...tool('a'), handler: 'readMenu'}]},
        'TypeError',
        `${P}tools[0] ("a") needs a "handler" function, got the string "readMenu"`,
    );
});

test('rejects a tool whose inputSchema is missing or not an object schema, naming the tool', () => {
    const {inputSchema: _omitted, ...schemaless} = tool('a');
    const cases: [unknown, string][] = [
        [undefined, 'undefined'],
        [null, 'null'],
        ['object', 'the string "object"'],
        [[], 'an array'],
        [{}, 'an object'],
        [{type: 'string'}, 'an object'],
        [{type: ['object']}, 'an object'],
    ];
    rejects(
        {serverInfo: SERVER_INFO, tools: [schemaless]},
        'TypeError',
        `${P}tools[0] ("a") needs "inputSchema" to be a JSON Schema object with "type": "object", got undefined`,
    );
    for (const [inputSchema, described] of cases) {
        rejects(
            {serverInfo: SERVER_INFO, tools: [tool('z'), {...tool('a'), inputSchema}]},
            'TypeError',
            `${P}tools[1] ("a") needs "inputSchema" to be a JSON Schema object with "type": "object", got ${described}`,
        );
    }
});

test('rejects a tool whose outputSchema is given but not an object schema, naming the tool', () => {
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('a', {outputSchema: {type: 'array'} as never})]},
        'TypeError',
        `${P}tools[0] ("a") needs "outputSchema" to be a JSON Schema object with "type": "object", got an object`,
    );
    rejects(
        {serverInfo: SERVER_INFO, tools: [{...tool('a'), outputSchema: null}]},
        'TypeError',
        `${P}tools[0] ("a") needs "outputSchema" to be a JSON Schema object with "type": "object", got null`,
    );
});

test('rejects a repeated tool name, naming the second entry', () => {
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('a'), tool('b'), tool('a')]},
        'TypeError',
        `${P}tools[2] ("a") repeats a tool name; each tool name must be unique`,
    );
});

test('rejects a tool descriptor that cannot be serialized, naming the tool', () => {
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('a'), tool('b', {_meta: {size: 2n}})]},
        'TypeError',
        `${P}tools[1] ("b") cannot be serialized as JSON (Do not know how to serialize a BigInt); supply JSON-serializable protocol values`,
    );
    const schema: Record<string, unknown> = {type: 'object'};
    schema.self = schema;
    assert.throws(
        () =>
            createMcpStdioServer({
                serverInfo: SERVER_INFO,
                tools: [tool('c', {inputSchema: schema as never})],
            }),
        (error: unknown) => {
            assert.ok(error instanceof TypeError);
            assert.ok(
                error.message.startsWith(
                    `${P}tools[0] ("c") cannot be serialized as JSON (Converting circular structure`,
                ),
            );
            assert.ok(error.cause instanceof TypeError);
            return true;
        },
    );
});

test('rejects a descriptor or serverInfo that serializes to nothing', () => {
    rejects(
        {serverInfo: {...SERVER_INFO, toJSON: () => undefined}},
        'TypeError',
        `${P}serverInfo cannot be serialized as JSON (it serialized to nothing); supply JSON-serializable protocol values`,
    );
    rejects(
        {serverInfo: SERVER_INFO, tools: [tool('a', {toJSON: () => undefined})]},
        'TypeError',
        `${P}tools[0] ("a") cannot be serialized as JSON (it serialized to nothing); supply JSON-serializable protocol values`,
    );
});

test('rejects a resource entry that is not an object or has no uri, naming its index', () => {
    rejects(
        {serverInfo: SERVER_INFO, resources: [7]},
        'TypeError',
        `${P}resources[0] must be an object, got number 7`,
    );
    const {uri: _omitted, ...uriless} = resource('x://a');
    rejects(
        {serverInfo: SERVER_INFO, resources: [resource('x://b'), uriless]},
        'TypeError',
        `${P}resources[1] needs a non-empty "uri" string, got undefined`,
    );
    rejects(
        {serverInfo: SERVER_INFO, resources: [resource('')]},
        'TypeError',
        `${P}resources[0] needs a non-empty "uri" string, got the string ""`,
    );
});

test('rejects a resource without a name string or handler function, naming the resource', () => {
    const {name: _name, ...nameless} = resource('pantry://menu');
    rejects(
        {serverInfo: SERVER_INFO, resources: [nameless]},
        'TypeError',
        `${P}resources[0] ("pantry://menu") needs a "name" string, got undefined`,
    );
    const {handler: _handler, ...handlerless} = resource('pantry://menu');
    rejects(
        {serverInfo: SERVER_INFO, resources: [resource('x://a'), handlerless]},
        'TypeError',
        `${P}resources[1] ("pantry://menu") needs a "handler" function, got undefined`,
    );
});

test('rejects a repeated resource uri, naming the second entry', () => {
    rejects(
        {serverInfo: SERVER_INFO, resources: [resource('x://a'), resource('x://a', {name: 'other'})]},
        'TypeError',
        `${P}resources[1] ("x://a") repeats a resource uri; each uri must be unique`,
    );
});

test('rejects a resource descriptor that cannot be serialized, naming the resource', () => {
    rejects(
        {serverInfo: SERVER_INFO, resources: [resource('x://a', {size: 3n as never})]},
        'TypeError',
        `${P}resources[0] ("x://a") cannot be serialized as JSON (Do not know how to serialize a BigInt); supply JSON-serializable protocol values`,
    );
});

test('rejects protocolVersions that are not a non-empty array of known, distinct revisions', () => {
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: []},
        'TypeError',
        `${P}protocolVersions must be a non-empty array of revisions, got an array`,
    );
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: '2025-11-25'},
        'TypeError',
        `${P}protocolVersions must be a non-empty array of revisions, got the string "2025-11-25"`,
    );
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: ['2025-11-25', '2030-01-01']},
        'RangeError',
        `${P}protocolVersions has the string "2030-01-01"; the revisions this adapter serves are 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05`,
    );
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: [20251125]},
        'RangeError',
        `${P}protocolVersions has number 20251125; the revisions this adapter serves are 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05`,
    );
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: ['2025-06-18', '2025-11-25', '2025-06-18']},
        'RangeError',
        `${P}protocolVersions lists "2025-06-18" twice`,
    );
});

for (const option of ['maxMessageBytes', 'outputHighWaterMark'] as const) {
    test(`rejects a ${option} that is not a positive integer`, () => {
        rejects(
            {serverInfo: SERVER_INFO, [option]: '1024'},
            'TypeError',
            `${P}${option} must be a number, got the string "1024"`,
        );
        rejects(
            {serverInfo: SERVER_INFO, [option]: null},
            'TypeError',
            `${P}${option} must be a number, got null`,
        );
        for (const [value, shown] of [
            [0, '0'],
            [-1, '-1'],
            [1.5, '1.5'],
            [Number.NaN, 'NaN'],
            [Number.POSITIVE_INFINITY, 'Infinity'],
            [2 ** 53, '9007199254740992'],
        ] as const) {
            rejects(
                {serverInfo: SERVER_INFO, [option]: value},
                'RangeError',
                `${P}${option} must be a positive integer, got ${shown}`,
            );
        }
    });
}

test('accepts the smallest valid options and options given as undefined', () => {
    createMcpStdioServer({serverInfo: SERVER_INFO});
    createMcpStdioServer({
        serverInfo: SERVER_INFO,
        instructions: undefined,
        tools: undefined,
        resources: undefined,
        protocolVersions: undefined,
        maxMessageBytes: undefined,
        outputHighWaterMark: undefined,
    });
    createMcpStdioServer({
        serverInfo: SERVER_INFO,
        maxMessageBytes: 1,
        outputHighWaterMark: 1,
        tools: [],
        resources: [],
    });
});

// --- What the client sees ------------------------------------------------------------------------

test('lists every tool descriptor field as authored, in order, with only the handler left out', async () => {
    const h = harness({
        serverInfo: SERVER_INFO,
        tools: [
            {
                name: 'moon.menu',
                title: 'Moon menu',
                handler: () => text('menu'),
                description: 'Read the complete lunar dinner menu.\nTwo lines, "quoted", é🌙.',
                inputSchema: {
                    $schema: 'https://json-schema.org/draft/2020-12/schema',
                    type: 'object',
                    properties: {course: {type: 'string', enum: ['soup', 'tentacles'], default: null}},
                    required: ['course'],
                    additionalProperties: false,
                },
                outputSchema: {type: 'object', properties: {chef: {type: 'string'}}},
                annotations: {
                    title: 'Menu',
                    readOnlyHint: true,
                    destructiveHint: false,
                    openWorldHint: false,
                },
                icons: [
                    {
                        src: 'https://example.test/moon.png',
                        mimeType: 'image/png',
                        sizes: ['48x48'],
                        theme: 'dark',
                    },
                ],
                _meta: {'example.test/owner': {team: 'kitchen', priority: 0}},
                'x-unknown': [1, 'two', {three: 3}],
            },
            {name: 'bare', inputSchema: {type: 'object'}, handler: () => text('bare')},
        ],
    });
    assert.equal(
        await responseLine(h, 'tools/list'),
        '{"jsonrpc":"2.0","id":2,"result":{"tools":[' +
            '{"name":"moon.menu","title":"Moon menu",' +
            '"description":"Read the complete lunar dinner menu.\\nTwo lines, \\"quoted\\", é🌙.",' +
            '"inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",' +
            '"properties":{"course":{"type":"string","enum":["soup","tentacles"],"default":null}},' +
            '"required":["course"],"additionalProperties":false},' +
            '"outputSchema":{"type":"object","properties":{"chef":{"type":"string"}}},' +
            '"annotations":{"title":"Menu","readOnlyHint":true,"destructiveHint":false,"openWorldHint":false},' +
            '"icons":[{"src":"https://example.test/moon.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}],' +
            '"_meta":{"example.test/owner":{"team":"kitchen","priority":0}},' +
            '"x-unknown":[1,"two",{"three":3}]},' +
            '{"name":"bare","inputSchema":{"type":"object"}}' +
            ']}}',
    );
    await finish(h);
});

test('lists every resource descriptor field as authored, in order, with only the handler left out', async () => {
    const h = harness({
        serverInfo: SERVER_INFO,
        resources: [
            {
                handler: ({uri}) => ({contents: [{uri, text: 'x'}]}),
                uri: 'pantry://menu',
                name: 'menu',
                title: 'Lunar dinner menu',
                description: 'All of it',
                mimeType: 'application/json',
                size: 0,
                annotations: {
                    audience: ['user', 'assistant'],
                    priority: 0.5,
                    lastModified: '2025-01-01T00:00:00Z',
                },
                icons: [{src: 'data:image/svg+xml;base64,PHN2Zy8+'}],
                _meta: {'example.test/etag': 'abc'},
            },
            {uri: 'pantry://empty-name', name: '', handler: ({uri}) => ({contents: [{uri, text: ''}]})},
        ],
    });
    assert.equal(
        await responseLine(h, 'resources/list'),
        '{"jsonrpc":"2.0","id":2,"result":{"resources":[' +
            '{"uri":"pantry://menu","name":"menu","title":"Lunar dinner menu","description":"All of it",' +
            '"mimeType":"application/json","size":0,' +
            '"annotations":{"audience":["user","assistant"],"priority":0.5,"lastModified":"2025-01-01T00:00:00Z"},' +
            '"icons":[{"src":"data:image/svg+xml;base64,PHN2Zy8+"}],"_meta":{"example.test/etag":"abc"}},' +
            '{"uri":"pantry://empty-name","name":""}' +
            ']}}',
    );
    await finish(h);
});

test('lists empty catalogs as empty arrays', async () => {
    const tools = harness({serverInfo: SERVER_INFO});
    assert.equal(await responseLine(tools, 'tools/list'), '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}');
    await finish(tools);
    const resources = harness({serverInfo: SERVER_INFO, resources: []});
    assert.equal(
        await responseLine(resources, 'resources/list'),
        '{"jsonrpc":"2.0","id":2,"result":{"resources":[]}}',
    );
    await finish(resources);
});

test('captures the catalogs at construction: later changes to the caller objects have no effect', async () => {
    const called: string[] = [];
    const menu: McpTool = {
        name: 'menu',
        description: 'before',
        inputSchema: {type: 'object', properties: {a: {type: 'string'}}},
        annotations: {readOnlyHint: true},
        handler: () => {
            called.push('original');
            return text('original');
        },
    };
    const pantry: McpResource = {
        uri: 'pantry://a',
        name: 'a',
        handler: ({uri}) => ({contents: [{uri, text: 'original'}]}),
    };
    const serverInfo = {name: 'before', version: '1'};
    const tools = [menu];
    const resources = [pantry];
    const options: McpStdioServerOptions = {serverInfo, instructions: 'before', tools, resources};
    const h = harness(options);

    menu.description = 'after';
    (menu.inputSchema.properties as Record<string, unknown>).b = {type: 'number'};
    (menu.annotations as Record<string, unknown>).readOnlyHint = false;
    menu.handler = () => {
        called.push('replacement');
        return text('replacement');
    };
    tools.push(tool('late'));
    pantry.name = 'renamed';
    resources.length = 0;
    serverInfo.name = 'after';
    options.instructions = 'after';
    options.tools = [];

    await h.initialize();
    assert.equal(
        h.output.text.split('\n')[0],
        '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{}},' +
            '"serverInfo":{"name":"before","version":"1"},"instructions":"before"}}',
    );
    h.send({jsonrpc: '2.0', id: 1, method: 'tools/list'});
    h.send({jsonrpc: '2.0', id: 2, method: 'resources/list'});
    h.send({jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'menu'}});
    h.send({jsonrpc: '2.0', id: 4, method: 'tools/call', params: {name: 'late'}});
    await h.output.waitForLines(5);
    assert.deepEqual(h.output.text.split('\n').slice(1), [
        '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"menu","description":"before",' +
            '"inputSchema":{"type":"object","properties":{"a":{"type":"string"}}},"annotations":{"readOnlyHint":true}}]}}',
        '{"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"pantry://a","name":"a"}]}}',
        '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"original"}]}}',
        '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Unknown tool: \\"late\\""}}',
        '',
    ]);
    assert.deepEqual(called, ['original']);
    await finish(h);
});

const INIT_PREFIX = '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25",';

async function initializeLine(options: McpStdioServerOptions): Promise<string> {
    const h = harness(options);
    await h.initialize();
    const line = h.output.text.split('\n')[0] as string;
    await finish(h);
    return line;
}

test('advertises the tools and resources capabilities only for non-empty catalogs', async () => {
    const info = '"serverInfo":{"name":"catalog","version":"1.0.0"}}}';
    assert.equal(await initializeLine({serverInfo: SERVER_INFO}), `${INIT_PREFIX}"capabilities":{},${info}`);
    assert.equal(
        await initializeLine({serverInfo: SERVER_INFO, tools: [], resources: []}),
        `${INIT_PREFIX}"capabilities":{},${info}`,
    );
    assert.equal(
        await initializeLine({serverInfo: SERVER_INFO, tools: [tool('a')]}),
        `${INIT_PREFIX}"capabilities":{"tools":{}},${info}`,
    );
    assert.equal(
        await initializeLine({serverInfo: SERVER_INFO, resources: [resource('x://a')]}),
        `${INIT_PREFIX}"capabilities":{"resources":{}},${info}`,
    );
    assert.equal(
        await initializeLine({serverInfo: SERVER_INFO, tools: [tool('a')], resources: [resource('x://a')]}),
        `${INIT_PREFIX}"capabilities":{"tools":{},"resources":{}},${info}`,
    );
});

test('answers instructions only when they were given, exactly as given', async () => {
    const info = '"serverInfo":{"name":"catalog","version":"1.0.0"}';
    assert.equal(
        await initializeLine({serverInfo: SERVER_INFO, instructions: 'Ask moon.menu.\nThen "eat".'}),
        `${INIT_PREFIX}"capabilities":{},${info},"instructions":"Ask moon.menu.\\nThen \\"eat\\"."}}`,
    );
    assert.equal(
        await initializeLine({serverInfo: SERVER_INFO, instructions: ''}),
        `${INIT_PREFIX}"capabilities":{},${info},"instructions":""}}`,
    );
    assert.equal(
        await initializeLine({serverInfo: SERVER_INFO, instructions: undefined}),
        `${INIT_PREFIX}"capabilities":{},${info}}}`,
    );
});

test('answers serverInfo with every field as authored', async () => {
    assert.equal(
        await initializeLine({
            serverInfo: {
                name: 'moon-pantry',
                title: 'Moon pantry',
                version: '1.0.0',
                websiteUrl: 'https://example.test',
                icons: [{src: 'x.png'}],
            },
        }),
        `${INIT_PREFIX}"capabilities":{},"serverInfo":{"name":"moon-pantry","title":"Moon pantry","version":"1.0.0",` +
            '"websiteUrl":"https://example.test","icons":[{"src":"x.png"}]}}}',
    );
});

test('accepts a list of known protocol revisions and answers the one the client asked for', async () => {
    const h = harness({serverInfo: SERVER_INFO, protocolVersions: ['2025-06-18', '2025-11-25']});
    await h.initialize({
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: {name: 'c', version: '1'},
    });
    assert.equal(
        h.output.text,
        '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{},' +
            '"serverInfo":{"name":"catalog","version":"1.0.0"}}}\n',
    );
    await finish(h);
});
