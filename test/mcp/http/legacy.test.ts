import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {SessionEndInfo} from '../../../lib/mcp/http/index.js';
import {
    ENDPOINT,
    errorBody,
    events,
    Gate,
    initializeBody,
    LEGACY,
    makeHandler,
    post,
    read,
    text,
} from './support.js';

const INIT_RESULT = `{"protocolVersion":"${LEGACY}","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"http-test","version":"1.0.0"}}`;

async function open(handler: ReturnType<typeof makeHandler>['handler']): Promise<string> {
    const response = await handler.fetch(post(initializeBody()));
    assert.equal(response.status, 200);
    assert.equal(await response.text(), `{"jsonrpc":"2.0","id":0,"result":${INIT_RESULT}}\n`);
    const id = response.headers.get('mcp-session-id') as string;
    assert.match(id, /^[A-Za-z0-9_-]{43}$/);
    return id;
}

const inSession = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    post(body, {'mcp-session-id': id, 'mcp-protocol-version': LEGACY, ...headers});

describe('the legacy era over HTTP', () => {
    test('initialize creates a session with a random id that later requests reuse', async () => {
        const {handler} = makeHandler();
        const first = await open(handler);
        const second = await open(handler);
        assert.notEqual(first, second);
        assert.equal(handler.sessionCount, 2);
        const note = await handler.fetch(
            inSession(first, {jsonrpc: '2.0', method: 'notifications/initialized'}),
        );
        assert.deepEqual(await read(note), [202, null, '']);
        const call = await handler.fetch(
            inSession(first, {jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'echo'}}),
        );
        assert.deepEqual(await read(call), [
            200,
            'application/json',
            '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{}"}]}}\n',
        ]);
        // No protocol header: the negotiated revision is assumed.
        const bare = await handler.fetch(
            post({jsonrpc: '2.0', id: 2, method: 'ping'}, {'mcp-session-id': first}),
        );
        assert.deepEqual(await read(bare), [
            200,
            'application/json',
            '{"jsonrpc":"2.0","id":2,"result":{}}\n',
        ]);
    });

    test('a failed initialize creates no session', async () => {
        const {handler} = makeHandler();
        const response = await handler.fetch(post({jsonrpc: '2.0', id: 0, method: 'initialize', params: {}}));
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('mcp-session-id'), null);
        assert.match(await response.text(), /"code":-32602/);
        assert.equal(handler.sessionCount, 0);
    });

    test('an unknown session is 404; a request without a session on a legacy-only server is 400', async () => {
        const {handler} = makeHandler(new Gate(), {protocolVersions: [LEGACY]});
        const unknown = await handler.fetch(inSession('nope', {jsonrpc: '2.0', id: 1, method: 'ping'}));
        assert.deepEqual(await read(unknown), [
            404,
            'application/json',
            errorBody(
                undefined,
                -32600,
                'Session not found: "nope" ended or never existed; send "initialize" without Mcp-Session-Id to start a new one',
            ),
        ]);
        const none = await handler.fetch(post({jsonrpc: '2.0', id: 1, method: 'ping'}));
        assert.deepEqual(await read(none), [
            400,
            'application/json',
            errorBody(
                undefined,
                -32600,
                'Bad Request: Mcp-Session-Id header is required; send "initialize" first to start a session',
            ),
        ]);
    });

    test('MCP-Protocol-Version must be a served legacy revision', async () => {
        const {handler} = makeHandler();
        const id = await open(handler);
        const response = await handler.fetch(
            inSession(id, {jsonrpc: '2.0', id: 1, method: 'ping'}, {'mcp-protocol-version': '2025-06-18'}),
        );
        assert.deepEqual(await read(response), [
            400,
            'application/json',
            errorBody(
                undefined,
                -32600,
                'Bad Request: unsupported MCP-Protocol-Version "2025-06-18"; this server serves 2026-07-28, 2025-11-25',
            ),
        ]);
    });

    test('DELETE ends a session: later requests are 404 and it is reported deleted', async () => {
        const ended: SessionEndInfo[] = [];
        const {handler} = makeHandler(new Gate(), {onSessionEnd: (info) => void ended.push(info)});
        const id = await open(handler);
        const deleted = await handler.fetch(
            new Request(ENDPOINT, {method: 'DELETE', headers: {'mcp-session-id': id}}),
        );
        assert.deepEqual(await read(deleted), [204, null, '']);
        assert.deepEqual(ended, [{sessionId: id, reason: 'deleted'}]);
        assert.equal(handler.sessionCount, 0);
        assert.equal(
            (await handler.fetch(inSession(id, {jsonrpc: '2.0', id: 1, method: 'ping'}))).status,
            404,
        );
        assert.equal(
            (await handler.fetch(new Request(ENDPOINT, {method: 'DELETE', headers: {'mcp-session-id': id}})))
                .status,
            404,
        );
    });

    test('an idle session expires after sessionIdleTimeoutMs, not while a request is in flight', async () => {
        let resolve!: (info: SessionEndInfo) => void;
        const promise = new Promise<SessionEndInfo>((done) => {
            resolve = done;
        });
        const {handler, gate} = makeHandler(new Gate(), {sessionIdleTimeoutMs: 5, onSessionEnd: resolve});
        const id = await open(handler);
        const pending = handler.fetch(
            inSession(id, {jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'wait'}}),
        );
        await gate.started(1);
        gate.release(0, text('late'));
        assert.match((await read(await pending))[2], /"text":"late"/);
        // The idle timer is unref'd, as it must be in a library: this keeps the test's loop alive.
        const alive = setInterval(() => {}, 60_000);
        assert.deepEqual(await promise, {sessionId: id, reason: 'expired'});
        clearInterval(alive);
        assert.equal(handler.sessionCount, 0);
    });

    test('maxSessions refuses a new session 503 with Retry-After rather than end an idle one', async (t) => {
        t.mock.timers.enable({apis: ['Date', 'setTimeout'], now: 1_000_000});
        const ended: SessionEndInfo[] = [];
        const {handler, gate} = makeHandler(new Gate(), {
            maxSessions: 2,
            sessionIdleTimeoutMs: 60_000,
            onSessionEnd: (info) => void ended.push(info),
        });
        const a = await open(handler);
        t.mock.timers.tick(10_000);
        const b = await open(handler);
        const refuse = async (id: number, seconds: number) =>
            assert.deepEqual(await read(await handler.fetch(post(initializeBody(id)))), [
                503,
                'application/json',
                errorBody(
                    id,
                    -32603,
                    `Too many sessions: all 2 are in use (maxSessions) and none has been idle for the idle timeout; retry in ${seconds} s`,
                ),
            ]);
        // Both idle: the first to expire is a, 50 s from now.
        await refuse(7, 50);
        const refused = await handler.fetch(post(initializeBody(8)));
        assert.equal(refused.headers.get('retry-after'), '50');
        await refused.text();
        // A request restarts a's clock: b now expires first, 58.5 s from now, rounded up.
        t.mock.timers.tick(1_500);
        await (await handler.fetch(inSession(a, {jsonrpc: '2.0', id: 1, method: 'ping'}))).text();
        await refuse(9, 59);
        // Every session busy: one that turns idle now expires after a full timeout.
        const busyA = handler.fetch(
            inSession(a, {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'wait'}}),
        );
        const busyB = handler.fetch(
            inSession(b, {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'wait'}}),
        );
        await gate.started(2);
        await refuse(10, 60);
        gate.release(0, text('a'));
        gate.release(1, text('b'));
        await Promise.all([busyA, busyB]);
        assert.deepEqual(ended, []);
        assert.equal(handler.sessionCount, 2);
        await handler.close();
    });

    test('at maxSessions, a session idle past its timeout whose timer has not run yet makes room', async (t) => {
        t.mock.timers.enable({apis: ['Date'], now: 5_000_000});
        const ended: SessionEndInfo[] = [];
        const {handler} = makeHandler(new Gate(), {
            maxSessions: 1,
            sessionIdleTimeoutMs: 1_000,
            onSessionEnd: (info) => void ended.push(info),
        });
        const a = await open(handler);
        // The clock moves on, and the unref'd real timer has had no turn yet.
        t.mock.timers.setTime(5_001_000);
        const b = await open(handler);
        assert.deepEqual(ended, [{sessionId: a, reason: 'expired'}]);
        assert.equal(handler.sessionCount, 1);
        await handler.close();
        assert.deepEqual(ended.at(-1), {sessionId: b, reason: 'closed'});
    });

    test('answers as SSE when progress comes first, routed by token to its own request', async () => {
        const {handler, gate} = makeHandler();
        const id = await open(handler);
        const body = {
            jsonrpc: '2.0',
            id: 'x',
            method: 'tools/call',
            params: {name: 'steps', _meta: {progressToken: 't'}},
        };
        const response = await handler.fetch(inSession(id, body));
        assert.equal(response.headers.get('content-type'), 'text/event-stream');
        const stream = events(response);
        assert.equal(
            await stream.next(),
            'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"total":2}}',
        );
        await gate.started(1);
        gate.release(0, text('ok'));
        assert.equal(
            await stream.next(),
            'event: message\ndata: {"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"ok"}]}}',
        );
        assert.equal(await stream.next(), undefined);
    });

    test('an id still in flight is refused; notifications/cancelled cancels and ends its POST', async () => {
        const {handler, gate} = makeHandler();
        const id = await open(handler);
        const body = {jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'wait'}};
        const pending = handler.fetch(inSession(id, body));
        await gate.started(1);
        const twice = await handler.fetch(inSession(id, body));
        assert.deepEqual(await read(twice), [
            400,
            'application/json',
            errorBody(
                1,
                -32600,
                'Request id 1 is already in use by a request in progress; use a new id for each request',
            ),
        ]);
        const cancel = {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: {requestId: 1, reason: 'stop'},
        };
        assert.equal((await handler.fetch(inSession(id, cancel))).status, 202);
        assert.equal(gate.contexts[0]?.signal.reason, 'stop');
        assert.deepEqual(await read(await pending), [204, null, '']);
        await handler.drain();
    });

    test('a client that goes away does not cancel a legacy handler; its answer is dropped', async () => {
        const {handler, gate} = makeHandler();
        const id = await open(handler);
        const controller = new AbortController();
        const body = {jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'wait'}};
        const pending = handler.fetch(inSession(id, body, {}));
        const gone = handler.fetch(
            post({...body, id: 2}, {'mcp-session-id': id}, {signal: controller.signal}),
        );
        await gate.started(2);
        controller.abort(new Error('left'));
        assert.equal((await gone).status, 499);
        assert.equal(gate.contexts[1]?.signal.aborted, false);
        gate.release(1, text('nobody reads this'));
        gate.release(0, text('x'));
        assert.match((await read(await pending))[2], /"id":1,.*"text":"x"/);
        await handler.drain();
    });

    test('GET opens one stream per session (409 for a second, 406 without SSE), closed when the session ends', async () => {
        const {handler} = makeHandler();
        const id = await open(handler);
        const get = (accept = 'text/event-stream') =>
            handler.fetch(new Request(ENDPOINT, {headers: {'mcp-session-id': id, accept}}));
        assert.equal((await get('application/json')).status, 406);
        const stream = await get();
        assert.deepEqual(
            [stream.status, stream.headers.get('content-type'), stream.headers.get('mcp-session-id')],
            [200, 'text/event-stream', id],
        );
        assert.equal((await get()).status, 409);
        assert.equal(
            (await handler.fetch(new Request(ENDPOINT, {method: 'DELETE', headers: {'mcp-session-id': id}})))
                .status,
            204,
        );
        assert.equal(await events(stream).next(), undefined);
        assert.equal(
            (await handler.fetch(new Request(ENDPOINT, {headers: {'mcp-session-id': 'gone'}}))).status,
            404,
        );
    });
});
