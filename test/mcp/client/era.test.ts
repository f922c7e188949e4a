/** The eras against this package's own stdio server: modern-only, dual-era and legacy-only. */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {McpClient, McpStdioClientOptions} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, McpConnectionError} from '../../../lib/mcp/client/index.js';
import {closeAll, track} from '../../helpers/children.js';
import {GUARD} from './support.js';

afterEach(closeAll);

const ERA_SERVER = fileURLToPath(new URL('./fixtures/era-server.js', import.meta.url));
const IDENTITY = {name: 'era-server', version: '2.0.0'};
const META = {'io.modelcontextprotocol/serverInfo': IDENTITY};

function connect(kind: string, options: Partial<McpStdioClientOptions> = {}): Promise<McpClient> {
    return connectMcpClient({command: process.execPath, args: [ERA_SERVER, kind], ...options}).then(track);
}

test("'auto' against a dual-era server speaks 2026-07-28", GUARD, async () => {
    const client = await connect('dual', {versionNegotiation: 'auto'});
    assert.equal(client.era, 'modern');
    assert.equal(client.protocolVersion, '2026-07-28');
    assert.deepEqual(client.serverInfo, IDENTITY);
    assert.deepEqual(client.capabilities, {tools: {}});
    assert.deepEqual(client.discovery, {
        resultType: 'complete',
        _meta: META,
        supportedVersions: ['2026-07-28', '2025-11-25'],
        capabilities: {tools: {}},
        ttlMs: 300000,
        cacheScope: 'public',
    });
    assert.deepEqual(await client.callTool('echo', {text: 'hi'}), {
        resultType: 'complete',
        _meta: META,
        content: [{type: 'text', text: '{"text":"hi"}'}],
    });
    assert.deepEqual(
        (await client.listTools()).map((tool) => tool.name),
        ['echo'],
    );
    await client.close();
});

test("'auto' against a legacy-only server falls back to initialize", GUARD, async () => {
    const client = await connect('legacy', {versionNegotiation: 'auto'});
    assert.equal(client.era, 'legacy');
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.equal(client.discovery, undefined);
    assert.deepEqual(client.serverInfo, IDENTITY);
    assert.deepEqual(await client.callTool('echo', {text: 'hi'}), {
        content: [{type: 'text', text: '{"text":"hi"}'}],
    });
    await client.close();
});

test("'2026-07-28' against a modern-only server", GUARD, async () => {
    const client = await connect('modern', {versionNegotiation: '2026-07-28'});
    assert.equal(client.era, 'modern');
    assert.equal(client.protocolVersion, '2026-07-28');
    assert.deepEqual(client.serverInfo, IDENTITY);
    assert.equal((await client.callTool('echo', {})).resultType, 'complete');
    await client.close();
});

test("'auto' against a modern-only server speaks 2026-07-28", GUARD, async () => {
    const client = await connect('modern', {versionNegotiation: 'auto'});
    assert.equal(client.era, 'modern');
    await client.close();
});

test("'2026-07-28' against a legacy-only server rejects and leaves nothing running", GUARD, async () => {
    await assert.rejects(connect('legacy', {versionNegotiation: '2026-07-28'}), (error: unknown) => {
        assert.ok(error instanceof McpConnectionError);
        assert.equal(
            error.message,
            'The MCP server does not serve 2026-07-28: it answered server/discover with error -32601 ' +
                '("Method not found: \\"server/discover\\""). ' +
                "Connect with versionNegotiation 'auto' or 'legacy' to use its initialize handshake.",
        );
        return true;
    });
});

test('the default stays legacy against a dual-era server: no probe', GUARD, async () => {
    const client = await connect('dual');
    assert.equal(client.era, 'legacy');
    assert.equal(client.protocolVersion, '2025-11-25');
    await client.close();
});

test('the era options are checked at the call site', () => {
    const base = {command: process.execPath};
    assert.throws(() => connectMcpClient({...base, versionNegotiation: 'modern' as never}), {
        name: 'RangeError',
        message:
            "connectMcpClient: versionNegotiation is the string \"modern\"; give 'legacy' (initialize only), 'auto' " +
            "(probe server/discover, fall back to initialize) or '2026-07-28' (that revision only)",
    });
    assert.throws(() => connectMcpClient({...base, discoverTimeoutMs: 0}), {name: 'RangeError'});
    assert.throws(() => connectMcpClient({...base, maxInputRounds: 1001}), {name: 'RangeError'});
    assert.throws(() => connectMcpClient({...base, handlers: {sampling: 1 as never}}), {
        name: 'TypeError',
        message: 'connectMcpClient: handlers.sampling must be a function, got number 1',
    });
    assert.throws(() => connectMcpClient({...base, handlers: {tasks: () => ({})} as never}), {
        name: 'TypeError',
        message:
            'connectMcpClient: handlers.tasks is not a handler this client takes (elicitation, sampling, roots)',
    });
    assert.throws(() => connectMcpClient({...base, handlers: {elicitation: {forms: () => ({})}} as never}), {
        name: 'TypeError',
    });
});
