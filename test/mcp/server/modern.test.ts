/**
 * The 2026-07-28 era on the raw wire: discovery, the per-request envelope, decorated results,
 * caching hints and the era's error codes, byte for byte.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {describe, test} from 'node:test';
import type {HandlerContext, McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {McpProtocolError} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {text, tool} from '../../helpers/session.js';
import type {Harness} from '../../helpers/streams.js';
import {answer, finish, harness, lines} from '../../helpers/streams.js';
import {META, modern} from '../../helpers/wire.js';

const SERVER_INFO = {name: 'modern-test', version: '1.0.0'};
const IDENTITY = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-test","version":"1.0.0"}}';

function options(extra: Partial<McpStdioServerOptions> = {}): McpStdioServerOptions {
    return {
        serverInfo: SERVER_INFO,
        instructions: 'Use echo.',
        protocolVersions: ['2026-07-28', '2025-11-25'],
        tools: [
            tool('echo', (args) => ({...text(String(args.text)), structuredContent: {echoed: args.text}})),
            tool('boom', () => {
                throw new Error('it went boom');
            }),
        ],
        resources: [{uri: 'pantry://r', name: 'r', handler: ({uri}) => ({contents: [{uri, text: 'R'}]})}],
        ...extra,
    };
}

describe('server/discover', () => {
    test('answers the supported revisions, capabilities, instructions, identity and caching hints', async () => {
        const h = harness(options());
        assert.equal(
            await modern(h, 'probe-1', 'server/discover'),
            `{"jsonrpc":"2.0","id":"probe-1","result":{"resultType":"complete",${IDENTITY},` +
                '"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{},"resources":{}},' +
                '"instructions":"Use echo.","ttlMs":300000,"cacheScope":"public"}}',
        );
        await finish(h);
    });

    test('carries the listCache option and leaves out instructions the server has none of', async () => {
        const h = harness({
            serverInfo: SERVER_INFO,
            protocolVersions: ['2026-07-28'],
            listCache: {ttlMs: 0, cacheScope: 'private'},
        });
        assert.equal(
            await modern(h, 1, 'server/discover'),
            `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",${IDENTITY},` +
                '"supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}}',
        );
        await finish(h);
    });

    test('does not spoil a later initialize, which then selects the legacy era', async () => {
        const h = harness(options());
        await modern(h, 'probe', 'server/discover');
        const init = await h.initialize();
        assert.deepEqual(init, {
            jsonrpc: '2.0',
            id: 'init',
            result: {
                protocolVersion: '2025-11-25',
                capabilities: {tools: {}, resources: {}},
                serverInfo: SERVER_INFO,
                instructions: 'Use echo.',
            },
        });
        assert.equal(
            await modern(h, 2, 'server/discover'),
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: \\"server/discover\\""}}',
        );
        await finish(h);
    });
});

describe('the per-request envelope', () => {
    test('needs no initialize and gives the handler this request’s client data', async () => {
        const seen: HandlerContext[] = [];
        const h = harness(
            options({
                tools: [
                    tool('look', (_args, context) => {
                        seen.push(context);
                        return text('ok');
                    }),
                ],
            }),
        );
        const clientInfo = {name: 'first', version: '1.0.0'};
        await modern(h, 1, 'tools/call', {name: 'look'}, {'io.modelcontextprotocol/clientInfo': clientInfo});
        await modern(
            h,
            2,
            'tools/call',
            {name: 'look'},
            {'io.modelcontextprotocol/clientCapabilities': {x: {}}},
        );
        assert.deepEqual(
            seen.map((context) => [context.clientInfo, context.clientCapabilities, context.protocolVersion]),
            [
                [clientInfo, {}, '2026-07-28'],
                [{name: '', version: ''}, {x: {}}, '2026-07-28'],
            ],
        );
        await finish(h);
    });

    test('answers -32022 with the supported and requested revisions for one it does not serve', async () => {
        const h = harness(options());
        assert.equal(
            await modern(h, 1, 'tools/list', {}, {'io.modelcontextprotocol/protocolVersion': '2099-01-01'}),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version \\"2099-01-01\\": ' +
                'this server serves 2026-07-28, 2025-11-25","data":{"supported":["2026-07-28","2025-11-25"],' +
                '"requested":"2099-01-01"}}}',
        );
        assert.equal(
            await modern(h, 2, 'tools/list', {}, {'io.modelcontextprotocol/protocolVersion': '2025-11-25'}),
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version \\"2025-11-25\\": ' +
                'this server serves 2026-07-28, 2025-11-25; 2025-11-25 is served through \\"initialize\\", not per request",' +
                '"data":{"supported":["2026-07-28","2025-11-25"],"requested":"2025-11-25"}}}',
        );
        await finish(h);
    });

    test('answers -32602 naming a missing or malformed required field', async () => {
        const h = harness(options());
        const version = 'params._meta[\\"io.modelcontextprotocol/protocolVersion\\"]';
        const capabilities = 'params._meta[\\"io.modelcontextprotocol/clientCapabilities\\"]';
        const info = 'params._meta[\\"io.modelcontextprotocol/clientInfo\\"]';
        assert.equal(
            await modern(h, 1, 'tools/list', {}, {'io.modelcontextprotocol/protocolVersion': 20260728}),
            `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"${version} must be a string naming the protocol revision, got number 20260728"}}`,
        );
        assert.equal(
            await modern(h, 2, 'tools/list', {}, {'io.modelcontextprotocol/clientCapabilities': undefined}),
            `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"${capabilities} is required and must be an object ({} for none), got undefined"}}`,
        );
        assert.equal(
            await modern(h, 3, 'tools/list', {}, {'io.modelcontextprotocol/clientInfo': {name: 'x'}}),
            `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"${info}, when given, must be an object with \\"name\\" and \\"version\\" strings, got an object"}}`,
        );
        await finish(h);
    });

    test('answers -32601 for methods the revision removed or this server does not serve', async () => {
        const h = harness(options());
        for (const [id, method] of [
            [1, 'ping'],
            [2, 'logging/setLevel'],
            [3, 'subscriptions/listen'],
            [4, 'tasks/get'],
            [5, 'initialize'],
            [6, 'prompts/list'],
        ] as const) {
            assert.equal(
                await modern(h, id, method),
                `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found: \\"${method}\\""}}`,
            );
        }
        await finish(h);
    });

    test('lets a dual-era server answer a request without it only after initialize', async () => {
        const h = harness(options());
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 1, method: 'tools/list'}),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Server not initialized: send \\"initialize\\" and ' +
                'wait for its result before \\"tools/list\\", or send it with the 2026-07-28 per-request \\"params._meta\\" ' +
                '(\\"io.modelcontextprotocol/protocolVersion\\" and \\"io.modelcontextprotocol/clientCapabilities\\")"}}',
        );
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 2, method: 'server/discover'}),
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"server/discover needs ' +
                'params._meta[\\"io.modelcontextprotocol/protocolVersion\\"] and ' +
                'params._meta[\\"io.modelcontextprotocol/clientCapabilities\\"] (protocol revision 2026-07-28)"}}',
        );
        await finish(h);
    });

    test('is served under the legacy revision once initialize succeeded', async () => {
        const h = harness(options());
        await modern(h, 1, 'tools/call', {name: 'echo', arguments: {text: 'before'}});
        await h.initialize();
        assert.equal(
            await modern(h, 2, 'tools/call', {name: 'echo', arguments: {text: 'after'}}),
            '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"after"}],"structuredContent":{"echoed":"after"}}}',
        );
        await finish(h);
    });
});

describe('a modern-only server', () => {
    const only = (): Harness => harness(options({protocolVersions: ['2026-07-28']}));

    test('answers initialize -32022 naming the revisions it serves', async () => {
        const h = only();
        const init = {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: {name: 'old', version: '1'},
        };
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 0, method: 'initialize', params: init}),
            '{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"This server serves only 2026-07-28, which has no ' +
                '\\"initialize\\": send each request with params._meta[\\"io.modelcontextprotocol/protocolVersion\\"] and ' +
                'params._meta[\\"io.modelcontextprotocol/clientCapabilities\\"]","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}',
        );
        assert.match(
            await answer(h, {jsonrpc: '2.0', id: 1, method: 'initialize'}),
            /"data":\{"supported":\["2026-07-28"\],"requested":""\}\}\}$/,
        );
        await finish(h);
    });

    test('answers a request without the envelope -32602, an unknown one -32601, and serves the rest', async () => {
        const h = only();
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 1, method: 'tools/list'}),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tools/list needs ' +
                'params._meta[\\"io.modelcontextprotocol/protocolVersion\\"] and ' +
                'params._meta[\\"io.modelcontextprotocol/clientCapabilities\\"] (protocol revision 2026-07-28)"}}',
        );
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 2, method: 'ping'}),
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: \\"ping\\""}}',
        );
        assert.match(
            await modern(h, 3, 'tools/list'),
            /^\{"jsonrpc":"2\.0","id":3,"result":\{"resultType":"complete"/,
        );
        await finish(h);
    });
});

describe('modern results', () => {
    test('lists carry resultType, identity and the list caching hints', async () => {
        const h = harness(options());
        const tail = ',"ttlMs":300000,"cacheScope":"public"}}';
        assert.equal(
            await modern(h, 1, 'tools/list'),
            `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",${IDENTITY},"tools":[` +
                '{"name":"echo","inputSchema":{"type":"object"}},{"name":"boom","inputSchema":{"type":"object"}}]' +
                tail,
        );
        assert.equal(
            await modern(h, 2, 'resources/list'),
            `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete",${IDENTITY},"resources":[{"uri":"pantry://r","name":"r"}]${tail}`,
        );
        assert.equal(
            await modern(h, 3, 'resources/templates/list'),
            `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete",${IDENTITY},"resourceTemplates":[]${tail}`,
        );
        assert.equal(
            await modern(h, 4, 'tools/list', {cursor: 'x'}),
            '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"tools/list returns the complete list in one result and takes no \\"cursor\\""}}',
        );
        await finish(h);
    });

    test('a tool result and a thrown error gain resultType and identity, nothing else', async () => {
        const h = harness(options());
        assert.equal(
            await modern(h, 1, 'tools/call', {name: 'echo', arguments: {text: 'hi'}}),
            `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",${IDENTITY},` +
                '"content":[{"type":"text","text":"hi"}],"structuredContent":{"echoed":"hi"}}}',
        );
        assert.equal(
            await modern(h, 2, 'tools/call', {name: 'boom'}),
            `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete",${IDENTITY},` +
                '"content":[{"type":"text","text":"it went boom"}],"isError":true}}',
        );
        await finish(h);
    });

    test('a result with its own _meta or resultType keeps them and gains the identity', async () => {
        const h = harness(
            options({
                tools: [
                    tool('own', () => ({
                        ...text('x'),
                        resultType: 'complete',
                        _meta: {'com.example/trace': 't'},
                    })),
                    tool(
                        'json',
                        () => ({content: [], toJSON: () => ({content: [], _meta: {a: 1}})}) as never,
                    ),
                    tool('inherited', () => Object.create({content: []})),
                ],
            }),
        );
        assert.equal(
            await modern(h, 1, 'tools/call', {name: 'own'}),
            '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"x"}],' +
                '"_meta":{"com.example/trace":"t","io.modelcontextprotocol/serverInfo":{"name":"modern-test","version":"1.0.0"}}}}',
        );
        assert.equal(
            await modern(h, 2, 'tools/call', {name: 'json'}),
            '{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[],' +
                '"_meta":{"a":1,"io.modelcontextprotocol/serverInfo":{"name":"modern-test","version":"1.0.0"}}}}',
        );
        assert.equal(
            await modern(h, 3, 'tools/call', {name: 'inherited'}),
            `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete",${IDENTITY}}}`,
        );
        await finish(h);
    });

    test('a result claiming another resultType, or a _meta that is not an object, is -32603', async () => {
        const h = harness(
            options({
                tools: [
                    tool('interim', () => ({...text('x'), resultType: 'input_required'})),
                    tool('meta', () => ({...text('x'), _meta: 'm'}) as never),
                    tool('json', () => ({content: [], toJSON: () => 'text'}) as never),
                ],
            }),
        );
        const internal = (id: number, name: string, problem: string): string =>
            `{"jsonrpc":"2.0","id":${id},"error":{"code":-32603,"message":"Internal error in tools/call of tool ` +
            `\\"${name}\\" (request id ${id}): ${problem}; the server's diagnostics have the details"}}`;
        assert.equal(
            await modern(h, 1, 'tools/call', {name: 'interim'}),
            internal(
                1,
                'interim',
                'it claims \\"resultType\\": \\"input_required\\", but this server answers only complete results',
            ),
        );
        assert.equal(
            await modern(h, 2, 'tools/call', {name: 'meta'}),
            internal(2, 'meta', 'its \\"_meta\\" is not a JSON object'),
        );
        assert.equal(
            await modern(h, 3, 'tools/call', {name: 'json'}),
            internal(3, 'json', 'its toJSON method did not produce a JSON object'),
        );
        await finish(h);
    });

    test('structuredContent may be any JSON value, and passes through untouched in the legacy era too', async () => {
        const h = harness(options({tools: [tool('list', () => ({...text('[1]'), structuredContent: [1]}))]}));
        assert.equal(
            await modern(h, 1, 'tools/call', {name: 'list'}),
            `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",${IDENTITY},` +
                '"content":[{"type":"text","text":"[1]"}],"structuredContent":[1]}}',
        );
        await h.initialize();
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'list'}}),
            '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"[1]"}],"structuredContent":[1]}}',
        );
        await finish(h);
    });
});

describe('modern resources', () => {
    const hinted = (): Harness =>
        harness(
            options({
                readCache: {ttlMs: 1000},
                resources: [
                    {uri: 'r://plain', name: 'plain', handler: ({uri}) => ({contents: [{uri, text: 'p'}]})},
                    {
                        uri: 'r://own',
                        name: 'own',
                        handler: ({uri}) => ({contents: [{uri, text: 'o'}], ttlMs: 5, cacheScope: 'public'}),
                    },
                    {
                        uri: 'r://half',
                        name: 'half',
                        handler: ({uri}) => ({contents: [{uri, text: 'h'}], cacheScope: 'public'}),
                    },
                    {
                        uri: 'r://bad',
                        name: 'bad',
                        handler: ({uri}) => ({contents: [{uri, text: 'b'}], ttlMs: -1}),
                    },
                    {
                        uri: 'r://scope',
                        name: 'scope',
                        handler: () => ({contents: [], cacheScope: 'shared'}),
                    },
                ],
            }),
        );

    test('a read carries the readCache hints unless the handler gives its own', async () => {
        const h = hinted();
        const head = `{"resultType":"complete",${IDENTITY},`;
        assert.equal(
            await modern(h, 1, 'resources/read', {uri: 'r://plain'}),
            `{"jsonrpc":"2.0","id":1,"result":${head}"contents":[{"uri":"r://plain","text":"p"}],"ttlMs":1000,"cacheScope":"private"}}`,
        );
        assert.equal(
            await modern(h, 2, 'resources/read', {uri: 'r://own'}),
            `{"jsonrpc":"2.0","id":2,"result":${head}"contents":[{"uri":"r://own","text":"o"}],"ttlMs":5,"cacheScope":"public"}}`,
        );
        assert.equal(
            await modern(h, 3, 'resources/read', {uri: 'r://half'}),
            `{"jsonrpc":"2.0","id":3,"result":${head}"contents":[{"uri":"r://half","text":"h"}],"cacheScope":"public","ttlMs":1000}}`,
        );
        await finish(h);
    });

    test('a read with malformed hints is -32603', async () => {
        const h = hinted();
        assert.match(
            await modern(h, 1, 'resources/read', {uri: 'r://bad'}),
            /"code":-32603,"message":"Internal error in resources\/read of resource \\"r:\/\/bad\\" \(request id 1\): its \\"ttlMs\\" is not a whole number of milliseconds of at least 0;/,
        );
        assert.match(
            await modern(h, 2, 'resources/read', {uri: 'r://scope'}),
            /\(request id 2\): its \\"cacheScope\\" is neither \\"public\\" nor \\"private\\";/,
        );
        await finish(h);
    });

    test('a missing resource is -32602 with its uri, and -32002 in the legacy era', async () => {
        const h = harness(options());
        assert.equal(
            await modern(h, 1, 'resources/read', {uri: 'pantry://nope'}),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Resource not found: pantry://nope","data":{"uri":"pantry://nope"}}}',
        );
        await h.initialize();
        assert.equal(
            await answer(h, {
                jsonrpc: '2.0',
                id: 2,
                method: 'resources/read',
                params: {uri: 'pantry://nope'},
            }),
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found: pantry://nope","data":{"uri":"pantry://nope"}}}',
        );
        await finish(h);
    });
});

describe('modern cancellation', () => {
    test('a cancelled modern call sees its reason and is never answered', async () => {
        const gate = new Gate<HandlerContext>();
        const h = harness(options({tools: [tool('slow', gate.handler as never)]}));
        h.send({jsonrpc: '2.0', id: 'c', method: 'tools/call', params: {name: 'slow', _meta: META}});
        await gate.started(1);
        const {signal} = gate.call(0).context;
        const aborted = once(signal, 'abort');
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 'c', reason: 'stop'}});
        await aborted;
        assert.equal(signal.reason, 'stop');
        gate.call(0).done.reject(signal.reason);
        assert.match(await modern(h, 'next', 'tools/list'), /^\{"jsonrpc":"2\.0","id":"next","result"/);
        assert.equal(lines(h).length, 1, 'the cancelled call has no answer');
        await finish(h);
    });

    test('an McpProtocolError thrown by a modern handler is answered exactly as given', async () => {
        const h = harness(
            options({
                tools: [
                    tool('refuse', () => {
                        throw new McpProtocolError(-32099, 'no', {why: 'x'});
                    }),
                ],
            }),
        );
        assert.equal(
            await modern(h, 1, 'tools/call', {name: 'refuse'}),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32099,"message":"no","data":{"why":"x"}}}',
        );
        await finish(h);
    });
});
