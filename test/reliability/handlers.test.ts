/**
 * Handlers that misbehave: throwing and rejecting with things that are not errors, results that
 * cannot be serialized, results of many megabytes, handlers that never settle; and names from the
 * prototype chain used as tool names, resource uris, request ids and argument keys.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {test} from 'node:test';
import type {CallToolResult, HandlerContext, McpTool, ReadResourceResult} from '../../lib/mcp/stdio/index.js';
import {harness} from '../helpers/streams.js';
import {tool} from '../helpers/tools.js';
import {deferred, responses, text, watchEscapes} from './support.js';

const NOT_AN_ERROR = 'The tool handler threw a value that is not an Error: ';

/** Initializes a harness over `tools`, calls each, and returns the answers after EOF. */
async function callEach(tools: McpTool[]): Promise<{records: unknown[]; diagnostics: string}> {
    const h = harness({serverInfo: {name: 'handlers', version: '1'}, tools});
    await h.initialize();
    tools.forEach((entry, index) => {
        h.send({jsonrpc: '2.0', id: index, method: 'tools/call', params: {name: entry.name}});
    });
    h.input.push(null);
    await h.server.closed;
    const records = responses(h.output.text).slice(1);
    records.sort((a, b) => (a.id as number) - (b.id as number));
    return {records, diagnostics: h.errors.text};
}

const thrownValues: [string, unknown, string][] = [
    ['undefined', undefined, `${NOT_AN_ERROR}undefined`],
    ['null', null, `${NOT_AN_ERROR}null`],
    ['a string', 'the disk is full', 'the disk is full'],
    ['an empty string', '', ''],
    ['a number', 42, `${NOT_AN_ERROR}42`],
    ['a symbol', Symbol('odd'), `${NOT_AN_ERROR}Symbol(odd)`],
    ['a plain object', {reason: 'plain'}, `${NOT_AN_ERROR}{ reason: 'plain' }`],
    ['an object with a message', {message: 'looks like an error'}, 'looks like an error'],
    ['an Error without a message', new Error(''), 'Error'],
    [
        'an object whose message getter throws',
        Object.defineProperty({}, 'message', {
            enumerable: true,
            get() {
                throw new Error('no message for you');
            },
        }),
        `${NOT_AN_ERROR}{ message: [Getter] }`,
    ],
];

for (const mode of ['throws', 'rejects with'] as const) {
    test(`a tool handler that ${mode} a non-error is answered as an isError result with that value described`, async () => {
        const tools = thrownValues.map(([label, value]) =>
            tool(label, () => {
                if (mode === 'throws') throw value;
                return Promise.reject(value);
            }),
        );
        const {records, diagnostics} = await callEach(tools);
        assert.deepEqual(
            records,
            thrownValues.map(([, , message], id) => ({
                jsonrpc: '2.0',
                id,
                result: {content: [{type: 'text', text: message}], isError: true},
            })),
        );
        for (const [label] of thrownValues) {
            assert.ok(
                diagnostics.includes(
                    `The tools/call of tool ${JSON.stringify(label)} (request id ${thrownValues.findIndex(([l]) => l === label)}) threw; answered as an isError result`,
                ),
                label,
            );
        }
    });
}

test('a resource handler that throws or rejects with non-errors is answered -32603 naming the request', async () => {
    const values: unknown[] = [undefined, null, 'text', {plain: true}, 7];
    const h = harness({
        serverInfo: {name: 'handlers', version: '1'},
        resources: values.flatMap((value, index) => [
            {
                uri: `throw://${index}`,
                name: `throw ${index}`,
                handler: (): ReadResourceResult => {
                    throw value;
                },
            },
            {uri: `reject://${index}`, name: `reject ${index}`, handler: () => Promise.reject(value)},
        ]),
    });
    await h.initialize();
    const uris = values.flatMap((_value, index) => [`throw://${index}`, `reject://${index}`]);
    uris.forEach((uri, id) => {
        h.send({jsonrpc: '2.0', id, method: 'resources/read', params: {uri}});
    });
    h.input.push(null);
    await h.server.closed;
    const records = responses(h.output.text).slice(1);
    records.sort((a, b) => (a.id as number) - (b.id as number));
    assert.deepEqual(
        records,
        uris.map((uri, id) => ({
            jsonrpc: '2.0',
            id,
            error: {
                code: -32603,
                message: `Internal error in resources/read of resource ${JSON.stringify(uri)} (request id ${id}): the handler threw; the server's diagnostics have the details`,
            },
        })),
    );
});

test('a thrown revoked proxy, which cannot even be inspected for its class, is answered -32603', async () => {
    const {proxy, revoke} = Proxy.revocable({}, {});
    revoke();
    const {records, diagnostics} = await callEach([
        tool('revoked', () => {
            throw proxy;
        }),
    ]);
    assert.deepEqual(records, [
        {
            jsonrpc: '2.0',
            id: 0,
            error: {
                code: -32603,
                message:
                    'Internal error in tools/call of tool "revoked" (request id 0): its outcome could not be processed; the server\'s diagnostics have the details',
            },
        },
    ]);
    assert.match(diagnostics, /revoked/);
});

function throwingGetter(): CallToolResult {
    return {
        content: [
            {
                type: 'text',
                get text(): string {
                    throw new Error('the getter failed during serialization');
                },
            },
        ],
    };
}

test('results that cannot be serialized are answered -32603 and the session goes on', async () => {
    const circular: Record<string, unknown> = {content: []};
    circular.self = circular;
    const serializeFailure = 'the result could not be serialized as JSON';
    const cases: [string, () => unknown, string][] = [
        ['getter', throwingGetter, serializeFailure],
        ['async getter', async () => throwingGetter(), serializeFailure],
        ['bigint', () => ({content: [], structuredContent: {n: 10n}}), serializeFailure],
        ['circular', () => circular, serializeFailure],
        [
            'throwing toJSON',
            () => ({
                content: [],
                toJSON() {
                    throw new Error('toJSON failed');
                },
            }),
            serializeFailure,
        ],
        [
            'undefined toJSON',
            () => ({content: [], toJSON: () => undefined}),
            'the result serialized to nothing (a toJSON method returned undefined)',
        ],
        [
            'trap',
            () =>
                new Proxy(
                    {},
                    {
                        get(_target, key) {
                            if (key === 'then') return undefined;
                            throw new Error(`the ${String(key)} trap failed`);
                        },
                    },
                ),
            serializeFailure,
        ],
        [
            'not a result',
            () => ({content: 'plain text'}),
            'the handler returned an invalid CallToolResult: it must be an object with a "content" array',
        ],
    ];
    const tools = cases.map(([name, make]) => tool(name, make as McpTool['handler']));
    tools.push(tool('fine', () => text('still serving')));
    const {records, diagnostics} = await callEach(tools);
    assert.deepEqual(records, [
        ...cases.map(([name, , problem], id) => ({
            jsonrpc: '2.0',
            id,
            error: {
                code: -32603,
                message: `Internal error in tools/call of tool ${JSON.stringify(name)} (request id ${id}): ${problem}; the server's diagnostics have the details`,
            },
        })),
        {jsonrpc: '2.0', id: cases.length, result: {content: [{type: 'text', text: 'still serving'}]}},
    ]);
    assert.match(diagnostics, /the getter failed during serialization/);
    assert.match(diagnostics, /Do not know how to serialize a BigInt/);
    assert.match(diagnostics, /the content trap failed/);
});

test('a result whose then getter throws is answered as that thrown error', async () => {
    const result = Object.defineProperty({content: []}, 'then', {
        get() {
            throw new Error('then is poisoned');
        },
    });
    const {records} = await callEach([tool('sync', () => result), tool('async', async () => result)]);
    assert.deepEqual(
        records,
        [0, 1].map((id) => ({
            jsonrpc: '2.0',
            id,
            result: {content: [{type: 'text', text: 'then is poisoned'}], isError: true},
        })),
    );
});

test('a thenable that settles several times is answered exactly once, with its first outcome', async () => {
    const thenable = {
        // biome-ignore lint/suspicious/noThenProperty: the point is a hostile thenable
        then(resolve: (value: unknown) => void, reject: (reason: unknown) => void) {
            resolve(text('first'));
            resolve(text('second'));
            reject(new Error('third'));
            throw new Error('fourth');
        },
    };
    const {records} = await callEach([tool('fickle', () => thenable as unknown as CallToolResult)]);
    assert.deepEqual(records, [{jsonrpc: '2.0', id: 0, result: {content: [{type: 'text', text: 'first'}]}}]);
});

test('results of many megabytes are written whole, each exactly once, with a high-water mark far below them', async () => {
    const big = `${'x'.repeat(24 * 1024 * 1024 - 7)}\u00e9\u{1F319}\n"\\`;
    const blob = Buffer.alloc(6 * 1024 * 1024, 0xa5).toString('base64');
    const h = harness({
        serverInfo: {name: 'handlers', version: '1'},
        outputHighWaterMark: 1024 * 1024,
        tools: [tool('big', async () => text(big))],
        resources: [
            {
                uri: 'blob://big',
                name: 'big blob',
                handler: ({uri}) => ({contents: [{uri, mimeType: 'application/octet-stream', blob}]}),
            },
        ],
    });
    await h.initialize();
    h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'big'}});
    h.send({jsonrpc: '2.0', id: 2, method: 'resources/read', params: {uri: 'blob://big'}});
    h.send({jsonrpc: '2.0', id: 3, method: 'ping'});
    h.input.push(null);
    await h.server.closed;
    const lines = h.output.text.split('\n');
    assert.equal(lines.length, 5);
    assert.equal(lines[4], '');
    const expected = new Set([
        `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":${JSON.stringify(big)}}]}}`,
        `{"jsonrpc":"2.0","id":2,"result":{"contents":[{"uri":"blob://big","mimeType":"application/octet-stream","blob":"${blob}"}]}}`,
        '{"jsonrpc":"2.0","id":3,"result":{}}',
    ]);
    for (const line of lines.slice(1, 4)) {
        // Compared as a boolean: a failing diff of 24 MiB would be unreadable.
        assert.ok(
            expected.delete(line),
            `an unexpected record of ${line.length} characters: ${line.slice(0, 80)}…`,
        );
    }
    assert.equal(expected.size, 0);
});

test('a handler that never settles holds drain and graceful close; cancelPending aborts it and the session settles when it does', async () => {
    const escapes = watchEscapes();
    const started = deferred<HandlerContext<'tools/call'>>();
    const finish = deferred<CallToolResult>();
    const h = harness({
        serverInfo: {name: 'handlers', version: '1'},
        tools: [
            tool('stuck', (_args, context) => {
                started.resolve(context);
                return finish.promise;
            }),
        ],
    });
    await h.initialize();
    h.send({jsonrpc: '2.0', id: 'stuck', method: 'tools/call', params: {name: 'stuck'}});
    const {signal} = await started.promise;
    const settled = {drain: false, graceful: false, forced: false, closed: false};
    const drain = h.server.drain().then(() => {
        settled.drain = true;
    });
    h.send({jsonrpc: '2.0', id: 'after-drain', method: 'ping'});
    await h.output.waitForLines(2);
    assert.deepEqual(settled, {drain: false, graceful: false, forced: false, closed: false});
    const graceful = h.server.close().then(() => {
        settled.graceful = true;
    });
    const closed = h.server.closed.then(() => {
        settled.closed = true;
    });
    assert.equal(signal.aborted, false);
    const aborted = once(signal, 'abort');
    const forced = h.server.close({cancelPending: true}).then(() => {
        settled.forced = true;
    });
    await aborted;
    assert.ok(signal.reason instanceof DOMException);
    assert.equal(signal.reason.name, 'AbortError');
    assert.equal(signal.reason.message, 'The MCP session was closed with cancelPending: true');
    assert.deepEqual(settled, {drain: false, graceful: false, forced: false, closed: false});
    finish.resolve(text('too late'));
    await Promise.all([drain, graceful, forced, closed]);
    assert.deepEqual(settled, {drain: true, graceful: true, forced: true, closed: true});
    assert.deepEqual(
        responses(h.output.text).map((record) => record.id),
        ['init', 'after-drain'],
    );
    assert.equal(h.server.cancel('stuck'), false);
    assert.deepEqual(escapes.stop(), []);
});

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

test('prototype-chain names are served exactly as tool names, resource uris and request ids', async () => {
    const tools = PROTO_NAMES.map((name) =>
        tool(name, (args, context) => {
            assert.equal(Object.getPrototypeOf(args), Object.prototype);
            return text(`${name} ran for ${JSON.stringify(context.requestId)} with ${JSON.stringify(args)}`);
        }),
    );
    const h = harness({
        serverInfo: {name: 'handlers', version: '1'},
        tools,
        resources: PROTO_NAMES.slice(0, 3).map((uri) => ({
            uri,
            name: uri,
            handler: (params) => ({contents: [{uri: params.uri, text: `resource ${uri}`}]}),
        })),
    });
    await h.initialize();
    h.sendRaw('{"jsonrpc":"2.0","id":"__proto__","method":"tools/list"}\n');
    for (const [index, name] of PROTO_NAMES.entries()) {
        const id = PROTO_NAMES[(index + 1) % PROTO_NAMES.length];
        h.sendRaw(
            `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"n":${index}}}}\n`,
        );
    }
    for (const uri of PROTO_NAMES.slice(0, 3)) {
        h.sendRaw(
            `{"jsonrpc":"2.0","id":"read ${uri}","method":"resources/read","params":{"uri":"${uri}"}}\n`,
        );
    }
    h.sendRaw('{"jsonrpc":"2.0","id":"valueOf","method":"tools/call","params":{"name":"valueOf"}}\n');
    h.sendRaw(
        '{"jsonrpc":"2.0","id":"missing","method":"resources/read","params":{"uri":"hasOwnProperty"}}\n',
    );
    h.sendRaw('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"__proto__"}}\n');
    h.input.push(null);
    await h.server.closed;
    const lines = h.output.text.split('\n').slice(1, -1);
    assert.deepEqual(lines, [
        `{"jsonrpc":"2.0","id":"__proto__","result":{"tools":[${PROTO_NAMES.map((name) => `{"name":${JSON.stringify(name)},"inputSchema":{"type":"object"}}`).join(',')}]}}`,
        ...PROTO_NAMES.map((name, index) => {
            const id = JSON.stringify(PROTO_NAMES[(index + 1) % PROTO_NAMES.length]);
            const args = `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"n":${index}}`;
            return `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":${JSON.stringify(`${name} ran for ${id} with ${args}`)}}]}}`;
        }),
        ...PROTO_NAMES.slice(0, 3).map(
            (uri) =>
                `{"jsonrpc":"2.0","id":"read ${uri}","result":{"contents":[{"uri":"${uri}","text":"resource ${uri}"}]}}`,
        ),
        '{"jsonrpc":"2.0","id":"valueOf","error":{"code":-32602,"message":"Unknown tool: \\"valueOf\\""}}',
        '{"jsonrpc":"2.0","id":"missing","error":{"code":-32002,"message":"Resource not found: hasOwnProperty","data":{"uri":"hasOwnProperty"}}}',
    ]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
});

test('prototype-chain request ids are correlated and cancelled exactly', async () => {
    const calls = new Map<string, {signal: AbortSignal; finish: (result: CallToolResult) => void}>();
    const allStarted = deferred();
    const h = harness({
        serverInfo: {name: 'handlers', version: '1'},
        tools: [
            tool(
                'wait',
                (_args, context) =>
                    new Promise<CallToolResult>((resolve) => {
                        calls.set(context.requestId as string, {signal: context.signal, finish: resolve});
                        if (calls.size === PROTO_NAMES.length) allStarted.resolve();
                    }),
            ),
        ],
    });
    await h.initialize();
    for (const id of PROTO_NAMES) {
        h.send({jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'wait'}});
    }
    await allStarted.promise;
    const cancelled = calls.get('__proto__')?.signal as AbortSignal;
    const aborted = once(cancelled, 'abort');
    h.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: {requestId: '__proto__', reason: 'no'},
    });
    h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 'valueOf'}});
    await aborted;
    assert.equal(cancelled.reason, 'no');
    assert.equal(h.server.cancel('toString', 'by the server'), true);
    assert.equal(h.server.cancel('toString'), false);
    assert.equal(h.server.cancel('valueOf'), false);
    for (const [id, call] of calls) call.finish(text(`done ${id}`));
    h.input.push(null);
    await h.server.closed;
    const answered = responses(h.output.text)
        .slice(1)
        .map((record) => record.id);
    assert.deepEqual(answered.sort(), ['constructor', 'hasOwnProperty']);
    assert.equal(calls.get('constructor')?.signal.aborted, false);
});
