/**
 * Our client's `listen()` against the official SDK 2.x server, which serves `subscriptions/listen`:
 * over stdio (`serveStdio`, where the server's own change notifications are routed to the
 * subscriptions that asked for them) and over Streamable HTTP (`createMcpHandler`, whose `notify`
 * publishes to every open listen stream).
 */
import assert from 'node:assert/strict';
import {EventEmitter, once} from 'node:events';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {Readable} from 'node:stream';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createMcpHandler} from '@modelcontextprotocol/server';
import type {ListName, McpClientOptions} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, readToolResult} from '../../../lib/mcp/client/index.js';
import {listenFactory, WATCHED} from './fixtures/sdk-v2-listen.js';

const GUARD = {timeout: 30_000};
const STDIO_SERVER = fileURLToPath(new URL('./fixtures/sdk-v2-listen-server.js', import.meta.url));

/** A client recording what its callbacks hear, with a wait for the n-th. */
async function recording(options: McpClientOptions) {
    const heard: string[] = [];
    const events = new EventEmitter();
    const client = await connectMcpClient({
        ...options,
        versionNegotiation: '2026-07-28',
        onResourceUpdated: ({uri}) => {
            heard.push(`updated ${uri}`);
            events.emit('heard');
        },
        onListChanged: (list: ListName) => {
            heard.push(`changed ${list}`);
            events.emit('heard');
        },
    } as McpClientOptions);
    const hear = async (count: number) => {
        while (heard.length < count) await once(events, 'heard');
        return [...heard];
    };
    return {client, hear};
}

test('SDK 2.x over stdio: listen is acknowledged, updates arrive, close() cancels', GUARD, async () => {
    const {client, hear} = await recording({command: process.execPath, args: [STDIO_SERVER]});
    try {
        const sub = await client.listen({resources: [WATCHED], lists: ['tools', 'prompts']});
        // The server advertises no prompts: it grants the rest.
        assert.deepEqual(sub.granted, {resources: [WATCHED], lists: ['tools']});
        assert.equal(readToolResult(await client.callTool('touch')), 'touched');
        assert.deepEqual(await hear(2), [`updated ${WATCHED}`, 'changed tools']);
        await sub.close();
        assert.deepEqual(await sub.ended, {by: 'client'});
        // Cancelled on the server: touching again reaches no subscription.
        assert.equal(readToolResult(await client.callTool('touch')), 'touched');
        await client.subscribeResource(WATCHED);
        assert.equal(readToolResult(await client.callTool('touch')), 'touched');
        assert.deepEqual(await hear(3), [`updated ${WATCHED}`, 'changed tools', `updated ${WATCHED}`]);
        await client.unsubscribeResource(WATCHED);
    } finally {
        await client.close();
    }
});

test(
    'SDK 2.x over HTTP: listen on its own stream, the handler notifies, close() closes it',
    GUARD,
    async () => {
        const handler = createMcpHandler(listenFactory, {legacy: 'reject'});
        const server = createServer((req, res) => {
            void (async () => {
                const headers = new Headers();
                for (const [name, value] of Object.entries(req.headers)) {
                    if (typeof value === 'string') headers.set(name, value);
                }
                const abort = new AbortController();
                res.on('close', () => abort.abort());
                const response = await handler.fetch(
                    new Request(`http://${req.headers.host}${req.url}`, {
                        method: req.method,
                        headers,
                        body: req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream) : undefined,
                        duplex: 'half',
                        signal: abort.signal,
                    } as RequestInit),
                );
                res.writeHead(response.status, Object.fromEntries(response.headers));
                try {
                    if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
                } catch {
                    // The client closed the stream.
                }
                res.end();
            })();
        });
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
        const {client, hear} = await recording({url});
        try {
            const sub = await client.listen({resources: [WATCHED], lists: ['tools']});
            assert.deepEqual(sub.granted, {resources: [WATCHED], lists: ['tools']});
            handler.notify.resourceUpdated(WATCHED);
            handler.notify.resourceUpdated('test://elsewhere');
            handler.notify.toolsChanged();
            assert.deepEqual(await hear(2), [`updated ${WATCHED}`, 'changed tools']);
            await sub.close();
            assert.deepEqual(await sub.ended, {by: 'client'});
        } finally {
            await client.close();
            await handler.close();
            server.closeAllConnections();
            server.close();
        }
    },
);
