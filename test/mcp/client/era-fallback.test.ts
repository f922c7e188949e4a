/**
 * The probe's outcomes over stdio, against the raw fake server: which answers mean a modern
 * server, which mean a legacy one (never one error code), and what each era then sends.
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {McpConnectionError, McpRemoteError} from '../../../lib/mcp/client/index.js';
import type {Action} from './fixtures/fake-server.js';
import {closeAll, connectFake, GUARD, INITIALIZE_LINE, INITIALIZED_LINE, startFake} from './support.js';

afterEach(closeAll);

const ENVELOPE =
    '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' +
    '"io.modelcontextprotocol/clientCapabilities":{},' +
    '"io.modelcontextprotocol/clientInfo":{"name":"arcane-os","version":"0.1.0"}}';
const DISCOVER_LINE = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{${ENVELOPE}}}`;
const INITIALIZE_AFTER_PROBE = INITIALIZE_LINE.replace('"id":1', '"id":2');
const DISCOVERY = {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: {tools: {}},
    _meta: {'io.modelcontextprotocol/serverInfo': {name: 'modern-fake', version: '3.0.0'}},
    ttlMs: 0,
    cacheScope: 'private',
};

function discover(...actions: Action[]) {
    return {script: {'server/discover': actions}};
}

for (const [what, error] of [
    ['-32601', {code: -32601, message: 'Method not found'}],
    ['-32602', {code: -32602, message: 'Invalid params'}],
    ['-32600 before initialize', {code: -32600, message: 'Server not initialized'}],
    ['an implementation-defined -32000', {code: -32000, message: 'Bad Request'}],
] as const) {
    test(`'auto' falls back to initialize when the probe is refused with ${what}`, GUARD, async () => {
        const {client, wire} = await connectFake(discover({error}), {versionNegotiation: 'auto'});
        assert.equal(client.era, 'legacy');
        assert.equal(client.protocolVersion, '2025-11-25');
        assert.deepEqual(await wire.receivedCount(3), [
            DISCOVER_LINE,
            INITIALIZE_AFTER_PROBE,
            INITIALIZED_LINE,
        ]);
        await client.close();
    });
}

test("'auto' falls back when the probe gets no answer within discoverTimeoutMs", GUARD, async () => {
    const {client, wire} = await connectFake(discover({silent: true}), {
        versionNegotiation: 'auto',
        discoverTimeoutMs: 50,
    });
    assert.equal(client.era, 'legacy');
    // The probe is given up without a cancellation: the server never saw an initialize to cancel it under.
    assert.deepEqual(await wire.receivedCount(3), [DISCOVER_LINE, INITIALIZE_AFTER_PROBE, INITIALIZED_LINE]);
    await client.close();
});

test("'auto' falls back when the probe's result is not a DiscoverResult", GUARD, async () => {
    const {client} = await connectFake(discover({result: {}}), {versionNegotiation: 'auto'});
    assert.equal(client.era, 'legacy');
    await client.close();
});

test('a DiscoverResult means modern: no initialize, and the envelope on every request', GUARD, async () => {
    const {client, wire} = await connectFake(discover({result: DISCOVERY}), {versionNegotiation: 'auto'});
    assert.equal(client.era, 'modern');
    assert.deepEqual(client.serverInfo, {name: 'modern-fake', version: '3.0.0'});
    assert.deepEqual(client.capabilities, {tools: {}});
    assert.deepEqual(client.discovery, DISCOVERY);
    await client.callTool('t', {a: 1});
    assert.deepEqual(await wire.receivedCount(2), [
        DISCOVER_LINE,
        `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"a":1},${ENVELOPE}}}`,
    ]);
    await client.close();
});

test('a modern server without an identity gets the empty one', GUARD, async () => {
    const {_meta, ...anonymous} = DISCOVERY;
    const {client} = await connectFake(discover({result: anonymous}), {versionNegotiation: '2026-07-28'});
    assert.deepEqual(client.serverInfo, {name: '', version: ''});
    await client.close();
});

test(
    'an unsupported-revision refusal means modern: no fall back, and the revisions it serves named',
    GUARD,
    async () => {
        const refusal = {
            error: {
                code: -32022,
                message: 'Unsupported',
                data: {supported: ['2027-01-01'], requested: '2026-07-28'},
            },
        };
        const {connecting, wire} = startFake(discover(refusal), {versionNegotiation: 'auto'});
        await assert.rejects(connecting, (error: unknown) => {
            assert.ok(error instanceof McpConnectionError);
            assert.equal(
                error.message,
                'The MCP server serves the modern era but not 2026-07-28 (it serves 2027-01-01); this client speaks no other modern revision',
            );
            assert.ok(error.cause instanceof McpRemoteError);
            return true;
        });
        assert.deepEqual(wire.received(), [DISCOVER_LINE]);
    },
);

test('a refusal that lists 2026-07-28 as supported is answered by probing once more', GUARD, async () => {
    const refusal = {
        error: {code: -32022, message: 'Unsupported', data: {supported: ['2026-07-28'], requested: 'x'}},
    };
    const {client, wire} = await connectFake(discover(refusal, {result: DISCOVERY}), {
        versionNegotiation: 'auto',
    });
    assert.equal(client.era, 'modern');
    assert.deepEqual(await wire.receivedCount(2), [DISCOVER_LINE, DISCOVER_LINE.replace('"id":1', '"id":2')]);
    await client.close();
});

test(
    'a header-mismatch or missing-capability error means modern: it rejects, no fall back',
    GUARD,
    async () => {
        for (const code of [-32020, -32021]) {
            const {connecting, wire} = startFake(discover({error: {code, message: 'no'}}), {
                versionNegotiation: 'auto',
            });
            await assert.rejects(connecting, {name: 'McpRemoteError', code, message: 'no'});
            assert.deepEqual(wire.received(), [DISCOVER_LINE]);
        }
    },
);

test("'2026-07-28' does not fall back when the server answers as a legacy one", GUARD, async () => {
    const {connecting, wire} = startFake(discover({silent: true}), {
        versionNegotiation: '2026-07-28',
        initializeTimeoutMs: 50,
    });
    await assert.rejects(connecting, {
        name: 'McpConnectionError',
        message:
            'The MCP server does not serve 2026-07-28: it did not answer server/discover within 50 ms. ' +
            "Connect with versionNegotiation 'auto' or 'legacy' to use its initialize handshake.",
    });
    assert.deepEqual(wire.received(), [DISCOVER_LINE]);
});

test('a modern call given up over stdio is cancelled by notification', GUARD, async () => {
    const {client, wire} = await connectFake(
        {script: {'server/discover': [{result: DISCOVERY}], 'tools/call': [{silent: true}]}},
        {versionNegotiation: '2026-07-28'},
    );
    const controller = new AbortController();
    const calling = client.callTool('t', {}, {signal: controller.signal});
    await wire.receivedLine('tools/call');
    controller.abort(new Error('enough'));
    await assert.rejects(calling, {message: 'enough'});
    assert.equal(
        await wire.receivedLine('notifications/cancelled'),
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"The client aborted the request"}}',
    );
    await client.close();
});

test(
    'an unsupported-revision refusal that names only legacy revisions is followed to initialize',
    GUARD,
    async () => {
        const refusal = {
            error: {
                code: -32022,
                message: 'Unsupported',
                data: {supported: ['2025-11-25'], requested: '2026-07-28'},
            },
        };
        const {client, wire} = await connectFake(discover(refusal), {versionNegotiation: 'auto'});
        assert.equal(client.era, 'legacy');
        assert.deepEqual(await wire.receivedCount(3), [
            DISCOVER_LINE,
            INITIALIZE_AFTER_PROBE,
            INITIALIZED_LINE,
        ]);
        await client.close();
        const pinned = startFake(discover(refusal), {versionNegotiation: '2026-07-28'});
        await assert.rejects(pinned.connecting, {
            name: 'McpConnectionError',
            message:
                'The MCP server does not serve 2026-07-28: it serves 2025-11-25, which this client reaches by initialize. ' +
                "Connect with versionNegotiation 'auto' or 'legacy' to use its initialize handshake.",
        });
    },
);
