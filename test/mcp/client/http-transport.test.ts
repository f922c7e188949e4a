/**
 * The Streamable HTTP transport on its own, against the loopback fixture over plain HTTP (allowed
 * for loopback): what goes on the wire, how answers are passed on, errors, cancellation, close.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {test} from 'node:test';
import {McpHttpError} from '../../../lib/mcp/client/errors.js';
import {HttpTransport} from '../../../lib/mcp/client/http.js';
import type {HttpTransportOptions} from '../../../lib/mcp/client/http-options.js';
import {deferred} from '../../helpers/deferred.js';
import type {Route, Seen} from './http-fixture.js';
import {event, type Fixture, json, Reports, result, servedPerTest, sse, status} from './http-fixture.js';

/** Turns a hang into a failure; nothing here should come near it. */
const GUARD = {timeout: 30_000};

const INITIALIZE = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 't', version: '1'}},
};
const INITIALIZED = {jsonrpc: '2.0', method: 'notifications/initialized'};
const LIST = {jsonrpc: '2.0', id: 2, method: 'tools/list', params: {}};

const serve = servedPerTest();

async function open(
    fixture: Fixture,
    options: Partial<HttpTransportOptions> = {},
): Promise<{transport: HttpTransport; reports: Reports}> {
    const transport = new HttpTransport({url: fixture.url(), ...options});
    const reports = new Reports();
    await transport.start(reports.handlers);
    return {transport, reports};
}

/** Answers initialize with a session id, notifications with 202, DELETE with 204, the rest by `other`. */
function session(other: Route = (seen, res) => json(res, result(seen, {tools: []}))): Route {
    return (seen, res) => {
        const message = seen.json as {method?: string; id?: unknown} | undefined;
        if (seen.method === 'DELETE') return status(res, 204);
        if (message?.method === 'initialize') {
            return json(res, result(seen, {protocolVersion: '2025-11-25'}), {'mcp-session-id': 'sess-42'});
        }
        if (message !== undefined && message.id === undefined) return status(res, 202);
        return other(seen, res);
    };
}

async function initialized(transport: HttpTransport): Promise<void> {
    await transport.send(INITIALIZE, {requestId: 1});
    transport.negotiated('2025-11-25');
    await transport.send(INITIALIZED);
}

function headersOf(seen: Seen, ...names: string[]): Record<string, string | string[] | undefined> {
    return Object.fromEntries(names.map((name) => [name, seen.headers[name]]));
}

const MCP_HEADERS = ['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'authorization'];

test(
    'each message is its own POST with the JSON body, the content-type and both accepted media types',
    GUARD,
    async () => {
        const fixture = await serve(session());
        const {transport, reports} = await open(fixture);
        await transport.send(INITIALIZE, {requestId: 1});
        const first = await fixture.request(1);
        assert.equal(first.method, 'POST');
        assert.equal(first.path, '/mcp');
        assert.equal(first.body, JSON.stringify(INITIALIZE));
        assert.deepEqual(headersOf(first, ...MCP_HEADERS), {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': undefined,
            'mcp-protocol-version': undefined,
            authorization: undefined,
        });
        assert.deepEqual(reports.messages, [
            {jsonrpc: '2.0', id: 1, result: {protocolVersion: '2025-11-25'}},
        ]);
        assert.equal(transport.sessionId, 'sess-42');
        await transport.close();
    },
);

test(
    'the session id from initialize and the negotiated revision go with every later request',
    GUARD,
    async () => {
        const fixture = await serve(session());
        const {transport, reports} = await open(fixture);
        await initialized(transport);
        await transport.send(LIST, {requestId: 2});
        const [, notification, list] = fixture.seen as [Seen, Seen, Seen];
        const expected = {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': 'sess-42',
            'mcp-protocol-version': '2025-11-25',
            authorization: undefined,
        };
        assert.equal(notification.body, JSON.stringify(INITIALIZED));
        assert.deepEqual(headersOf(notification, ...MCP_HEADERS), expected);
        assert.deepEqual(headersOf(list, ...MCP_HEADERS), expected);
        assert.deepEqual(reports.messages.slice(1), [{jsonrpc: '2.0', id: 2, result: {tools: []}}]);
        await transport.close();
        assert.deepEqual(fixture.summary(), [
            'POST initialize',
            'POST notifications/initialized',
            'POST tools/list',
            'DELETE',
        ]);
    },
);

test("the caller's headers go with the POST, GET and DELETE requests alike", GUARD, async () => {
    const fixture = await serve(session());
    fixture.route = (
        (inner: Route): Route =>
        (seen, res) =>
            seen.method === 'GET' ? status(res, 405) : inner(seen, res)
    )(fixture.route);
    const {transport} = await open(fixture, {
        headers: {Authorization: 'Bearer t0ken', 'x-trace': 'a'},
        listen: true,
    });
    await initialized(transport);
    await fixture.request(3);
    await transport.close();
    assert.deepEqual(fixture.summary(), [
        'POST initialize',
        'POST notifications/initialized',
        'GET',
        'DELETE',
    ]);
    for (const seen of fixture.seen) {
        assert.deepEqual(headersOf(seen, 'authorization', 'x-trace'), {
            authorization: 'Bearer t0ken',
            'x-trace': 'a',
        });
    }
    const [, , get, del] = fixture.seen as [Seen, Seen, Seen, Seen];
    assert.deepEqual(headersOf(get, 'accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'), {
        accept: 'text/event-stream',
        'mcp-session-id': 'sess-42',
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': undefined,
    });
    assert.deepEqual(headersOf(del, 'mcp-session-id', 'mcp-protocol-version'), {
        'mcp-session-id': 'sess-42',
        'mcp-protocol-version': '2025-11-25',
    });
    assert.equal(del.body, '');
});

test(
    'an SSE answer passes on what precedes the answer and resolves at the answer, leaving the stream',
    GUARD,
    async () => {
        const progress = {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: {progressToken: 't', progress: 1},
        };
        const fixture = await serve((seen, res) => {
            sse(res);
            event(res, progress);
            event(res, result(seen, {content: []}));
            // The stream is left open: the answer alone ends the exchange.
        });
        const {transport, reports} = await open(fixture);
        await transport.send({jsonrpc: '2.0', id: 'c', method: 'tools/call'}, {requestId: 'c'});
        assert.deepEqual(reports.messages, [progress, {jsonrpc: '2.0', id: 'c', result: {content: []}}]);
        await (await fixture.request(1)).closed;
        await transport.close();
    },
);

test('a request the server sends on the answer stream is passed on like any message', GUARD, async () => {
    const ping = {jsonrpc: '2.0', id: 'srv-1', method: 'ping'};
    const fixture = await serve((seen, res) => {
        if ((seen.json as {id?: unknown}).id === undefined) return status(res, 202);
        sse(res);
        event(res, ping);
        res.end(`data: ${JSON.stringify(result(seen, {}))}\n\n`);
    });
    const {transport, reports} = await open(fixture);
    await transport.send({jsonrpc: '2.0', id: 5, method: 'tools/call'}, {requestId: 5});
    assert.deepEqual(reports.messages, [ping, {jsonrpc: '2.0', id: 5, result: {}}]);
    await transport.send({jsonrpc: '2.0', id: 'srv-1', result: {}});
    assert.deepEqual(fixture.summary(), ['POST tools/call', 'POST response "srv-1"']);
    await transport.close();
});

test('a JSON body holding several messages passes on each', GUARD, async () => {
    const note = {jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: 'x'}};
    const fixture = await serve((seen, res) => json(res, [note, result(seen, {})]));
    const {transport, reports} = await open(fixture);
    await transport.send(LIST, {requestId: 2});
    assert.deepEqual(reports.messages, [note, {jsonrpc: '2.0', id: 2, result: {}}]);
    await transport.close();
});

test(
    'an HTTP error status rejects with McpHttpError: the status and a bounded excerpt of the body',
    GUARD,
    async () => {
        const fixture = await serve((_seen, res) => status(res, 500, `  oh\n\n no ${'x'.repeat(2000)}`));
        const {transport} = await open(fixture);
        const error = await transport.send(LIST, {requestId: 2}).catch((e: unknown) => e);
        assert.ok(error instanceof McpHttpError);
        const excerpt = `oh no ${'x'.repeat(494)}…`;
        assert.equal(
            error.message,
            `POST ${fixture.url()} answered HTTP 500 Internal Server Error: ${excerpt}`,
        );
        assert.deepEqual(
            [error.method, error.status, error.body, error.sessionExpired],
            ['POST', 500, excerpt, false],
        );
        await transport.close();
    },
);

test('a refusal for lack of credentials says to check the headers', GUARD, async () => {
    const fixture = await serve((_seen, res) => status(res, 401));
    const {transport} = await open(fixture);
    await assert.rejects(transport.send(LIST, {requestId: 2}), {
        name: 'McpHttpError',
        message: `POST ${fixture.url()} answered HTTP 401 Unauthorized (check the credentials passed in headers)`,
        status: 401,
        body: '',
    });
    await transport.close();
});

test('a redirect is not followed: the error names where it points', GUARD, async () => {
    const fixture = await serve((_seen, res) =>
        status(res, 308, '', {location: 'https://elsewhere.example/mcp'}),
    );
    const {transport} = await open(fixture);
    await assert.rejects(transport.send(LIST, {requestId: 2}), {
        message:
            `POST ${fixture.url()} answered HTTP 308 Permanent Redirect ` +
            '(a redirect to https://elsewhere.example/mcp: give that URL as url instead)',
        status: 308,
    });
    assert.equal(fixture.seen.length, 1);
    await transport.close();
});

test(
    'a 404 to a request carrying the session id says the session ended and closes the transport',
    GUARD,
    async () => {
        const fixture = await serve(session((_seen, res) => status(res, 404, 'Session not found')));
        const {transport, reports} = await open(fixture);
        await initialized(transport);
        const error = await transport.send(LIST, {requestId: 2}).catch((e: unknown) => e);
        assert.ok(error instanceof McpHttpError);
        assert.equal(
            error.message,
            `The MCP session sess-42 has ended: the server answered POST ${fixture.url()} with HTTP 404 Not Found. ` +
                'It expired or was deleted; connect again to start a new session.',
        );
        assert.deepEqual([error.status, error.sessionExpired, error.body], [404, true, 'Session not found']);
        assert.equal(await reports.closed(), error);
        await assert.rejects(transport.send(LIST, {requestId: 3}), (e) => e === error);
        await transport.close();
        assert.deepEqual(reports.closings, [error]);
        assert.deepEqual(fixture.summary(), [
            'POST initialize',
            'POST notifications/initialized',
            'POST tools/list',
        ]);
    },
);

test('a 404 without a session id is an ordinary refusal', GUARD, async () => {
    const fixture = await serve((_seen, res) => status(res, 404));
    const {transport, reports} = await open(fixture);
    await assert.rejects(transport.send(LIST, {requestId: 2}), {
        message: `POST ${fixture.url()} answered HTTP 404 Not Found`,
        sessionExpired: false,
    });
    assert.deepEqual(reports.closings, []);
    await transport.close();
});

test('a connection that cannot be made rejects with McpHttpError and no status', GUARD, async () => {
    const fixture = await serve(() => undefined);
    const url = fixture.url();
    await fixture.close();
    const transport = new HttpTransport({url});
    await transport.start(new Reports().handlers);
    const error = await transport.send(LIST, {requestId: 2}).catch((e: unknown) => e);
    assert.ok(error instanceof McpHttpError);
    assert.match(
        error.message,
        new RegExp(`^POST ${url} failed: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+$`),
    );
    assert.deepEqual([error.status, error.method], [undefined, 'POST']);
    assert.ok(error.cause instanceof TypeError);
    await transport.close();
});

test(
    "aborting one request ends its own exchange with the signal's reason and disturbs no other",
    GUARD,
    async () => {
        const held: Seen[] = [];
        const bothHeld = deferred();
        const fixture = await serve((seen, res) => {
            const message = seen.json as {id?: unknown};
            if (message.id === undefined) return status(res, 202);
            sse(res);
            held.push(seen);
            if (held.length === 2) bothHeld.resolve();
        });
        const {transport, reports} = await open(fixture);
        const controller = new AbortController();
        const reason = new Error('the caller gave up');
        const cancelled = transport.send(
            {jsonrpc: '2.0', id: 7, method: 'tools/call'},
            {requestId: 7, signal: controller.signal},
        );
        const other = transport.send({jsonrpc: '2.0', id: 8, method: 'tools/call'}, {requestId: 8});
        await bothHeld.promise;
        controller.abort(reason);
        await assert.rejects(cancelled, (e) => e === reason);
        const seven = held.find((s) => (s.json as {id: number}).id === 7) as Seen;
        const eight = held.find((s) => (s.json as {id: number}).id === 8) as Seen;
        await seven.closed;
        assert.equal(eight.response.writableEnded, false);
        const notice = {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: {requestId: 7, reason: 'gave up'},
        };
        await transport.send(notice);
        event(eight.response, result(eight, {content: []}));
        await other;
        assert.deepEqual(reports.messages, [{jsonrpc: '2.0', id: 8, result: {content: []}}]);
        assert.equal(fixture.seen[2]?.body, JSON.stringify(notice));
        assert.deepEqual(fixture.summary().slice(2), ['POST notifications/cancelled']);
        await transport.close();
    },
);

test('an already aborted signal sends nothing and rejects with its reason', GUARD, async () => {
    const fixture = await serve(session());
    const {transport} = await open(fixture);
    const reason = new Error('too late');
    await assert.rejects(
        transport.send(LIST, {requestId: 2, signal: AbortSignal.abort(reason)}),
        (e) => e === reason,
    );
    assert.equal(fixture.seen.length, 0);
    await transport.close();
});

test(
    'close ends the session by DELETE once, rejects what is in flight, and reports closed',
    GUARD,
    async () => {
        const fixture = await serve(session((_seen, res) => sse(res)));
        const {transport, reports} = await open(fixture);
        await initialized(transport);
        const pending = transport.send(LIST, {requestId: 2});
        await fixture.request(3);
        const closing = transport.close();
        assert.equal(transport.close(), closing);
        await assert.rejects(pending, {message: 'The MCP client transport is closed'});
        await closing;
        await (fixture.seen[2] as Seen).closed;
        assert.deepEqual(reports.closings, [undefined]);
        assert.deepEqual(fixture.summary(), [
            'POST initialize',
            'POST notifications/initialized',
            'POST tools/list',
            'DELETE',
        ]);
        await assert.rejects(transport.send(LIST, {requestId: 3}), {
            message: 'The MCP client transport is closed',
        });
        assert.equal(fixture.seen.length, 4);
    },
);

test(
    'a server that does not end sessions (405 to DELETE) is fine, and without a session id no DELETE is sent',
    GUARD,
    async () => {
        const fixture = await serve((seen, res) => {
            if (seen.method === 'DELETE') return status(res, 405);
            json(res, result(seen, {}), {'mcp-session-id': 's'});
        });
        const {transport, reports} = await open(fixture);
        await transport.send(INITIALIZE, {requestId: 1});
        await transport.close();
        assert.deepEqual(reports.problems, []);
        assert.deepEqual(fixture.summary(), ['POST initialize', 'DELETE']);

        const plain = await serve((seen, res) => json(res, result(seen, {})));
        const second = await open(plain);
        await second.transport.send(INITIALIZE, {requestId: 1});
        await second.transport.close();
        assert.deepEqual(plain.summary(), ['POST initialize']);
    },
);

test(
    'a DELETE that fails or gets no answer is a process warning and close still resolves',
    GUARD,
    async () => {
        const fixture = await serve(session());
        fixture.route = (
            (inner: Route): Route =>
            (seen, res) =>
                seen.method === 'DELETE' ? status(res, 500, 'nope') : inner(seen, res)
        )(fixture.route);
        const {transport, reports} = await open(fixture);
        await initialized(transport);
        let warned = once(process, 'warning');
        await transport.close();
        let [warning] = (await warned) as [Error];
        assert.equal(warning.name, 'McpClientWarning');
        assert.equal(
            warning.message,
            `The MCP session sess-42 may still be open on the server: DELETE ${fixture.url()} answered HTTP 500 Internal Server Error: nope`,
        );
        assert.deepEqual(reports.problems, []);
        assert.deepEqual(reports.closings, [undefined]);

        const silent = await serve(session());
        silent.route = (
            (inner: Route): Route =>
            (seen, res) =>
                seen.method === 'DELETE' ? undefined : inner(seen, res)
        )(silent.route);
        const second = await open(silent, {closeTimeoutMs: 1});
        await initialized(second.transport);
        warned = once(process, 'warning');
        await second.transport.close();
        [warning] = (await warned) as [Error];
        assert.equal(
            warning.message,
            `The MCP session sess-42 may still be open on the server: DELETE ${silent.url()} got no answer within closeTimeoutMs (1 ms)`,
        );
    },
);
