/**
 * The session over an in-memory transport: what a transport other than stdio may do (a send that
 * rejects, a loss reported with a plain Error) and how the session answers it.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {JsonObject} from '../../../lib/jsonrpc/records.js';
import type {McpProtocolErrorEvent} from '../../../lib/mcp/client/index.js';
import {McpConnectionError, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import type {McpClient, SessionSettings} from '../../../lib/mcp/client/session.js';
import {openSession} from '../../../lib/mcp/client/session.js';
import type {ClientTransport, SendOptions, TransportHandlers} from '../../../lib/mcp/client/transport.js';
import {deferred} from '../../helpers/deferred.js';

interface Sent {
    message: JsonObject;
    options: SendOptions | undefined;
}

/** Answers initialize itself; every other message is kept for the test, which decides. */
class MemoryTransport implements ClientTransport {
    handlers!: TransportHandlers;
    readonly sent: Sent[] = [];
    negotiatedVersion: string | undefined;
    closeCount = 0;
    /** Makes the next send of this method reject with this error. */
    failing = new Map<string, Error>();
    #waiters: (() => void)[] = [];

    async start(handlers: TransportHandlers): Promise<void> {
        this.handlers = handlers;
    }

    send(message: JsonObject, options?: SendOptions): Promise<void> {
        this.sent.push({message, options});
        for (const wake of this.#waiters.splice(0)) wake();
        const method = typeof message.method === 'string' ? message.method : 'response';
        const failure = this.failing.get(method);
        if (failure !== undefined) return Promise.reject(failure);
        if (method === 'initialize') {
            queueMicrotask(() =>
                this.handlers.message({
                    jsonrpc: '2.0',
                    id: message.id,
                    result: {
                        protocolVersion: '2025-06-18',
                        capabilities: {},
                        serverInfo: {name: 'm', version: '1'},
                    },
                }),
            );
        }
        return Promise.resolve();
    }

    negotiated(protocolVersion: string): void {
        this.negotiatedVersion = protocolVersion;
    }

    close(): Promise<void> {
        this.closeCount += 1;
        return Promise.resolve();
    }

    async sentCount(count: number): Promise<Sent[]> {
        while (this.sent.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
        return this.sent;
    }
}

const SETTINGS = {
    clientInfo: {name: 't', version: '1'},
    protocolVersion: '2025-11-25',
    initializeTimeoutMs: 1000,
    listTimeoutMs: 1000,
    callTimeoutMs: 1000,
    signal: undefined,
    strict: false,
    onProtocolError: undefined,
};

async function open(
    settings: Partial<SessionSettings> = {},
): Promise<{client: McpClient; transport: MemoryTransport}> {
    const transport = new MemoryTransport();
    const client = await openSession(transport, {...SETTINGS, ...settings});
    return {client, transport};
}

test('the transport is told the negotiated revision before notifications/initialized is sent', async () => {
    const {client, transport} = await open();
    assert.equal(transport.negotiatedVersion, '2025-06-18');
    assert.deepEqual(transport.sent[1]?.message, {jsonrpc: '2.0', method: 'notifications/initialized'});
    await client.close();
});

test('each request is sent with its id and a signal that aborts when it is given up', async () => {
    const {client, transport} = await open();
    const controller = new AbortController();
    const call = client.callTool('t', {}, {signal: controller.signal});
    const [, , sent] = await transport.sentCount(3);
    assert.equal(sent?.options?.requestId, 2);
    assert.equal(sent?.options?.signal?.aborted, false);
    const reason = new Error('stop');
    controller.abort(reason);
    await assert.rejects(call, (error) => error === reason);
    assert.equal(sent?.options?.signal?.aborted, true);
    assert.equal(sent?.options?.signal?.reason, reason);
    await client.close();
});

test('a request whose send rejects fails with a connection error; the session goes on', async () => {
    const {client, transport} = await open();
    const refused = new Error('HTTP 503');
    transport.failing.set('tools/call', refused);
    await assert.rejects(client.callTool('t'), (error) => {
        assert.ok(error instanceof McpConnectionError);
        assert.equal(error.message, 'Could not send tools/call to the MCP server: HTTP 503');
        assert.equal(error.cause, refused);
        return true;
    });
    transport.failing.clear();
    const listing = client.listTools();
    const sent = await transport.sentCount(4);
    transport.handlers.message({jsonrpc: '2.0', id: sent[3]?.message.id, result: {tools: []}});
    assert.deepEqual(await listing, []);
    await client.close();
});

test('a send that rejects after its request was given up changes nothing', async () => {
    const {client, transport} = await open();
    const gate = deferred<void>();
    transport.send = function (this: MemoryTransport, message, options) {
        this.sent.push({message, options});
        return message.method === 'tools/call'
            ? gate.promise.then(() => {
                  throw new Error('aborted exchange');
              })
            : Promise.resolve();
    };
    const controller = new AbortController();
    const call = client.callTool('t', {}, {signal: controller.signal});
    controller.abort('why');
    await assert.rejects(call, (error) => error === 'why');
    gate.resolve();
    await gate.promise;
    assert.deepEqual(transport.sent.at(-1)?.message, {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: {requestId: 2, reason: 'The client aborted the request'},
    });
    await client.close();
});

test('a notification that cannot be sent ends the session', async () => {
    const {client, transport} = await open();
    const broken = new Error('socket hang up');
    transport.failing.set('notifications/cancelled', broken);
    const first = client.callTool('a', {}, {timeoutMs: 1});
    await assert.rejects(first, {name: 'McpTimeoutError'});
    await assert.rejects(client.callTool('b'), (error) => {
        assert.ok(error instanceof McpConnectionError);
        assert.equal(
            error.message,
            'Cannot send tools/call: Could not send notifications/cancelled to the MCP server: socket hang up',
        );
        return true;
    });
    assert.equal(transport.closeCount, 1);
});

test("an answer to the server's request that cannot be sent ends the session", async () => {
    const {client, transport} = await open();
    transport.failing.set('response', new Error('gone'));
    const call = client.callTool('a');
    transport.handlers.message({jsonrpc: '2.0', id: 'p', method: 'ping'});
    await assert.rejects(call, {
        name: 'McpConnectionError',
        message: "Could not answer the server's ping: gone",
    });
});

test('a loss reported with a plain Error reaches pending calls as a connection error', async () => {
    const {client, transport} = await open();
    const call = client.callTool('a');
    const lost = new Error('stream reset');
    transport.handlers.closed(lost);
    await assert.rejects(call, (error) => {
        assert.ok(error instanceof McpConnectionError);
        assert.equal(error.message, 'The connection to the MCP server was lost: stream reset');
        assert.equal(error.cause, lost);
        return true;
    });
    assert.equal(transport.closeCount, 1);
    await client.close();
    assert.equal(transport.closeCount, 1);
});

test('a malformed message reported with a plain Error ends the session as a protocol violation', async () => {
    const {client, transport} = await open();
    const call = client.callTool('a');
    const problem = new Error('The SSE event data is not JSON');
    transport.handlers.malformed(problem);
    await assert.rejects(call, (error) => {
        assert.ok(error instanceof McpProtocolViolationError);
        assert.equal(error.message, 'The SSE event data is not JSON');
        assert.equal(error.cause, problem);
        return true;
    });
});

test('closed(undefined), the transport closing as asked, fails nothing', async () => {
    const {client, transport} = await open();
    transport.handlers.closed(undefined);
    const call = client.callTool('a');
    const [, , sent] = await transport.sentCount(3);
    transport.handlers.message({jsonrpc: '2.0', id: sent?.message.id, result: {content: []}});
    assert.deepEqual(await call, {content: []});
    await client.close();
});

test('strict: a non-object message is an invalid message that ends the session', async () => {
    const {client, transport} = await open({strict: true});
    const call = client.callTool('a');
    transport.handlers.message([{jsonrpc: '2.0', id: 2, result: {}}]);
    await assert.rejects(call, {
        name: 'McpProtocolViolationError',
        message:
            'The MCP server sent an invalid message: JSON-RPC batches are not supported: send each request as its own line',
    });
    // After the end, messages are ignored.
    transport.handlers.message({jsonrpc: '2.0', id: 2, result: {}});
    await client.close();
});

test('by default: a non-object message is told and skipped, and the call is still answered', async () => {
    const events: McpProtocolErrorEvent[] = [];
    const {client, transport} = await open({onProtocolError: (event) => events.push(event)});
    const call = client.callTool('a');
    transport.handlers.message([{jsonrpc: '2.0', id: 2, result: {}}]);
    assert.deepEqual(events, [
        {
            kind: 'not-json-rpc',
            message:
                'The MCP server sent an invalid message: JSON-RPC batches are not supported: send each request as its own line',
            text: '[{"jsonrpc":"2.0","id":2,"result":{}}]',
        },
    ]);
    const [, , sent] = await transport.sentCount(3);
    transport.handlers.message({jsonrpc: '2.0', id: sent?.message.id, result: {content: []}});
    assert.deepEqual(await call, {content: []});
    await client.close();
    // Once the session is closed, nothing more is told.
    transport.handlers.message(7);
    transport.handlers.stray({kind: 'not-json', error: new Error('late'), text: 'late'});
    assert.equal(events.length, 1);
});

test('strict: a stray problem reported with a plain Error ends the session as a protocol violation', async () => {
    const events: McpProtocolErrorEvent[] = [];
    const {client, transport} = await open({strict: true, onProtocolError: (event) => events.push(event)});
    const call = client.callTool('a');
    const problem = new Error('an SSE event is not JSON: "x"');
    transport.handlers.stray({kind: 'not-json', error: problem, text: 'x'});
    await assert.rejects(call, (error) => {
        assert.ok(error instanceof McpProtocolViolationError);
        assert.equal(error.message, 'an SSE event is not JSON: "x"');
        assert.equal(error.cause, problem);
        return true;
    });
    // Strict mode tells the callback too, before the session ends.
    assert.deepEqual(events, [{kind: 'not-json', message: 'an SSE event is not JSON: "x"', text: 'x'}]);
});

test('a send that throws instead of rejecting fails its request the same way', async () => {
    const {client, transport} = await open();
    const thrown = new TypeError('cannot carry this');
    transport.send = (message) => {
        if (message.method === 'tools/call') throw thrown;
        return Promise.resolve();
    };
    await assert.rejects(client.callTool('t', {}, {timeoutMs: Number.POSITIVE_INFINITY}), {
        name: 'McpConnectionError',
        message: 'Could not send tools/call to the MCP server: cannot carry this',
        cause: thrown,
    });
    await client.close();
});
