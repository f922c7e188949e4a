/**
 * Real clients over real engines: this package's client, the official SDK 1.x and 2.x clients
 * (2.x pinned to 2026-07-28 and in `auto`), on Node's `http` through `serveNodeHttp`, and on Hono
 * through `@hono/node-server`.
 */
import assert from 'node:assert/strict';
import type {AddressInfo} from 'node:net';
import {after, before, describe, test} from 'node:test';
import {serve} from '@hono/node-server';
import {Client as ClientV2, StreamableHTTPClientTransport as TransportV2} from '@modelcontextprotocol/client';
import {Client as ClientV1} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport as TransportV1} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {Hono} from 'hono';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import type {McpHttpHandler, NodeHttpServer} from '../../../lib/mcp/http/index.js';
import {createMcpHttpHandler, MCP_PROTOCOL_VERSIONS, serveNodeHttp} from '../../../lib/mcp/http/index.js';
import {SERVER_INFO} from '../../mcp/http/support.js';

const CLIENT_INFO = {name: 'http-clients-test', version: '1.0.0'};

function catalogHandler(): McpHttpHandler {
    return createMcpHttpHandler({
        serverInfo: SERVER_INFO,
        protocolVersions: [...MCP_PROTOCOL_VERSIONS].reverse(),
        tools: [
            {
                name: 'add',
                description: 'Adds a and b.',
                inputSchema: {type: 'object', properties: {a: {type: 'number'}, b: {type: 'number'}}},
                handler: async ({a, b}, {reportProgress}) => {
                    reportProgress({progress: 1, total: 1});
                    return {content: [{type: 'text', text: String((a as number) + (b as number))}]};
                },
            },
        ],
        resources: [
            {
                uri: 'mem://note',
                name: 'note',
                handler: () => ({contents: [{uri: 'mem://note', text: 'hello'}]}),
            },
        ],
        onDiagnostic: () => {},
    });
}

interface Engine {
    readonly url: string;
    close(): Promise<void>;
}

async function nodeEngine(handler: McpHttpHandler): Promise<Engine> {
    const served: NodeHttpServer = await serveNodeHttp(handler);
    return {url: served.url, close: () => served.close()};
}

async function honoEngine(handler: McpHttpHandler): Promise<Engine> {
    const app = new Hono();
    app.all('/mcp', (context) => handler.fetch(context.req.raw));
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const started = serve({fetch: app.fetch, port: 0, hostname: '127.0.0.1'}, () => resolve(started));
    });
    const {port} = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}/mcp`,
        close: () =>
            new Promise((resolve) => {
                server.close(() => resolve());
                (server as unknown as {closeAllConnections?: () => void}).closeAllConnections?.();
            }),
    };
}

for (const [name, start] of [
    ['node:http', nodeEngine],
    ['Hono', honoEngine],
] as const) {
    describe(`MCP clients over ${name}`, {timeout: 60_000}, () => {
        let handler: McpHttpHandler;
        let engine: Engine;
        before(async () => {
            handler = catalogHandler();
            engine = await start(handler);
        });
        after(async () => {
            await handler.close({cancelPending: true});
            await engine.close();
        });

        for (const protocolVersion of ['2025-11-25', '2025-03-26']) {
            test(`this package's client, ${protocolVersion}`, async () => {
                const client = await connectMcpClient({
                    url: engine.url,
                    clientInfo: CLIENT_INFO,
                    protocolVersion,
                });
                try {
                    assert.equal(client.protocolVersion, protocolVersion);
                    assert.deepEqual(
                        (await client.listTools()).map((tool) => tool.name),
                        ['add'],
                    );
                    const progress: number[] = [];
                    const result = await client.callTool(
                        'add',
                        {a: 2, b: 3},
                        {onProgress: (update) => void progress.push(update.progress)},
                    );
                    assert.deepEqual(result.content, [{type: 'text', text: '5'}]);
                    assert.deepEqual(progress, [1]);
                    assert.deepEqual((await client.readResource('mem://note')).contents, [
                        {uri: 'mem://note', text: 'hello'},
                    ]);
                } finally {
                    await client.close();
                }
            });
        }

        test('the official SDK 1.x client', async () => {
            const client = new ClientV1(CLIENT_INFO);
            const transport = new TransportV1(new URL(engine.url));
            await client.connect(transport);
            try {
                assert.equal(transport.sessionId?.length, 43);
                assert.deepEqual(
                    (await client.listTools()).tools.map((tool) => tool.name),
                    ['add'],
                );
                const progress: number[] = [];
                const result = await client.callTool({name: 'add', arguments: {a: 1, b: 1}}, undefined, {
                    onprogress: (update) => void progress.push(update.progress),
                });
                assert.deepEqual(result.content, [{type: 'text', text: '2'}]);
                assert.deepEqual(progress, [1]);
                await transport.terminateSession();
                assert.equal(handler.sessionCount, 0);
            } finally {
                await client.close();
            }
        });

        for (const mode of [{pin: '2026-07-28'}, 'auto'] as const) {
            test(`the official SDK 2.x client, ${typeof mode === 'string' ? mode : 'pinned to 2026-07-28'}`, async () => {
                const client = new ClientV2(CLIENT_INFO, {versionNegotiation: {mode}});
                const transport = new TransportV2(new URL(engine.url));
                await client.connect(transport);
                try {
                    assert.equal(transport.sessionId, undefined);
                    assert.deepEqual(
                        (await client.listTools()).tools.map((tool) => tool.name),
                        ['add'],
                    );
                    const result = await client.callTool({name: 'add', arguments: {a: 20, b: 22}});
                    assert.deepEqual(result.content, [{type: 'text', text: '42'}]);
                    const read = await client.readResource({uri: 'mem://note'});
                    assert.deepEqual(read.contents, [{uri: 'mem://note', text: 'hello'}]);
                    assert.equal(handler.sessionCount, 0);
                } finally {
                    await client.close();
                }
            });
        }
    });
}
