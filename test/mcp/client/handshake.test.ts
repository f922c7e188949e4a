/** The initialize handshake over stdio, against the fake server: the bytes, the checks, the cleanup. */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {
    McpConnectionError,
    McpProtocolViolationError,
    McpRemoteError,
    McpTimeoutError,
} from '../../../lib/mcp/client/index.js';
import {
    assertGone,
    closeAll,
    connectFake,
    GUARD,
    INITIALIZE_LINE,
    INITIALIZED_LINE,
    startFake,
} from './support.js';

afterEach(closeAll);

function initializeResult(result: object) {
    return {script: {initialize: [{result}]}};
}

const SERVER_INFO = {name: 'fake', version: '1.0.0'};

test('the handshake sends initialize, then notifications/initialized, exactly', GUARD, async () => {
    const {client, wire, pid} = await connectFake();
    await wire.receivedLine('notifications/initialized');
    assert.deepEqual(wire.received(), [INITIALIZE_LINE, INITIALIZED_LINE]);
    assert.deepEqual(client.serverInfo, SERVER_INFO);
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.deepEqual(client.capabilities, {tools: {}, resources: {}});
    assert.equal(client.instructions, undefined);
    await client.close();
    assertGone(pid);
});

test('the handshake keeps what the server said about itself, as it said it', GUARD, async () => {
    const result = {
        protocolVersion: '2024-11-05',
        capabilities: {tools: {listChanged: true}, experimental: {x: 1}},
        serverInfo: {name: 'old', version: '0.0.1', title: 'An old server'},
        instructions: 'Be kind.',
    };
    const {client} = await connectFake(initializeResult(result));
    assert.equal(client.protocolVersion, '2024-11-05');
    assert.deepEqual(client.capabilities, result.capabilities);
    assert.deepEqual(client.serverInfo, result.serverInfo);
    assert.equal(client.instructions, 'Be kind.');
    await client.close();
});

test('clientInfo and the proposed revision can be chosen', GUARD, async () => {
    const clientInfo = {name: 'my-core', version: '3.1.4', title: 'My core'};
    const {client, wire} = await connectFake({}, {clientInfo, protocolVersion: '2025-03-26'});
    assert.equal(
        (await wire.receivedCount(1))[0],
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",' +
            '"capabilities":{},"clientInfo":{"name":"my-core","version":"3.1.4","title":"My core"}}}',
    );
    assert.equal(client.protocolVersion, '2025-03-26');
    await client.close();
});

test('the clientInfo sent is a copy taken at connect', GUARD, async () => {
    const clientInfo = {name: 'my-core', version: '1.0.0'};
    const {connecting, wire} = startFake({}, {clientInfo});
    clientInfo.name = 'changed';
    const client = await connecting;
    assert.match(
        (await wire.receivedCount(1))[0] as string,
        /"clientInfo":\{"name":"my-core","version":"1.0.0"\}/,
    );
    await client.close();
});

/** Each case: an initialize outcome the client must refuse, and the error it must give. */
const REFUSED: [string, object, (error: unknown) => boolean][] = [
    [
        'a JSON-RPC error',
        {
            script: {
                initialize: [{error: {code: -32602, message: 'Unsupported protocol version', data: {x: 1}}}],
            },
        },
        (error) =>
            error instanceof McpRemoteError &&
            error.code === -32602 &&
            error.message === 'Unsupported protocol version' &&
            error.method === 'initialize' &&
            JSON.stringify(error.data) === '{"x":1}',
    ],
    [
        'a revision the client does not speak',
        initializeResult({protocolVersion: '2099-01-01', capabilities: {}, serverInfo: SERVER_INFO}),
        (error) =>
            error instanceof McpProtocolViolationError &&
            error.message ===
                'The MCP server chose protocol revision "2099-01-01", which this client does not speak; ' +
                    'it speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05',
    ],
    [
        'an empty revision',
        initializeResult({protocolVersion: '', capabilities: {}, serverInfo: SERVER_INFO}),
        (error) =>
            error instanceof McpProtocolViolationError &&
            error.message === 'The MCP server\'s initialize result has no "protocolVersion" string',
    ],
    [
        'a result that is not an object',
        initializeResult([]),
        (error) =>
            error instanceof McpProtocolViolationError &&
            error.message === "The MCP server's initialize result is not an object",
    ],
    [
        'no capabilities',
        initializeResult({protocolVersion: '2025-11-25', serverInfo: SERVER_INFO}),
        (error) =>
            error instanceof McpProtocolViolationError &&
            error.message === 'The MCP server\'s initialize result has no "capabilities" object',
    ],
    [
        'a serverInfo without a version',
        initializeResult({protocolVersion: '2025-11-25', capabilities: {}, serverInfo: {name: 'x'}}),
        (error) =>
            error instanceof McpProtocolViolationError &&
            error.message ===
                'The MCP server\'s initialize result has no "serverInfo" with "name" and "version" strings',
    ],
    [
        'instructions that are not a string',
        initializeResult({
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: SERVER_INFO,
            instructions: 7,
        }),
        (error) =>
            error instanceof McpProtocolViolationError &&
            error.message === 'The MCP server\'s initialize result has "instructions" that are not a string',
    ],
    [
        'the server exiting',
        {script: {initialize: [{exit: 4}]}},
        (error) =>
            error instanceof McpConnectionError &&
            error.message.startsWith('The MCP server process (') &&
            error.message.endsWith(') exited with code 4; its stderr may say why'),
    ],
];

for (const [what, config, check] of REFUSED) {
    test(`an initialize answered with ${what} fails connecting and ends the child`, GUARD, async () => {
        const {connecting, wire} = startFake(config);
        await assert.rejects(connecting, check);
        assertGone(await wire.pid());
        assert.equal(wire.received().includes(INITIALIZED_LINE), false);
    });
}

test('an unanswered initialize times out, is not cancelled, and ends the child', GUARD, async () => {
    const {connecting, wire} = startFake({script: {initialize: [{silent: true}]}}, {initializeTimeoutMs: 50});
    await assert.rejects(connecting, (error) => {
        assert.ok(error instanceof McpTimeoutError);
        assert.equal(error.method, 'initialize');
        assert.equal(error.timeoutMs, 50);
        return true;
    });
    assertGone(await wire.pid());
    assert.deepEqual(wire.received(), [INITIALIZE_LINE]);
});

test('aborting connect rejects with the signal reason and ends the child', GUARD, async () => {
    const controller = new AbortController();
    const reason = new Error('changed my mind');
    const {connecting, wire} = startFake(
        {script: {initialize: [{silent: true}]}},
        {signal: controller.signal},
    );
    await wire.receivedLine('"initialize"');
    controller.abort(reason);
    await assert.rejects(connecting, (error) => error === reason);
    assertGone(await wire.pid());
});

test('an already aborted signal sends nothing and ends the child', GUARD, async () => {
    const reason = new Error('too late');
    const {connecting, wire} = startFake({}, {signal: AbortSignal.abort(reason)});
    await assert.rejects(connecting, (error) => error === reason);
    assertGone(await wire.pid());
    assert.deepEqual(wire.received(), []);
});
