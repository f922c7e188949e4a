/**
 * Our client against the official SDK 1.x server over Streamable HTTP: its `Server` with a
 * sessionful `StreamableHTTPServerTransport` on node:http, on loopback, with an event store so
 * that its streams are resumable. Covers the handshake, paging, calls, progress, a stream the
 * server closes early (resumed by GET with Last-Event-ID), cancellation reaching the handler, the
 * standalone GET stream carrying a server ping, and DELETE ending the session.
 */
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {once} from 'node:events';
import type {IncomingMessage, ServerResponse} from 'node:http';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {after, before, test} from 'node:test';
import {Server} from '@modelcontextprotocol/sdk/server/index.js';
import type {EventStore} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';
import {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js';
import type {McpClient, Progress} from '../../../lib/mcp/client/index.js';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import {deferred} from '../../helpers/deferred.js';

/** Turns a hang into a failure; nothing here should come near it. */
const GUARD = {timeout: 30_000};

const TOOLS = [
    {
        name: 'echo',
        description: 'Says it back.',
        inputSchema: {type: 'object', properties: {text: {type: 'string'}}},
    },
    {name: 'fail', inputSchema: {type: 'object'}},
    {name: 'poll', description: 'Closes its stream before it answers.', inputSchema: {type: 'object'}},
    {name: 'wait', inputSchema: {type: 'object'}},
];

/** What the test learns from the server side. */
const events = {
    cancelled: deferred<string>(),
    waitStarted: deferred(),
    sessionClosed: deferred<string>(),
    getStreamOpen: deferred(),
};
const servers = new Map<string, {server: Server; transport: StreamableHTTPServerTransport}>();
const requests: {
    method: string;
    session: string | undefined;
    version: string | undefined;
    lastEventId: string | undefined;
}[] = [];

/**
 * An event store that keeps events in the order they were stored. (The SDK's example store orders
 * ids made of a millisecond clock and a random suffix, so two events of one millisecond can be
 * replayed out of order, or not at all.)
 */
class OrderedEventStore implements EventStore {
    readonly #events: {id: string; streamId: string; message: JSONRPCMessage}[] = [];

    async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
        const id = `${streamId}#${this.#events.length}`;
        this.#events.push({id, streamId, message});
        return id;
    }

    async replayEventsAfter(
        lastEventId: string,
        {send}: {send: (eventId: string, message: JSONRPCMessage) => Promise<void>},
    ): Promise<string> {
        const index = this.#events.findIndex((event) => event.id === lastEventId);
        const streamId = this.#events[index]?.streamId ?? '';
        for (const event of this.#events.slice(index + 1)) {
            if (event.streamId === streamId) await send(event.id, event.message);
        }
        return streamId;
    }
}

function mcpServer(): Server {
    const server = new Server({name: 'sdk-v1-http', version: '1.0.0'}, {capabilities: {tools: {}}});
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
        // Two pages, to exercise nextCursor against a real server.
        if (request.params?.cursor === undefined) return {tools: TOOLS.slice(0, 2), nextCursor: 'second'};
        return {tools: TOOLS.slice(2)};
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
        const {name, arguments: args} = request.params;
        if (name === 'echo') {
            const token = request.params._meta?.progressToken;
            if (token !== undefined) {
                await extra.sendNotification({
                    method: 'notifications/progress',
                    params: {progressToken: token, progress: 1, total: 2, message: 'half'},
                });
            }
            return {content: [{type: 'text', text: String(args?.text)}]};
        }
        if (name === 'poll') {
            extra.closeSSEStream?.();
            return {content: [{type: 'text', text: 'answered after the stream was closed'}]};
        }
        if (name === 'wait') {
            events.waitStarted.resolve();
            await new Promise<void>((resolve) => {
                extra.signal.addEventListener('abort', () => resolve(), {once: true});
            });
            events.cancelled.resolve(String(extra.signal.reason));
            return {content: []};
        }
        return {content: [{type: 'text', text: 'no such luck'}], isError: true};
    });
    return server;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = req.headers['mcp-session-id'] as string | undefined;
    requests.push({
        method: req.method ?? '',
        session,
        version: req.headers['mcp-protocol-version'] as string | undefined,
        lastEventId: req.headers['last-event-id'] as string | undefined,
    });
    if (req.method === 'GET') {
        const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
        res.writeHead = ((...args: unknown[]) => {
            const result = writeHead(...args);
            events.getStreamOpen.resolve();
            return result;
        }) as typeof res.writeHead;
    }
    const existing = session === undefined ? undefined : servers.get(session);
    if (existing !== undefined) {
        await existing.transport.handleRequest(req, res);
        return;
    }
    const server = mcpServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new OrderedEventStore(),
        retryInterval: 0,
        onsessioninitialized: (id) => {
            servers.set(id, {server, transport});
        },
        onsessionclosed: (id) => {
            servers.delete(id);
            events.sessionClosed.resolve(id);
        },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
}

const http = createServer((req, res) => {
    void handle(req, res);
});
let client: McpClient;
let url: string;

before(async () => {
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    client = await connectMcpClient({url, listen: true, reconnect: {initialDelayMs: 0}});
});

after(async () => {
    await client.close();
    for (const {server} of servers.values()) await server.close();
    http.closeAllConnections();
    http.close();
});

test(
    'SDK 1.x server: the handshake gives its info and the session it issued goes with each request',
    GUARD,
    async () => {
        assert.deepEqual(client.serverInfo, {name: 'sdk-v1-http', version: '1.0.0'});
        assert.equal(client.protocolVersion, '2025-11-25');
        assert.deepEqual(client.capabilities, {tools: {}});
        assert.equal(servers.size, 1);
        const [session] = [...servers.keys()];
        // The GET stream opens once notifications/initialized has been accepted.
        await events.getStreamOpen.promise;
        assert.deepEqual(requests[0], {
            method: 'POST',
            session: undefined,
            version: undefined,
            lastEventId: undefined,
        });
        assert.deepEqual(requests[1], {
            method: 'POST',
            session,
            version: '2025-11-25',
            lastEventId: undefined,
        });
    },
);

test('SDK 1.x server: every page of tools, with each inputSchema as given', GUARD, async () => {
    assert.deepEqual(await client.listTools(), TOOLS);
});

test('SDK 1.x server: a call, its progress, and an error result', GUARD, async () => {
    const progress: Progress[] = [];
    const result = await client.callTool('echo', {text: 'over http'}, {onProgress: (p) => progress.push(p)});
    assert.deepEqual(result, {content: [{type: 'text', text: 'over http'}]});
    assert.deepEqual(progress, [{progress: 1, total: 2, message: 'half'}]);
    assert.deepEqual(await client.callTool('fail', {}), {
        content: [{type: 'text', text: 'no such luck'}],
        isError: true,
    });
});

test(
    'SDK 1.x server: an answer stream the server closes early is resumed by GET with Last-Event-ID',
    GUARD,
    async () => {
        const before = requests.length;
        assert.deepEqual(await client.callTool('poll', {}), {
            content: [{type: 'text', text: 'answered after the stream was closed'}],
        });
        const resumed = requests
            .slice(before)
            .filter((r) => r.method === 'GET' && r.lastEventId !== undefined);
        assert.equal(resumed.length, 1);
    },
);

test(
    'SDK 1.x server: the standalone GET stream carries a ping from the server, which the client answers',
    GUARD,
    async () => {
        await events.getStreamOpen.promise;
        const {server} = [...servers.values()][0] as {server: Server};
        assert.deepEqual(await server.ping(), {});
    },
);

test('SDK 1.x server: an aborted call reaches the handler as a cancellation', GUARD, async () => {
    const controller = new AbortController();
    const call = client.callTool('wait', {}, {signal: controller.signal});
    await events.waitStarted.promise;
    const reason = new Error('stop waiting');
    controller.abort(reason);
    await assert.rejects(call, (e) => e === reason);
    assert.equal(await events.cancelled.promise, 'The client aborted the request');
});

test('SDK 1.x server: close ends the session by DELETE', GUARD, async () => {
    const [session] = [...servers.keys()];
    await client.close();
    assert.equal(await events.sessionClosed.promise, session);
    assert.deepEqual(requests.at(-1), {
        method: 'DELETE',
        session,
        version: '2025-11-25',
        lastEventId: undefined,
    });
    assert.equal(servers.size, 0);
});
