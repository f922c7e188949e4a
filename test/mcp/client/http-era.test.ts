/**
 * The eras over Streamable HTTP against a scripted endpoint: the probe's `400` read by its body,
 * the modern request headers (`x-mcp-header` and the Base64 sentinel form), invalid annotations
 * leaving their tool out, no session, and cancellation by closing the exchange.
 */
import assert from 'node:assert/strict';
import type {ServerResponse} from 'node:http';
import {test} from 'node:test';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import type {Seen} from './http-fixture.js';
import {json, result, servedPerTest, status} from './http-fixture.js';
import {GUARD} from './support.js';

const serve = servedPerTest();

const DISCOVERY = {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: {tools: {}},
    ttlMs: 0,
    cacheScope: 'private',
};
const SQL = {
    name: 'sql',
    inputSchema: {
        type: 'object',
        properties: {
            region: {type: 'string', 'x-mcp-header': 'Region'},
            limits: {type: 'object', properties: {rows: {type: 'integer', 'x-mcp-header': 'Rows'}}},
            debug: {type: 'boolean', 'x-mcp-header': 'Debug'},
        },
    },
};
const NESTED_IN_ITEMS = {
    name: 'bad-items',
    inputSchema: {
        type: 'object',
        properties: {list: {type: 'array', items: {type: 'string', 'x-mcp-header': 'L'}}},
    },
};
const DUPLICATE = {
    name: 'bad-duplicate',
    inputSchema: {
        type: 'object',
        properties: {a: {type: 'string', 'x-mcp-header': 'X'}, b: {type: 'string', 'x-mcp-header': 'x'}},
    },
};

function modern(seen: Seen, res: ServerResponse, extra?: (method: string) => unknown): unknown {
    if (seen.method !== 'POST') return status(res, 405);
    const {method} = seen.json as {method: string};
    const answer = extra?.(method);
    if (answer === 'hold') return;
    if (answer !== undefined) return json(res, result(seen, answer));
    if (method === 'server/discover') return json(res, result(seen, DISCOVERY));
    if (method === 'tools/list')
        return json(res, result(seen, {resultType: 'complete', tools: [SQL, NESTED_IN_ITEMS, DUPLICATE]}));
    if (method === 'resources/read') return json(res, result(seen, {resultType: 'complete', contents: []}));
    return json(res, result(seen, {resultType: 'complete', content: []}));
}

function mcpHeaders(seen: Seen): Record<string, unknown> {
    return Object.fromEntries(Object.entries(seen.headers).filter(([name]) => name.startsWith('mcp')));
}

test('a modern session over HTTP: the headers of each request, and no session', GUARD, async () => {
    const fixture = await serve((seen, res) => modern(seen, res));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const client = await connectMcpClient({url: fixture.url(), versionNegotiation: '2026-07-28'});
    assert.equal(client.era, 'modern');
    assert.deepEqual(
        (await client.listTools()).map((tool) => tool.name),
        ['sql'],
    );
    await client.callTool('sql', {region: 'Hello, 世界', limits: {rows: 42}, debug: null});
    await client.readResource('file:///a b');
    await client.close();
    process.off('warning', onWarning);
    assert.deepEqual(
        fixture.seen.map((seen) => seen.method),
        ['POST', 'POST', 'POST', 'POST'],
    );
    assert.deepEqual(fixture.seen.map(mcpHeaders), [
        {'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover'},
        {'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list'},
        {
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'sql',
            'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
            'mcp-param-rows': '42',
        },
        {'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'file:///a b'},
    ]);
    assert.deepEqual(warnings, [
        'The MCP server\'s tool "bad-items" is left out of listTools(): x-mcp-header is outside a chain of "properties"',
        'The MCP server\'s tool "bad-duplicate" is left out of listTools(): x-mcp-header "x" is given more than once',
    ]);
});

test("'auto' over HTTP: a 400 whose body is no modern error falls back to initialize", GUARD, async () => {
    const fixture = await serve((seen, res) => {
        if (seen.method === 'DELETE') return status(res, 204);
        const {method, id} = seen.json as {method: string; id?: number};
        if (method === 'server/discover') {
            return status(
                res,
                400,
                JSON.stringify({
                    jsonrpc: '2.0',
                    id: null,
                    error: {code: -32000, message: 'Bad Request: Server not initialized'},
                }),
                {'content-type': 'application/json'},
            );
        }
        if (id === undefined) return status(res, 202);
        return json(
            res,
            result(seen, {
                protocolVersion: '2025-11-25',
                capabilities: {},
                serverInfo: {name: 'old', version: '1'},
            }),
            {'mcp-session-id': 's-1'},
        );
    });
    const client = await connectMcpClient({url: fixture.url(), versionNegotiation: 'auto'});
    assert.equal(client.era, 'legacy');
    await fixture.request(3);
    assert.deepEqual(fixture.seen.map(mcpHeaders), [
        {'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover'},
        {},
        {'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 's-1'},
    ]);
    await client.close();
});

test("'auto' over HTTP: a 400 with an empty body falls back too", GUARD, async () => {
    const fixture = await serve((seen, res) => {
        const {method, id} = seen.json as {method: string; id?: number};
        if (method === 'server/discover') return status(res, 400);
        if (id === undefined) return status(res, 202);
        return json(
            res,
            result(seen, {
                protocolVersion: '2025-11-25',
                capabilities: {},
                serverInfo: {name: 'old', version: '1'},
            }),
        );
    });
    const client = await connectMcpClient({url: fixture.url(), versionNegotiation: 'auto'});
    assert.equal(client.era, 'legacy');
    await client.close();
});

test("'auto' over HTTP: a 400 carrying a modern error is read as one, not a fall back", GUARD, async () => {
    const fixture = await serve((_seen, res) =>
        status(
            res,
            400,
            JSON.stringify({jsonrpc: '2.0', id: 1, error: {code: -32020, message: 'Header mismatch'}}),
            {
                'content-type': 'application/json',
            },
        ),
    );
    await assert.rejects(connectMcpClient({url: fixture.url(), versionNegotiation: 'auto'}), {
        name: 'McpRemoteError',
        code: -32020,
        message: 'Header mismatch',
    });
    assert.equal(fixture.seen.length, 1);
});

test('a modern call given up over HTTP closes its exchange and posts no cancellation', GUARD, async () => {
    let held: Seen | undefined;
    const fixture = await serve((seen, res) =>
        modern(seen, res, (method) => {
            if (method !== 'tools/call') return undefined;
            held = seen;
            return 'hold';
        }),
    );
    const client = await connectMcpClient({url: fixture.url(), versionNegotiation: '2026-07-28'});
    const controller = new AbortController();
    const calling = client.callTool('slow', {}, {signal: controller.signal});
    await fixture.request(2);
    controller.abort(new Error('stop'));
    await assert.rejects(calling, {message: 'stop'});
    await (held as Seen).closed;
    await client.close();
    assert.deepEqual(
        fixture.seen.map((seen) => (seen.json as {method: string}).method),
        ['server/discover', 'tools/call'],
    );
});
