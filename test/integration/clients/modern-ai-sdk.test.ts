/**
 * Vercel's `@ai-sdk/mcp` client with its default stdio transport, which probes `server/discover`
 * in place (on the process that then serves the session) and falls back to `initialize` when the
 * probe fails with anything but a 2026-07-28 error code, or is not answered within its fixed 1 s.
 * No model is involved: the client is driven directly, and its AI SDK tools are executed the way a
 * model's tool call would execute them.
 *
 * Two things this client does over stdio are not what the 2026-07-28 revision asks of a client
 * (basic/transports/stdio.mdx): aborting a call sends no `notifications/cancelled` (a MUST), so the
 * server's handler keeps running and its answer arrives late; and `close()` kills the server with
 * SIGTERM at once instead of first closing its input (a SHOULD). The tests pin what it does today
 * (cancellation in modern-ai-sdk-cancel.test.ts, with two `todo` tests that state what the
 * revision asks, so they start passing when the client is fixed).
 */
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {MCPClientError} from '@ai-sdk/mcp';
import {z} from 'zod';
import {closeAll} from '../../helpers/children.js';
import {
    OBSERVATORY_CATALOG,
    OBSERVATORY_INSTRUCTIONS,
    OBSERVATORY_RESOURCES,
    OBSERVATORY_TOOL_NAMES,
    SKY_TONIGHT,
} from '../../helpers/observatory.js';
import {MOON_PANTRY, OBSERVATORY} from '../../helpers/paths.js';
import type {Connected} from './ai-sdk-support.js';
import {connect, META} from './ai-sdk-support.js';
import {
    answerLine,
    assertAnswer,
    lastRequestId,
    MODERN,
    OBSERVATORY_DISCOVERY,
    OBSERVATORY_INFO,
    OBSERVATORY_META,
} from './modern-support.js';
import {fixturePath} from './support.js';

after(closeAll);

const GUARD = {timeout: 60_000};

const TONIGHT = {
    site: 'Paranal',
    moonPhase: 'waxing gibbous',
    visible: ['Moon', 'Jupiter', 'Saturn'],
    seeing: 4,
};
const TONIGHT_TEXT = [{type: 'text', text: 'Paranal: Moon, Jupiter, Saturn visible; seeing 4/5.'}];

describe('the @ai-sdk/mcp client with the observatory', GUARD, () => {
    let connected: Connected;

    before(async () => {
        connected = await connect(OBSERVATORY);
    });

    test('probes server/discover on the same process and stays in 2026-07-28 without initialize', () => {
        const {client, server} = connected;
        assert.deepEqual(server.sent, [
            {method: 'server/discover', params: {_meta: META}, jsonrpc: '2.0', id: 0},
        ]);
        assert.equal(
            server.output,
            `${JSON.stringify({jsonrpc: '2.0', id: 0, result: OBSERVATORY_DISCOVERY})}\n`,
        );
        assert.deepEqual(client.serverInfo, OBSERVATORY_INFO);
        assert.equal(client.instructions, OBSERVATORY_INSTRUCTIONS);
        assert.deepEqual(client.initializeResult, {
            protocolVersion: MODERN,
            capabilities: {tools: {}, resources: {}},
            serverInfo: OBSERVATORY_INFO,
            instructions: OBSERVATORY_INSTRUCTIONS,
        });
    });

    test('lists the tools; the result carries resultType and the server identity', async () => {
        const {client, server} = connected;
        const result = await client.listTools();
        assert.deepEqual(
            result.tools.map((tool) => tool.name),
            OBSERVATORY_TOOL_NAMES,
        );
        assert.deepEqual(result.tools[0], SKY_TONIGHT);
        assert.deepEqual(result, {
            _meta: OBSERVATORY_META,
            resultType: 'complete',
            tools: result.tools,
            ttlMs: 300000,
            cacheScope: 'public',
        });
        const id = lastRequestId(server.sent, 'tools/list');
        const line = answerLine(server.output, id);
        const tools = (JSON.parse(line) as {result: {tools: unknown}}).result.tools;
        assert.equal(
            line,
            JSON.stringify({
                jsonrpc: '2.0',
                id,
                result: {
                    resultType: 'complete',
                    _meta: OBSERVATORY_META,
                    tools,
                    ttlMs: 300000,
                    cacheScope: 'public',
                },
            }),
        );
    });

    test('calls sky.tonight and gets its structuredContent exactly', async () => {
        const {client, server} = connected;
        assert.deepEqual(await client.callTool({name: 'sky.tonight', arguments: {site: 'Paranal'}}), {
            _meta: OBSERVATORY_META,
            resultType: 'complete',
            content: TONIGHT_TEXT,
            structuredContent: TONIGHT,
            isError: false,
        });
        const id = lastRequestId(server.sent, 'tools/call', 'sky.tonight');
        assertAnswer(server.output, id, {
            resultType: 'complete',
            _meta: OBSERVATORY_META,
            content: TONIGHT_TEXT,
            structuredContent: TONIGHT,
        });
    });

    test('executes the AI SDK tools a model would call, with the structured output validated by a schema', async () => {
        const {client} = connected;
        const automatic = await client.tools();
        assert.deepEqual(Object.keys(automatic), OBSERVATORY_TOOL_NAMES);
        const typed = await client.tools({
            schemas: {
                'sky.tonight': {
                    inputSchema: z.object({site: z.string()}),
                    outputSchema: z
                        .object({
                            site: z.string(),
                            moonPhase: z.string(),
                            visible: z.array(z.string()),
                            seeing: z.number().int().min(1).max(5),
                        })
                        .strict(),
                },
            },
        });
        assert.deepEqual(Object.keys(typed), ['sky.tonight']);
        const execute = typed['sky.tonight']?.execute;
        assert.ok(execute !== undefined);
        assert.deepEqual(
            await execute({site: 'Paranal'}, {toolCallId: 'call-1', messages: [], context: {}}),
            TONIGHT,
        );
    });

    test('gets a domain failure as an isError result', async () => {
        assert.deepEqual(
            await connected.client.callTool({name: 'telescope.point', arguments: {target: 'vulcan'}}),
            {
                _meta: OBSERVATORY_META,
                resultType: 'complete',
                content: [
                    {
                        type: 'text',
                        text: 'No catalogued object is called "vulcan"; try one of moon, jupiter, saturn, m31.',
                    },
                ],
                isError: true,
            },
        );
    });

    test('lists and reads the resources', async () => {
        const {client, server} = connected;
        assert.deepEqual(await client.listResources(), {
            _meta: OBSERVATORY_META,
            resultType: 'complete',
            resources: OBSERVATORY_RESOURCES,
            ttlMs: 300000,
            cacheScope: 'public',
        });
        const contents = [
            {
                uri: 'observatory://catalog',
                mimeType: 'application/json',
                text: JSON.stringify(OBSERVATORY_CATALOG),
            },
        ];
        assert.deepEqual(await client.readResource({uri: 'observatory://catalog'}), {
            _meta: OBSERVATORY_META,
            resultType: 'complete',
            contents,
            ttlMs: 0,
            cacheScope: 'private',
        });
        const id = lastRequestId(server.sent, 'resources/read');
        assertAnswer(server.output, id, {
            resultType: 'complete',
            _meta: OBSERVATORY_META,
            contents,
            ttlMs: 0,
            cacheScope: 'private',
        });
    });

    test('gets the missing-resource error as an MCPClientError with -32602 and the uri', async () => {
        const {client, server} = connected;
        await assert.rejects(client.readResource({uri: 'observatory://nowhere'}), (error: unknown) => {
            assert.ok(MCPClientError.isInstance(error));
            assert.equal(error.code, -32602);
            assert.equal(error.message, 'Resource not found: observatory://nowhere');
            assert.deepEqual(error.data, {uri: 'observatory://nowhere'});
            return true;
        });
        const id = lastRequestId(server.sent, 'resources/read');
        assert.equal(
            answerLine(server.output, id),
            `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"Resource not found: observatory://nowhere",` +
                '"data":{"uri":"observatory://nowhere"}}}',
        );
    });

    test('closing the client kills the server with SIGTERM rather than ending its input', async () => {
        const {client, server, uncaught} = connected;
        await client.close();
        assert.deepEqual(await server.exited, {code: null, signal: 'SIGTERM'});
        assert.deepEqual(uncaught, []);
    });
});

describe('the @ai-sdk/mcp client with a modern-only server (array outputSchema)', GUARD, () => {
    test('gets array structuredContent, and its AI SDK tool validates it with an array schema', async () => {
        const {client, server} = await connect(fixturePath('modern-only-server'));
        assert.equal(client.initializeResult.protocolVersion, MODERN);
        const two = [
            {name: 'Sirius', magnitude: -1.46},
            {name: 'Canopus', magnitude: -0.74},
        ];
        const result = await client.callTool({name: 'stars.brightest', arguments: {count: 2}});
        assert.deepEqual(result.structuredContent, two);
        const star = z.object({name: z.string(), magnitude: z.number()}).strict();
        const tools = await client.tools({
            schemas: {
                'stars.brightest': {
                    inputSchema: z.object({count: z.number().int()}),
                    outputSchema: z.array(star),
                },
                'stars.miscounted': {inputSchema: z.object({}), outputSchema: z.array(star)},
            },
        });
        const options = {toolCallId: 'call-1', messages: [], context: {}};
        assert.deepEqual(await tools['stars.brightest']?.execute?.({count: 2}, options), two);
        await assert.rejects(
            Promise.resolve(tools['stars.miscounted']?.execute?.({}, options)),
            (error: unknown) => {
                assert.ok(MCPClientError.isInstance(error));
                assert.equal(
                    error.message,
                    'Tool "stars.miscounted" returned structuredContent that does not match the expected outputSchema',
                );
                return true;
            },
        );
        assert.deepEqual(
            server.sent.map((message) => message.method),
            ['server/discover', 'tools/call', 'tools/list', 'tools/call', 'tools/call'],
        );
        await client.close();
        assert.deepEqual(await server.exited, {code: null, signal: 'SIGTERM'});
    });
});

describe('the @ai-sdk/mcp client with a legacy-only server (moon-pantry keeps the default)', GUARD, () => {
    test('its probe is answered -32601 at once on the same process, and it falls back to initialize', async () => {
        const {client, server} = await connect(MOON_PANTRY);
        assert.deepEqual(
            server.sent.map((message) => message.method),
            ['server/discover', 'initialize', 'notifications/initialized'],
        );
        assert.equal(
            answerLine(server.output, 0),
            '{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found: \\"server/discover\\""}}',
        );
        assert.equal(client.initializeResult.protocolVersion, '2025-11-25');
        const menu = {
            content: 'Moon soup\nExtra tentacles available.',
            message: {chef: 'Octopus', open: true},
        };
        assert.deepEqual(await client.callTool({name: 'moon.menu'}), {
            content: [{type: 'text', text: JSON.stringify(menu)}],
            structuredContent: menu,
            isError: false,
        });
        await client.close();
        assert.deepEqual(await server.exited, {code: null, signal: 'SIGTERM'});
    });
});
