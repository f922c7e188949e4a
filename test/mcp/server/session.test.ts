import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {
    CallToolResult,
    HandlerContext,
    McpStdioServerOptions,
    McpTool,
} from '../../../lib/mcp/stdio/index.js';
import {McpProtocolError} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {text, tool} from '../../helpers/session.js';
import {harness} from '../../helpers/streams.js';

const serverInfo = {name: 'moon-pantry', version: '1.0.0'};

const menuOptions: McpStdioServerOptions = {
    serverInfo,
    instructions: 'Ask moon.menu.',
    tools: [tool('moon.menu', () => text('soup'))],
    resources: [
        {uri: 'pantry://menu', name: 'menu', handler: ({uri}) => ({contents: [{uri, text: 'soup'}]})},
    ],
};

async function finish(h: ReturnType<typeof harness>): Promise<void> {
    h.input.push(null);
    await h.server.closed;
}

/** The last line written, as exact text. */
function lastLine(h: ReturnType<typeof harness>): string {
    const lines = h.output.text.split('\n');
    return lines[lines.length - 2] as string;
}

describe('initialize', () => {
    test('answers the protocol version, server info, instructions and capabilities of non-empty catalogs', async () => {
        const h = harness(menuOptions);
        await h.initialize();
        assert.equal(
            h.output.text,
            '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{}},' +
                '"serverInfo":{"name":"moon-pantry","version":"1.0.0"},"instructions":"Ask moon.menu."}}\n',
        );
        await finish(h);
    });

    test('advertises no capability for empty catalogs and no instructions when none were given', async () => {
        const h = harness({serverInfo, tools: [], resources: []});
        assert.deepEqual(await h.initialize(), {
            jsonrpc: '2.0',
            id: 'init',
            result: {protocolVersion: '2025-11-25', capabilities: {}, serverInfo},
        });
        await finish(h);
    });

    test('answers 2025-11-25 to a client that proposes another version', async () => {
        const h = harness(menuOptions);
        const response = (await h.initialize({
            protocolVersion: '2024-11-05',
            capabilities: {},
            clientInfo: {name: 'old', version: '0'},
        })) as {result: {protocolVersion: string}};
        assert.equal(response.result.protocolVersion, '2025-11-25');
        await finish(h);
    });

    test('rejects a second initialize with -32600 and keeps the first session', async () => {
        const h = harness(menuOptions);
        await h.initialize();
        h.send({
            jsonrpc: '2.0',
            id: 2,
            method: 'initialize',
            params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'x', version: '1'}},
        });
        h.send({jsonrpc: '2.0', id: 3, method: 'tools/list'});
        const records = await h.records(3);
        assert.deepEqual(records[1], {
            jsonrpc: '2.0',
            id: 2,
            error: {code: -32600, message: 'The session is already initialized: send "initialize" only once'},
        });
        assert.deepEqual(records[2], {
            jsonrpc: '2.0',
            id: 3,
            result: {tools: [{name: 'moon.menu', inputSchema: {type: 'object'}}]},
        });
        await finish(h);
    });

    test('rejects malformed initialize params with -32602 and stays uninitialized', async () => {
        const h = harness(menuOptions);
        h.send({jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: 5, capabilities: {}}});
        h.send({jsonrpc: '2.0', id: 2, method: 'initialize'});
        h.send({jsonrpc: '2.0', id: 3, method: 'tools/list'});
        const message =
            'initialize needs params with "protocolVersion" (a string), "capabilities" (an object) and "clientInfo" (an object)';
        assert.deepEqual(await h.records(3), [
            {jsonrpc: '2.0', id: 1, error: {code: -32602, message}},
            {jsonrpc: '2.0', id: 2, error: {code: -32602, message}},
            {
                jsonrpc: '2.0',
                id: 3,
                error: {
                    code: -32000,
                    message:
                        'Server not initialized: send "initialize" and wait for its result before "tools/list"',
                },
            },
        ]);
        await finish(h);
    });

    test('answers ping before and after initialize', async () => {
        const h = harness(menuOptions);
        h.send({jsonrpc: '2.0', id: 0, method: 'ping'});
        await h.records(1);
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 'p', method: 'ping', params: {}});
        await h.records(3);
        assert.equal(lastLine(h), '{"jsonrpc":"2.0","id":"p","result":{}}');
        assert.equal(h.output.text.split('\n')[0], '{"jsonrpc":"2.0","id":0,"result":{}}');
        await finish(h);
    });

    test('answers every ordinary request before initialize with -32000', async () => {
        const gate = new Gate();
        const h = harness({...menuOptions, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        const methods = [
            'tools/list',
            'tools/call',
            'resources/list',
            'resources/read',
            'resources/templates/list',
        ];
        methods.forEach((method, id) => {
            h.send({jsonrpc: '2.0', id, method, params: {name: 'slow', uri: 'pantry://menu'}});
        });
        const records = await h.records(methods.length);
        assert.deepEqual(
            records,
            methods.map((method, id) => ({
                jsonrpc: '2.0',
                id,
                error: {
                    code: -32000,
                    message: `Server not initialized: send "initialize" and wait for its result before "${method}"`,
                },
            })),
        );
        assert.equal(gate.calls.length, 0);
        await finish(h);
    });

    test('serves requests sent between the initialize response and notifications/initialized', async () => {
        const h = harness(menuOptions);
        h.send({
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'c', version: '1'}},
        });
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'moon.menu'}});
        const records = await h.records(2);
        assert.deepEqual(records[1], {jsonrpc: '2.0', id: 1, result: text('soup')});
        await finish(h);
    });
});

describe('discovery', () => {
    test('lists complete catalogs and an empty template catalog', async () => {
        const h = harness(menuOptions);
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/list'});
        h.send({jsonrpc: '2.0', id: 2, method: 'resources/list', params: {}});
        h.send({jsonrpc: '2.0', id: 3, method: 'resources/templates/list'});
        await h.records(4);
        assert.deepEqual(h.output.text.split('\n').slice(1, 4), [
            '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"moon.menu","inputSchema":{"type":"object"}}]}}',
            '{"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"pantry://menu","name":"menu"}]}}',
            '{"jsonrpc":"2.0","id":3,"result":{"resourceTemplates":[]}}',
        ]);
        await finish(h);
    });

    test('answers a cursor with -32602 on every list', async () => {
        const h = harness(menuOptions);
        await h.initialize();
        const methods = ['tools/list', 'resources/list', 'resources/templates/list'];
        methods.forEach((method, id) => {
            h.send({jsonrpc: '2.0', id, method, params: {cursor: 'next'}});
        });
        const records = await h.records(4);
        assert.deepEqual(
            records.slice(1),
            methods.map((method, id) => ({
                jsonrpc: '2.0',
                id,
                error: {
                    code: -32602,
                    message: `${method} returns the complete list in one result and takes no "cursor"`,
                },
            })),
        );
        await finish(h);
    });
});

describe('JSON-RPC envelope', () => {
    test('answers an unknown method with -32601, before and after initialize', async () => {
        const h = harness(menuOptions);
        h.send({jsonrpc: '2.0', id: 1, method: 'prompts/list'});
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: {level: 'info'}});
        const records = await h.records(3);
        assert.deepEqual(records[0], {
            jsonrpc: '2.0',
            id: 1,
            error: {code: -32601, message: 'Method not found: "prompts/list"'},
        });
        assert.deepEqual(records[2], {
            jsonrpc: '2.0',
            id: 2,
            error: {code: -32601, message: 'Method not found: "logging/setLevel"'},
        });
        await finish(h);
    });

    test('never answers a notification, known or unknown, and runs no handler for one', async () => {
        let calls = 0;
        const h = harness({
            ...menuOptions,
            tools: [
                tool('count', () => {
                    calls += 1;
                    return text('x');
                }),
            ],
        });
        await h.initialize();
        h.send({jsonrpc: '2.0', method: 'notifications/unknown', params: {}});
        h.send({jsonrpc: '2.0', method: 'tools/call', params: {name: 'count'}});
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 99}});
        h.send({jsonrpc: '2.0', method: 'notifications/progress', params: 'not an object'});
        h.send({jsonrpc: '2.0', id: 'after', method: 'ping'});
        await h.records(2);
        assert.equal(lastLine(h), '{"jsonrpc":"2.0","id":"after","result":{}}');
        assert.equal(h.output.lineCount, 2);
        assert.equal(calls, 0);
        await finish(h);
    });

    test('answers a batch with -32600 and no id', async () => {
        const h = harness(menuOptions);
        h.sendRaw('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
        await h.records(1);
        assert.equal(
            h.output.text,
            '{"jsonrpc":"2.0","error":{"code":-32600,"message":"JSON-RPC batches are not supported: send each request as its own line"}}\n',
        );
        await finish(h);
    });

    test('omits the id of an error response when the id is not a string or an integer', async () => {
        const h = harness(menuOptions);
        const ids = ['null', '1.5', 'true', '{}', '[1]', '9007199254740993'];
        for (const id of ids) {
            h.sendRaw(`{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`);
        }
        await h.records(ids.length);
        const line =
            '{"jsonrpc":"2.0","error":{"code":-32600,"message":"A request id must be a string or an integer of at most 2^53 - 1 in magnitude"}}';
        assert.equal(h.output.text, `${line}\n`.repeat(ids.length));
        assert.ok(!h.output.text.includes('"id":null'));
        await finish(h);
    });

    test('keeps the id of a request whose envelope is otherwise invalid', async () => {
        const h = harness(menuOptions);
        h.sendRaw('{"jsonrpc":"1.0","id":7,"method":"ping"}\n');
        h.sendRaw('{"jsonrpc":"2.0","id":"x","method":42}\n');
        h.sendRaw('{"jsonrpc":"2.0","id":8}\n');
        h.sendRaw('{"jsonrpc":"2.0","id":9,"method":"ping","params":[1]}\n');
        h.sendRaw('"just a string"\n');
        assert.deepEqual(await h.records(5), [
            {
                jsonrpc: '2.0',
                id: 7,
                error: {code: -32600, message: 'The "jsonrpc" member must be exactly "2.0"'},
            },
            {jsonrpc: '2.0', id: 'x', error: {code: -32600, message: 'The "method" member must be a string'}},
            {
                jsonrpc: '2.0',
                id: 8,
                error: {code: -32600, message: 'A JSON-RPC request must have a "method" string'},
            },
            {
                jsonrpc: '2.0',
                id: 9,
                error: {code: -32602, message: 'The "params" of ping must be a JSON object'},
            },
            {jsonrpc: '2.0', error: {code: -32600, message: 'A JSON-RPC message must be a JSON object'}},
        ]);
        await finish(h);
    });

    test('answers malformed JSON with -32700 and no id, and diagnoses the complete line', async () => {
        const h = harness(menuOptions);
        const line = `{"jsonrpc":"2.0","id":1,"method":"ping" ${'x'.repeat(20_000)}`;
        h.sendRaw(`${line}\n`);
        h.send({jsonrpc: '2.0', id: 2, method: 'ping'});
        const records = (await h.records(2)) as {error?: {code: number; message: string}}[];
        assert.deepEqual(Object.keys(records[0] as object), ['jsonrpc', 'error']);
        assert.equal(records[0]?.error?.code, -32700);
        assert.match(records[0]?.error?.message ?? '', /^Parse error: /);
        assert.deepEqual(records[1], {jsonrpc: '2.0', id: 2, result: {}});
        assert.ok(
            h.errors.text.includes(
                `[arcane-os/mcp/stdio] Answered -32700: this input line is not valid JSON: ${JSON.stringify(line)}\n`,
            ),
        );
        await finish(h);
    });

    test('diagnoses and ignores a response sent by the client', async () => {
        const h = harness(menuOptions);
        h.send({jsonrpc: '2.0', id: 5, result: {}});
        h.send({jsonrpc: '2.0', id: 6, method: 'ping'});
        await h.records(1);
        assert.equal(h.output.text, '{"jsonrpc":"2.0","id":6,"result":{}}\n');
        assert.equal(
            h.errors.text,
            '[arcane-os/mcp/stdio] Ignored a JSON-RPC response from the client (id 5): this server sends no requests\n',
        );
        await finish(h);
    });

    test('treats 1 and "1" as different requests', async () => {
        const gate = new Gate();
        const h = harness({serverInfo, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        await h.initialize();
        h.send({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {name: 'slow', arguments: {n: 'number'}},
        });
        h.send({
            jsonrpc: '2.0',
            id: '1',
            method: 'tools/call',
            params: {name: 'slow', arguments: {n: 'string'}},
        });
        await gate.started(2);
        gate.call(1).done.resolve(text('string'));
        gate.call(0).done.resolve(text('number'));
        const records = await h.records(3);
        assert.deepEqual(records.slice(1), [
            {jsonrpc: '2.0', id: '1', result: text('string')},
            {jsonrpc: '2.0', id: 1, result: text('number')},
        ]);
        await finish(h);
    });

    test('rejects a request whose id is already in flight with -32600 and leaves the first undisturbed', async () => {
        const gate = new Gate();
        const h = harness({serverInfo, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 4, method: 'tools/call', params: {name: 'slow'}});
        await gate.started(1);
        h.send({jsonrpc: '2.0', id: 4, method: 'ping'});
        await h.records(2);
        assert.equal(
            lastLine(h),
            '{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Request id 4 is already in use by a request in progress; use a new id for each request"}}',
        );
        assert.equal(
            gate.call(0).context instanceof Object && (gate.call(0).context as HandlerContext).signal.aborted,
            false,
        );
        gate.call(0).done.resolve(text('first'));
        const records = await h.records(3);
        assert.deepEqual(records[2], {jsonrpc: '2.0', id: 4, result: text('first')});
        await finish(h);
    });
});

describe('tools/call', () => {
    test('rejects a missing name, an unknown tool and non-object arguments with -32602', async () => {
        const h = harness(menuOptions);
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call'});
        h.send({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 3}});
        h.send({jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'moon.soup'}});
        h.send({jsonrpc: '2.0', id: 4, method: 'tools/call', params: {name: 'moon.menu', arguments: [1]}});
        const records = await h.records(5);
        const missing = 'tools/call needs "params.name", the tool name as a string';
        assert.deepEqual(records.slice(1), [
            {jsonrpc: '2.0', id: 1, error: {code: -32602, message: missing}},
            {jsonrpc: '2.0', id: 2, error: {code: -32602, message: missing}},
            {jsonrpc: '2.0', id: 3, error: {code: -32602, message: 'Unknown tool: "moon.soup"'}},
            {
                jsonrpc: '2.0',
                id: 4,
                error: {code: -32602, message: 'tools/call "params.arguments" must be an object'},
            },
        ]);
        await finish(h);
    });

    test('passes params.arguments unchanged, {} when omitted, and a complete context', async () => {
        const seen: {args: unknown; context: HandlerContext<'tools/call'>}[] = [];
        const h = harness({
            serverInfo,
            tools: [
                tool('echo', (args, context) => {
                    seen.push({args, context});
                    return text('ok');
                }),
            ],
        });
        await h.initialize({
            protocolVersion: '2025-11-25',
            capabilities: {roots: {listChanged: true}},
            clientInfo: {name: 'desk', version: '2.0.0', title: 'Desk'},
        });
        const args = {nested: {list: [1, 'two', null]}, __proto__key: true, text: 'a\nb'};
        h.send({
            jsonrpc: '2.0',
            id: 0,
            method: 'tools/call',
            params: {name: 'echo', arguments: args, _meta: {x: 1}},
        });
        h.send({jsonrpc: '2.0', id: 'no-args', method: 'tools/call', params: {name: 'echo'}});
        await h.records(3);
        const [first, second] = seen;
        assert.deepEqual(first?.args, args);
        assert.equal(first?.args, first?.context.params.arguments);
        assert.equal(first?.context.requestId, 0);
        assert.equal(first?.context.method, 'tools/call');
        assert.deepEqual(first?.context.params, {name: 'echo', arguments: args, _meta: {x: 1}});
        assert.deepEqual(first?.context.clientInfo, {name: 'desk', version: '2.0.0', title: 'Desk'});
        assert.deepEqual(first?.context.clientCapabilities, {roots: {listChanged: true}});
        assert.equal(first?.context.protocolVersion, '2025-11-25');
        assert.ok(first?.context.signal instanceof AbortSignal);
        assert.deepEqual(second?.args, {});
        assert.equal(second?.context.requestId, 'no-args');
        await finish(h);
    });

    test('passes a result through untouched, directly or from a promise', async () => {
        const result: CallToolResult = {
            content: [
                {type: 'text', text: 'line one\nline two', _meta: {a: 1}},
                {type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png'},
                {type: 'resource_link', uri: 'pantry://menu', name: 'menu'},
            ],
            structuredContent: {content: 'Moon soup', message: {chef: 'Octopus'}},
            isError: false,
            _meta: {trace: 'abc'},
            extra: {future: ['field']},
        };
        const h = harness({
            serverInfo,
            tools: [tool('sync', () => result), tool('async', async () => result)],
        });
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'sync'}});
        h.send({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'async'}});
        await h.records(3);
        const lines = h.output.text.split('\n');
        assert.equal(lines[1], `{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(result)}}`);
        assert.equal(lines[2], `{"jsonrpc":"2.0","id":2,"result":${JSON.stringify(result)}}`);
        await finish(h);
    });

    test('turns a thrown error into an isError result with its complete message and diagnoses the whole error', async () => {
        const failure = Object.assign(new Error('The pantry is closed\nuntil the next moonrise'), {
            shelf: 42,
        });
        const h = harness({
            serverInfo,
            tools: [
                tool('sync', () => {
                    throw failure;
                }),
                tool('async', async () => Promise.reject(failure)),
            ],
        });
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'sync'}});
        h.send({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'async'}});
        const records = await h.records(3);
        const isError = {content: [{type: 'text', text: failure.message}], isError: true};
        assert.deepEqual(records.slice(1), [
            {jsonrpc: '2.0', id: 1, result: isError},
            {jsonrpc: '2.0', id: 2, result: isError},
        ]);
        await h.server.drain();
        assert.ok(
            h.errors.text.startsWith(
                '[arcane-os/mcp/stdio] The tools/call of tool "sync" (request id 1) threw; answered as an isError result\n',
            ),
        );
        assert.ok(h.errors.text.includes('shelf: 42'));
        assert.ok(h.errors.text.includes(failure.stack?.split('\n')[2] ?? 'missing stack'));
        await finish(h);
    });

    test('answers an McpProtocolError exactly as thrown, with data only when given', async () => {
        const h = harness({
            serverInfo,
            tools: [
                tool('with-data', () => {
                    throw new McpProtocolError(-32042, 'Quota exceeded', {retryAfter: 3});
                }),
                tool('without-data', async () => {
                    throw new McpProtocolError(-32602, 'Bad shelf');
                }),
            ],
        });
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'with-data'}});
        h.send({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'without-data'}});
        await h.records(3);
        assert.deepEqual(h.output.text.split('\n').slice(1, 3), [
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"Quota exceeded","data":{"retryAfter":3}}}',
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Bad shelf"}}',
        ]);
        assert.equal(h.errors.text, '');
        await finish(h);
    });

    test('answers -32603 when a thrown value cannot even be inspected', async () => {
        const hostile = new Proxy(
            {},
            {
                getPrototypeOf() {
                    throw new Error('no prototype for you');
                },
            },
        );
        const h = harness({serverInfo, tools: [tool('hostile', async () => Promise.reject(hostile))]});
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'hostile'}});
        await h.records(2);
        assert.deepEqual(JSON.parse(lastLine(h)), {
            jsonrpc: '2.0',
            id: 1,
            error: {
                code: -32603,
                message:
                    'Internal error in tools/call of tool "hostile" (request id 1): its outcome could not be processed; ' +
                    "the server's diagnostics have the details",
            },
        });
        await finish(h);
    });

    test('answers -32603 when an McpProtocolError carries data that cannot be serialized', async () => {
        const h = harness({
            serverInfo,
            tools: [
                tool('bad-data', () => {
                    throw new McpProtocolError(-32001, 'Over quota', {limit: 10n});
                }),
            ],
        });
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'bad-data'}});
        await h.records(2);
        assert.equal(
            lastLine(h),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error in tools/call of tool \\"bad-data\\" ' +
                '(request id 1): the McpProtocolError it threw has data that cannot be serialized as JSON; ' +
                'the server\'s diagnostics have the details"}}',
        );
        await h.server.drain();
        assert.ok(h.errors.text.includes('Do not know how to serialize a BigInt'));
        await finish(h);
    });

    test('answers -32603 for a plain domain object, a missing content array and a non-object result', async () => {
        const results: unknown[] = [
            {content: 'some text'},
            {structuredContent: {}},
            'text',
            null,
            [{type: 'text'}],
        ];
        const h = harness({serverInfo, tools: results.map((r, i) => tool(`t${i}`, () => r as never))});
        await h.initialize();
        results.forEach((_, i) => {
            h.send({jsonrpc: '2.0', id: i, method: 'tools/call', params: {name: `t${i}`}});
        });
        const records = await h.records(1 + results.length);
        assert.deepEqual(
            records.slice(1),
            results.map((_, i) => ({
                jsonrpc: '2.0',
                id: i,
                error: {
                    code: -32603,
                    message:
                        `Internal error in tools/call of tool "t${i}" (request id ${i}): the handler returned an invalid ` +
                        `CallToolResult: it must be an object with a "content" array; the server's diagnostics have the details`,
                },
            })),
        );
        await h.server.drain();
        assert.ok(h.errors.text.includes("content: 'some text'"));
        await finish(h);
    });

    test('answers -32603 for results that cannot be serialized', async () => {
        const circular: Record<string, unknown> = {content: []};
        circular.self = circular;
        const h = harness({
            serverInfo,
            tools: [
                tool('circular', () => circular as never),
                tool('bigint', () => ({content: [], structuredContent: {n: 1n}})),
                tool('getter', () => ({
                    content: [],
                    get structuredContent(): never {
                        throw new Error('getter failed');
                    },
                })),
            ],
        });
        await h.initialize();
        for (const [id, name] of ['circular', 'bigint', 'getter'].entries()) {
            h.send({jsonrpc: '2.0', id, method: 'tools/call', params: {name}});
        }
        const records = (await h.records(4)) as {id: number; error: {code: number; message: string}}[];
        assert.deepEqual(
            records.slice(1).map((r) => [r.id, r.error.code, r.error.message]),
            ['circular', 'bigint', 'getter'].map((name, id) => [
                id,
                -32603,
                `Internal error in tools/call of tool "${name}" (request id ${id}): the result could not be serialized as JSON; ` +
                    "the server's diagnostics have the details",
            ]),
        );
        await finish(h);
    });

    test('runs overlapping calls to one tool independently and answers in completion order', async () => {
        const gate = new Gate();
        const h = harness({serverInfo, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        await h.initialize();
        for (const id of [1, 2, 3])
            h.send({jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'slow'}});
        await gate.started(3);
        gate.call(2).done.resolve(text('third'));
        await h.records(2);
        gate.call(0).done.resolve(text('first'));
        await h.records(3);
        gate.call(1).done.resolve(text('second'));
        const records = (await h.records(4)) as {id: number}[];
        assert.deepEqual(
            records.slice(1).map((r) => r.id),
            [3, 1, 2],
        );
        await finish(h);
    });
});

describe('resources/read', () => {
    test('passes the complete params to the handler and its result through', async () => {
        const seen: unknown[] = [];
        const contents = [
            {uri: 'pantry://menu', mimeType: 'application/json', text: '{"a":1}', _meta: {v: 2}},
        ];
        const h = harness({
            serverInfo,
            resources: [
                {
                    uri: 'pantry://menu',
                    name: 'menu',
                    handler: (params, context) => {
                        seen.push(params, context.params, context.method);
                        return {contents};
                    },
                },
            ],
        });
        await h.initialize();
        const params = {uri: 'pantry://menu', _meta: {progressToken: 1}};
        h.send({jsonrpc: '2.0', id: 0, method: 'resources/read', params});
        await h.records(2);
        assert.equal(
            lastLine(h),
            `{"jsonrpc":"2.0","id":0,"result":{"contents":${JSON.stringify(contents)}}}`,
        );
        assert.deepEqual(seen[0], params);
        assert.equal(seen[0], seen[1]);
        assert.equal(seen[2], 'resources/read');
        await finish(h);
    });

    test('answers a missing uri with -32602 and an unknown uri with -32002 carrying the uri', async () => {
        const h = harness(menuOptions);
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'resources/read', params: {}});
        h.send({jsonrpc: '2.0', id: 2, method: 'resources/read', params: {uri: 'pantry://cellar'}});
        await h.records(3);
        assert.deepEqual(h.output.text.split('\n').slice(1, 3), [
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"resources/read needs \\"params.uri\\", the resource URI as a string"}}',
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found: pantry://cellar","data":{"uri":"pantry://cellar"}}}',
        ]);
        await finish(h);
    });

    test('answers -32603 and diagnoses a thrown error, and passes an McpProtocolError through', async () => {
        const failure = new Error('disk on the dark side');
        const h = harness({
            serverInfo,
            resources: [
                {
                    uri: 'a://broken',
                    name: 'broken',
                    handler: () => {
                        throw failure;
                    },
                },
                {uri: 'a://bad', name: 'bad', handler: () => ({contents: 'nope'}) as never},
                {
                    uri: 'a://gone',
                    name: 'gone',
                    handler: async () => {
                        throw new McpProtocolError(-32002, 'Resource gone: a://gone', {uri: 'a://gone'});
                    },
                },
            ],
        });
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'resources/read', params: {uri: 'a://broken'}});
        h.send({jsonrpc: '2.0', id: 2, method: 'resources/read', params: {uri: 'a://bad'}});
        h.send({jsonrpc: '2.0', id: 3, method: 'resources/read', params: {uri: 'a://gone'}});
        const records = await h.records(4);
        assert.deepEqual(records.slice(1), [
            {
                jsonrpc: '2.0',
                id: 1,
                error: {
                    code: -32603,
                    message:
                        'Internal error in resources/read of resource "a://broken" (request id 1): the handler threw; ' +
                        "the server's diagnostics have the details",
                },
            },
            {
                jsonrpc: '2.0',
                id: 2,
                error: {
                    code: -32603,
                    message:
                        'Internal error in resources/read of resource "a://bad" (request id 2): the handler returned an invalid ' +
                        'ReadResourceResult: it must be an object with a "contents" array; the server\'s diagnostics have the details',
                },
            },
            {
                jsonrpc: '2.0',
                id: 3,
                error: {code: -32002, message: 'Resource gone: a://gone', data: {uri: 'a://gone'}},
            },
        ]);
        await h.server.drain();
        assert.ok(h.errors.text.includes('disk on the dark side'));
        await finish(h);
    });
});
