/**
 * Our client against this package's own Streamable HTTP server in both eras: the modern
 * server checks every mirrored header against the body (a mismatch would be `-32020`), so a
 * call with `x-mcp-header` parameters in plain and Base64 form passing here is the headers right.
 */
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import type {McpClientOptions, VersionNegotiation} from '../../../lib/mcp/client/index.js';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import {createMcpHttpHandler, serveNodeHttp} from '../../../lib/mcp/http/index.js';
import {GUARD} from './support.js';

function handlerFor(protocolVersions: string[]) {
    return createMcpHttpHandler({
        serverInfo: {name: 'own-http', version: '1.0.0'},
        protocolVersions,
        tools: [
            {
                name: 'route',
                inputSchema: {
                    type: 'object',
                    properties: {
                        region: {type: 'string', 'x-mcp-header': 'Region'},
                        shard: {type: 'integer', 'x-mcp-header': 'Shard'},
                    },
                },
                handler: (args) => ({content: [{type: 'text', text: `${args.region}/${args.shard}`}]}),
            },
        ],
    });
}

const served: {url: string; close(): Promise<unknown>; handler: {close(): Promise<unknown>}}[] = [];
let dual = '';
let modernOnly = '';
let legacyOnly = '';

before(async () => {
    for (const versions of [['2026-07-28', '2025-11-25'], ['2026-07-28'], ['2025-11-25']]) {
        const handler = handlerFor(versions);
        const server = await serveNodeHttp(handler, {port: 0});
        served.push({url: server.url, close: () => server.close(), handler});
    }
    [dual, modernOnly, legacyOnly] = served.map((entry) => entry.url) as [string, string, string];
});

after(async () => {
    for (const entry of served) {
        await entry.handler.close();
        await entry.close();
    }
});

async function call(url: string, versionNegotiation: VersionNegotiation): Promise<[string, string]> {
    const options: McpClientOptions = {url, versionNegotiation};
    const client = await connectMcpClient(options);
    try {
        assert.deepEqual(
            (await client.listTools()).map((tool) => tool.name),
            ['route'],
        );
        const result = await client.callTool('route', {region: 'Zürich ', shard: 7});
        return [client.era, JSON.stringify(result.content)];
    } finally {
        await client.close();
    }
}

const ANSWER = '[{"type":"text","text":"Zürich /7"}]';

test("own HTTP server, dual-era: 'auto' and pinned are modern, the default legacy", GUARD, async () => {
    assert.deepEqual(await call(dual, 'auto'), ['modern', ANSWER]);
    assert.deepEqual(await call(dual, '2026-07-28'), ['modern', ANSWER]);
    assert.deepEqual(await call(dual, 'legacy'), ['legacy', ANSWER]);
});

test("own HTTP server, modern-only: 'auto' and pinned are modern", GUARD, async () => {
    assert.deepEqual(await call(modernOnly, 'auto'), ['modern', ANSWER]);
    assert.deepEqual(await call(modernOnly, '2026-07-28'), ['modern', ANSWER]);
});

test("own HTTP server, legacy-only: 'auto' falls back; pinned is refused", GUARD, async () => {
    assert.deepEqual(await call(legacyOnly, 'auto'), ['legacy', ANSWER]);
    await assert.rejects(connectMcpClient({url: legacyOnly, versionNegotiation: '2026-07-28'}), {
        name: 'McpConnectionError',
    });
});
