/**
 * Our client's eras against the official SDK 2.x server, modern-only and dual-era, over stdio
 * (`serveStdio`) and over Streamable HTTP (`createMcpHandler`), with 'auto' and pinned
 * negotiation.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import type {IncomingMessage, ServerResponse} from 'node:http';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {Readable} from 'node:stream';
import {after, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createMcpHandler} from '@modelcontextprotocol/server';
import type {McpClient, McpClientOptions, VersionNegotiation} from '../../../lib/mcp/client/index.js';
import {
    connectMcpClient,
    McpConnectionError,
    McpHttpError,
    readToolResult,
} from '../../../lib/mcp/client/index.js';
import {eraFactory} from './fixtures/sdk-v2-era.js';

const GUARD = {timeout: 30_000};
const STDIO_SERVER = fileURLToPath(new URL('./fixtures/sdk-v2-era-server.js', import.meta.url));

async function exercise(options: McpClientOptions, era: 'legacy' | 'modern'): Promise<void> {
    const client: McpClient = await connectMcpClient(options);
    try {
        assert.equal(client.era, era);
        assert.equal(client.protocolVersion, era === 'modern' ? '2026-07-28' : '2025-11-25');
        assert.deepEqual(client.serverInfo, {name: 'sdk-v2-eras', version: '2.4.0'});
        assert.deepEqual(
            (await client.listTools()).map((tool) => tool.name),
            ['sum', 'greet'],
        );
        assert.equal(readToolResult(await client.callTool('sum', {a: 2, b: 3})), '5');
    } finally {
        await client.close();
    }
}

const stdio = (kind: string, versionNegotiation: VersionNegotiation): McpClientOptions => ({
    command: process.execPath,
    args: [STDIO_SERVER, kind],
    versionNegotiation,
});

for (const [kind, negotiation, era] of [
    ['dual', 'auto', 'modern'],
    ['dual', '2026-07-28', 'modern'],
    ['dual', 'legacy', 'legacy'],
    ['modern', 'auto', 'modern'],
    ['modern', '2026-07-28', 'modern'],
] as const) {
    test(`SDK 2.x over stdio, ${kind}-era server, ${negotiation} negotiation: ${era}`, GUARD, () =>
        exercise(stdio(kind, negotiation), era),
    );
}

test('SDK 2.x over stdio, modern-only server: the legacy handshake is refused', GUARD, async () => {
    await assert.rejects(connectMcpClient(stdio('modern', 'legacy')), {name: 'McpRemoteError', code: -32022});
});

function mounted(handler: {fetch(request: Request): Promise<Response>}) {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        void (async () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(req.headers)) {
                if (typeof value === 'string') headers.set(name, value);
            }
            const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
            const response = await handler.fetch(
                new Request(`http://${req.headers.host}${req.url}`, {
                    method: req.method,
                    headers,
                    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
                    duplex: 'half',
                } as RequestInit),
            );
            res.writeHead(response.status, Object.fromEntries(response.headers));
            if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
            res.end();
        })();
    });
    after(() => {
        server.closeAllConnections();
        server.close();
    });
    return server;
}

async function listening(handler: {fetch(request: Request): Promise<Response>}): Promise<string> {
    const server = mounted(handler);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

test('SDK 2.x over HTTP, dual-era handler: auto, pinned and legacy', GUARD, async () => {
    const url = await listening(createMcpHandler(eraFactory));
    await exercise({url, versionNegotiation: 'auto'}, 'modern');
    await exercise({url, versionNegotiation: '2026-07-28'}, 'modern');
    await exercise({url}, 'legacy');
});

test('SDK 2.x over HTTP, modern-only handler: auto and pinned; legacy refused', GUARD, async () => {
    const url = await listening(createMcpHandler(eraFactory, {legacy: 'reject'}));
    await exercise({url, versionNegotiation: 'auto'}, 'modern');
    await exercise({url, versionNegotiation: '2026-07-28'}, 'modern');
    await assert.rejects(connectMcpClient({url}), (error: unknown) => {
        assert.ok(error instanceof McpConnectionError);
        assert.ok(error.cause instanceof McpHttpError);
        assert.equal(error.cause.status, 400);
        return true;
    });
});

test(
    'SDK 2.x over stdio and HTTP, modern: a tool that asks is answered by an input round',
    GUARD,
    async () => {
        const url = await listening(createMcpHandler(eraFactory, {legacy: 'reject'}));
        const asked: unknown[] = [];
        const handlers = {
            elicitation: {
                form: (params: unknown) => {
                    asked.push(params);
                    return {action: 'accept', content: {name: 'Ada'}};
                },
            },
        };
        for (const options of [
            {...stdio('modern', '2026-07-28'), handlers},
            {url, versionNegotiation: '2026-07-28' as const, handlers},
        ]) {
            const client = await connectMcpClient(options);
            try {
                assert.equal(readToolResult(await client.callTool('greet', {})), 'Hello, Ada');
            } finally {
                await client.close();
            }
        }
        assert.equal(asked.length, 2);
    },
);
