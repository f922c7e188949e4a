import assert from 'node:assert/strict';
import {once} from 'node:events';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {describe, test} from 'node:test';
import type {SessionEndInfo} from '../../../lib/mcp/http/index.js';
import {toNodeListener} from '../../../lib/mcp/http/index.js';
import {
    ENDPOINT,
    errorBody,
    events,
    Gate,
    initializeBody,
    LEGACY,
    MODERN,
    makeHandler,
    modern,
    post,
    read,
    text,
} from './support.js';

async function session(handler: ReturnType<typeof makeHandler>['handler']): Promise<string> {
    return (await handler.fetch(post(initializeBody()))).headers.get('mcp-session-id') as string;
}

const call = (id: string, requestId: number, name = 'wait') =>
    post(
        {jsonrpc: '2.0', id: requestId, method: 'tools/call', params: {name}},
        {'mcp-session-id': id, 'mcp-protocol-version': LEGACY},
    );

describe('HTTP handler edges', () => {
    test('a GET stream its client cancels no longer holds the session open: it expires', async () => {
        let ended!: (info: SessionEndInfo) => void;
        const expired = new Promise<SessionEndInfo>((resolve) => {
            ended = resolve;
        });
        const {handler} = makeHandler(new Gate(), {
            sessionIdleTimeoutMs: 5,
            onSessionEnd: (info) => ended(info),
        });
        const id = await session(handler);
        const stream = await handler.fetch(
            new Request(ENDPOINT, {headers: {'mcp-session-id': id, accept: 'text/event-stream'}}),
        );
        await events(stream).cancel();
        const alive = setInterval(() => {}, 60_000);
        assert.deepEqual(await expired, {sessionId: id, reason: 'expired'});
        clearInterval(alive);
    });

    test('DELETE answers the session requests still in flight 404 and cancels their handlers', async () => {
        const {handler, gate} = makeHandler();
        const id = await session(handler);
        const pending = handler.fetch(call(id, 1));
        await gate.started(1);
        await handler.fetch(new Request(ENDPOINT, {method: 'DELETE', headers: {'mcp-session-id': id}}));
        assert.deepEqual(await read(await pending), [404, null, '']);
        assert.equal(gate.contexts[0]?.signal.reason.message, 'The MCP session ended (deleted)');
        await handler.drain();
    });

    test('close({cancelPending: true}) reaches legacy handlers too', async () => {
        const {handler, gate} = makeHandler();
        const id = await session(handler);
        const pending = handler.fetch(call(id, 1));
        await gate.started(1);
        await handler.close({cancelPending: true});
        assert.equal((await pending).status, 503);
        assert.equal(
            gate.contexts[0]?.signal.reason.message,
            'The MCP server was closed with cancelPending: true',
        );
    });

    test('a modern request that is not valid JSON-RPC is 400 with the reason', async () => {
        const {handler} = makeHandler();
        const bad = post({jsonrpc: '2.0', id: {}, method: 'tools/list'}, {'mcp-protocol-version': MODERN});
        const [status, , body] = await read(await handler.fetch(bad));
        assert.equal(status, 400);
        assert.equal(JSON.parse(body).error.code, -32600);
    });

    test('initialize sent as a notification creates nothing', async () => {
        const {handler} = makeHandler();
        const note = post({jsonrpc: '2.0', method: 'initialize', params: {}});
        assert.deepEqual(await read(await handler.fetch(note)), [
            400,
            'application/json',
            errorBody(undefined, -32600, 'Bad Request: "initialize" must be a request, with an id'),
        ]);
        assert.equal(handler.sessionCount, 0);
    });

    test('a request whose client is gone before it is served is cancelled at once', async () => {
        const {handler, gate} = makeHandler();
        const controller = new AbortController();
        const request = modern(1, 'tools/call', {name: 'wait'}, {}, {signal: controller.signal});
        const reason = new Error('gone early');
        controller.abort(reason);
        assert.equal((await handler.fetch(request)).status, 499);
        assert.equal(gate.contexts[0]?.signal.reason, reason);
        await handler.drain();
    });

    test('a Base64 value that is not UTF-8 is a malformed header', async () => {
        const {handler} = makeHandler();
        const response = await handler.fetch(
            modern(
                1,
                'tools/call',
                {name: 'echo', arguments: {region: 'x'}},
                {'mcp-param-region': '=?base64?/w==?='},
            ),
        );
        assert.deepEqual(await read(response), [
            400,
            'application/json',
            errorBody(1, -32020, 'Header mismatch: the Mcp-Param-Region header value is malformed'),
        ]);
    });

    test('an origin that is not a URL is refused 403', async () => {
        const {handler} = makeHandler();
        const response = await handler.fetch(post(initializeBody(), {origin: 'not a url'}));
        assert.deepEqual(await read(response), [
            403,
            'application/json',
            errorBody(undefined, -32600, 'Forbidden: Origin "not a url" is not a valid origin'),
        ]);
    });

    test('the Node adapter drops an answer whose client left, and ends a connection whose body fails', async () => {
        let left!: () => void;
        const gone = new Promise<void>((resolve) => {
            left = resolve;
        });
        let cancelled = false;
        const listener = toNodeListener({
            fetch: async (request) => {
                if (request.headers.get('x-case') === 'fails') {
                    const body = new ReadableStream({
                        pull: (controller) => controller.error(new Error('broken body')),
                    });
                    return new Response(body);
                }
                await once(request.signal, 'abort');
                left();
                const body = new ReadableStream({
                    cancel: () => {
                        cancelled = true;
                    },
                });
                return new Response(body);
            },
        });
        const server = createServer(listener).listen(0, '127.0.0.1');
        await once(server, 'listening');
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        const controller = new AbortController();
        const abandoned = fetch(url, {signal: controller.signal}).catch(() => 'aborted');
        await new Promise((resolve) => server.once('request', resolve));
        controller.abort();
        assert.equal(await abandoned, 'aborted');
        await gone;
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(cancelled, true);
        await assert.rejects(fetch(url, {headers: {'x-case': 'fails'}}).then((response) => response.text()));
        server.close();
        server.closeAllConnections();
    });

    test('a handler that answers a legacy request before any GET stream drops its notifications', async () => {
        const {handler, gate} = makeHandler();
        const id = await session(handler);
        const steps = post(
            {
                jsonrpc: '2.0',
                id: 5,
                method: 'tools/call',
                params: {name: 'steps', _meta: {progressToken: 'k'}},
            },
            {'mcp-session-id': id, accept: 'application/json'},
        );
        const pending = handler.fetch(steps);
        await gate.started(1);
        gate.release(0, text('plain'));
        assert.equal((await read(await pending))[1], 'application/json');
    });
});
