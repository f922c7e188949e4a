/**
 * Our client against the official SDK 2.x server over Streamable HTTP: `createMcpHandler` from
 * `@modelcontextprotocol/server`, whose web-standard `fetch` face is mounted on node:http by a few
 * lines here. For 2025-era clients it serves statelessly: no session id, and 405 to GET and
 * DELETE, which the client must take in its stride.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import type {IncomingMessage, ServerResponse} from 'node:http';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {Readable} from 'node:stream';
import {after, before, test} from 'node:test';
import {createMcpHandler, fromJsonSchema, McpServer} from '@modelcontextprotocol/server';
import type {McpClient, Progress} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, readToolResult} from '../../../lib/mcp/client/index.js';

const GUARD = {timeout: 30_000};

const SUM_SCHEMA = {
    type: 'object',
    properties: {a: {type: 'number'}, b: {type: 'number'}},
    required: ['a', 'b'],
} as const;

function factory(): McpServer {
    const server = new McpServer({name: 'sdk-v2-http', version: '2.0.0'});
    server.registerTool(
        'sum',
        {description: 'Adds two numbers.', inputSchema: fromJsonSchema<{a: number; b: number}>(SUM_SCHEMA)},
        async ({a, b}, ctx) => {
            const token = ctx.mcpReq._meta?.progressToken;
            if (token !== undefined) {
                await ctx.mcpReq.notify({
                    method: 'notifications/progress',
                    params: {progressToken: token, progress: 1, total: 1},
                });
            }
            return {content: [{type: 'text', text: String(a + b)}], structuredContent: {sum: a + b}};
        },
    );
    server.registerTool('broken', {description: 'Always fails.'}, async () => {
        throw new Error('broken on purpose');
    });
    return server;
}

const handler = createMcpHandler(factory);
const methods: string[] = [];

/** node:http in, fetch `Request` to the handler, its `Response` back out. */
async function mount(req: IncomingMessage, res: ServerResponse): Promise<void> {
    methods.push(req.method ?? '');
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
        duplex: 'half',
    } as RequestInit);
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) {
        res.end();
        return;
    }
    for await (const chunk of response.body) res.write(chunk);
    res.end();
}

const http = createServer((req, res) => {
    void mount(req, res);
});
let client: McpClient;

before(async () => {
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    client = await connectMcpClient({url, listen: true});
});

after(async () => {
    await client.close();
    http.closeAllConnections();
    http.close();
});

test('SDK 2.x createMcpHandler: the handshake negotiates a 2025 revision and names the server', GUARD, () => {
    assert.deepEqual(client.serverInfo, {name: 'sdk-v2-http', version: '2.0.0'});
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.deepEqual(client.capabilities, {tools: {listChanged: true}});
    assert.equal(client.instructions, undefined);
});

test(
    'SDK 2.x createMcpHandler: the tools, with the inputSchema it derived from JSON Schema',
    GUARD,
    async () => {
        assert.deepEqual(await client.listTools(), [
            {name: 'sum', description: 'Adds two numbers.', inputSchema: SUM_SCHEMA},
            {name: 'broken', description: 'Always fails.', inputSchema: {type: 'object', properties: {}}},
        ]);
    },
);

test(
    'SDK 2.x createMcpHandler: a call with progress, and a handler that throws as an error result',
    GUARD,
    async () => {
        const progress: Progress[] = [];
        const result = await client.callTool('sum', {a: 2, b: 40}, {onProgress: (p) => progress.push(p)});
        assert.deepEqual(result, {content: [{type: 'text', text: '42'}], structuredContent: {sum: 42}});
        assert.deepEqual(readToolResult(result), {sum: 42});
        assert.deepEqual(progress, [{progress: 1, total: 1}]);
        const failed = await client.callTool('broken', {});
        assert.deepEqual(failed, {content: [{type: 'text', text: 'broken on purpose'}], isError: true});
        assert.throws(() => readToolResult(failed), {
            name: 'McpToolError',
            message: 'The tool reported an error: broken on purpose',
        });
    },
);

test(
    'SDK 2.x createMcpHandler: a stateless server issues no session, refuses GET with 405, and gets no DELETE',
    GUARD,
    async () => {
        await client.close();
        assert.equal(methods.filter((m) => m === 'GET').length, 1);
        assert.equal(methods.includes('DELETE'), false);
    },
);
