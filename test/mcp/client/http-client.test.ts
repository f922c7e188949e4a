/**
 * `connectMcpClient({url})` end to end against the loopback fixture (plain HTTP, allowed for
 * loopback): cancellation and timeouts over HTTP, a failed handshake, an expired session, the
 * standalone GET stream, and the order of the first messages.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {connectMcpClient, McpHttpError} from '../../../lib/mcp/client/index.js';
import {deferred} from '../../helpers/deferred.js';
import type {Route, Seen} from './http-fixture.js';
import {event, type Fixture, json, result, servedPerTest, sse, status} from './http-fixture.js';
import {SESSION_ID, scripted, TWO_PAGES} from './http-mcp.js';

/** Turns a hang into a failure; nothing here should come near it. */
const GUARD = {timeout: 30_000};

const serve = servedPerTest();

/** The scripted server, except that `tools/call` is held open for the test to settle. */
function holdingCalls(held: Seen[], arrived: () => void): Route {
    const base = scripted(TWO_PAGES);
    return (seen, res) => {
        if ((seen.json as {method?: string} | undefined)?.method === 'tools/call') {
            sse(res);
            held.push(seen);
            arrived();
            return;
        }
        return base(seen, res);
    };
}

const bodies = (fixture: Fixture) => fixture.seen.map((s) => `${s.method} ${s.body}`);

test(
    'an aborted call ends its own HTTP exchange and the client POSTs notifications/cancelled on its own',
    GUARD,
    async () => {
        const held: Seen[] = [];
        const arrived = deferred();
        const fixture = await serve(holdingCalls(held, () => arrived.resolve()));
        const client = await connectMcpClient({url: fixture.url()});
        const controller = new AbortController();
        const call = client.callTool('add', {a: 1, b: 2}, {signal: controller.signal});
        await arrived.promise;
        const reason = new Error('the user pressed stop');
        controller.abort(reason);
        await assert.rejects(call, (e) => e === reason);
        await (held[0] as Seen).closed;
        const cancelled = await fixture.request(4);
        assert.equal(cancelled.method, 'POST');
        assert.deepEqual(cancelled.json, {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: {requestId: 2, reason: 'The client aborted the request'},
        });
        assert.equal(cancelled.headers['mcp-session-id'], SESSION_ID);
        assert.equal(cancelled.headers['mcp-protocol-version'], '2025-11-25');
        assert.deepEqual(await client.listTools().then((tools) => tools.length), 2);
        await client.close();
    },
);

test(
    'a call that times out ends its exchange, POSTs notifications/cancelled, and rejects with the timeout',
    GUARD,
    async () => {
        const held: Seen[] = [];
        const fixture = await serve(holdingCalls(held, () => undefined));
        const client = await connectMcpClient({url: fixture.url()});
        await assert.rejects(client.callTool('add', {a: 1, b: 2}, {timeoutMs: 1}), {name: 'McpTimeoutError'});
        const cancelled = await fixture.until(
            (s) => (s.json as {method?: string}).method === 'notifications/cancelled',
        );
        assert.deepEqual((cancelled.json as {params: unknown}).params, {
            requestId: 2,
            reason: 'The client timed out after 1 ms',
        });
        // The call may not have reached the server within 1 ms; if it did, its exchange was ended.
        await Promise.all(held.map((s) => s.closed));
        await client.close();
        assert.equal(fixture.seen.at(-1)?.method, 'DELETE');
    },
);

test(
    'closing with a call pending ends its exchange and POSTs notifications/cancelled before the DELETE',
    GUARD,
    async () => {
        const held: Seen[] = [];
        const arrived = deferred();
        const fixture = await serve(holdingCalls(held, () => arrived.resolve()));
        const client = await connectMcpClient({url: fixture.url()});
        const call = client.callTool('add', {a: 1, b: 2});
        const rejected = assert.rejects(call, {
            name: 'McpConnectionError',
            message: 'The MCP client was closed before the server answered tools/call',
        });
        await arrived.promise;
        await client.close();
        await rejected;
        await (held[0] as Seen).closed;
        assert.deepEqual(
            fixture.seen.map((s) => `${s.method} ${(s.json as {method?: string} | undefined)?.method ?? ''}`),
            [
                'POST initialize',
                'POST notifications/initialized',
                'POST tools/call',
                'POST notifications/cancelled',
                'DELETE ',
            ],
        );
        assert.deepEqual(((fixture.seen[3] as Seen).json as {params: unknown}).params, {
            requestId: 2,
            reason: 'The client is closing',
        });
    },
);

// The same timeout also bounds the DELETE that follows: long enough that a loaded machine still
// sends it, where 20 ms let the abort win before the request left.
test('a cancellation the server never accepts holds close() for closeTimeoutMs at most', GUARD, async () => {
    const held: Seen[] = [];
    const arrived = deferred();
    const holding = holdingCalls(held, () => arrived.resolve());
    const fixture = await serve((seen, res) =>
        (seen.json as {method?: string} | undefined)?.method === 'notifications/cancelled'
            ? undefined
            : holding(seen, res),
    );
    const client = await connectMcpClient({url: fixture.url(), closeTimeoutMs: 1000});
    const rejected = assert.rejects(client.callTool('add', {a: 1, b: 2}), {name: 'McpConnectionError'});
    await arrived.promise;
    await client.close();
    await rejected;
    await Promise.all(fixture.seen.map((s) => s.closed));
    assert.deepEqual(
        fixture.seen.map((s) => s.method),
        ['POST', 'POST', 'POST', 'POST', 'DELETE'],
    );
});

test('a handshake that fails after the server issued a session still ends it by DELETE', GUARD, async () => {
    const fixture = await serve((seen, res) => {
        if (seen.method === 'DELETE') return status(res, 204);
        json(
            res,
            result(seen, {
                protocolVersion: '1999-01-01',
                capabilities: {},
                serverInfo: {name: 'x', version: '1'},
            }),
            {
                'mcp-session-id': 'doomed',
            },
        );
    });
    await assert.rejects(connectMcpClient({url: fixture.url()}), {name: 'McpProtocolViolationError'});
    assert.deepEqual(
        fixture.seen.map((s) => [s.method, s.headers['mcp-session-id']]),
        [
            ['POST', undefined],
            ['DELETE', 'doomed'],
        ],
    );
});

test(
    'a session the server ended rejects the call with McpConnectionError caused by the 404',
    GUARD,
    async () => {
        const base = scripted(TWO_PAGES);
        const fixture = await serve((seen, res) => {
            if ((seen.json as {method?: string} | undefined)?.method === 'tools/list')
                return status(res, 404);
            return base(seen, res);
        });
        const client = await connectMcpClient({url: fixture.url()});
        const error = (await client.listTools().catch((e: unknown) => e)) as Error;
        assert.equal(error.name, 'McpConnectionError');
        assert.ok(error.cause instanceof McpHttpError);
        assert.equal(error.cause.sessionExpired, true);
        assert.match(
            error.message,
            /The MCP session tls-session-7f3a has ended: the server answered POST .* with HTTP 404 Not Found/,
        );
        await assert.rejects(client.listTools(), {name: 'McpConnectionError'});
        await client.close();
        assert.deepEqual(
            fixture.seen.map((s) => s.method),
            ['POST', 'POST', 'POST'],
        );
    },
);

test('no request is POSTed before notifications/initialized has been accepted', GUARD, async () => {
    const base = scripted(TWO_PAGES);
    const gate = deferred();
    const fixture = await serve(async (seen, res) => {
        if ((seen.json as {method?: string} | undefined)?.method === 'notifications/initialized')
            await gate.promise;
        return base(seen, res);
    });
    const client = await connectMcpClient({url: fixture.url()});
    const listing = client.listTools();
    await fixture.request(2);
    assert.equal(fixture.seen.length, 2);
    gate.resolve();
    await listing;
    await client.close();
    assert.deepEqual(bodies(fixture).slice(1, 3), [
        'POST {"jsonrpc":"2.0","method":"notifications/initialized"}',
        'POST {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}',
    ]);
});

test(
    'with listen: true, the GET stream carries server requests, which the client answers by POST',
    GUARD,
    async () => {
        const base = scripted(TWO_PAGES);
        let stream: Seen | undefined;
        const opened = deferred();
        const fixture = await serve((seen, res) => {
            if (seen.method === 'GET') {
                stream = seen;
                sse(res);
                event(res, {jsonrpc: '2.0', id: 'srv-ping', method: 'ping'}, 'g1');
                opened.resolve();
                return;
            }
            return base(seen, res);
        });
        const client = await connectMcpClient({
            url: fixture.url(),
            listen: true,
            reconnect: {initialDelayMs: 0},
        });
        await opened.promise;
        const answer = await fixture.request(4);
        assert.deepEqual(
            [answer.method, answer.json],
            ['POST', {jsonrpc: '2.0', id: 'srv-ping', result: {}}],
        );
        await client.close();
        await (stream as Seen).closed;
        assert.deepEqual(
            fixture.seen.map((s) => s.method),
            ['POST', 'POST', 'GET', 'POST', 'DELETE'],
        );
    },
);

test('HTTP options are checked with the session options, and an unknown one names them all', GUARD, () => {
    assert.throws(() => connectMcpClient({url: 'http://127.0.0.1:1/mcp', retries: 2} as never), {
        name: 'TypeError',
        message:
            'connectMcpClient: unknown option "retries"; the options are url, headers, listen, reconnect, ' +
            'maxMessageBytes, closeTimeoutMs, clientInfo, protocolVersion, initializeTimeoutMs, listTimeoutMs, ' +
            'callTimeoutMs, signal, onProtocolError, strict, onNotification, onLog, onListChanged, onResourceUpdated, ' +
            'versionNegotiation, discoverTimeoutMs, handlers, maxInputRounds',
    });
    assert.throws(() => connectMcpClient({url: 'http://127.0.0.1:1/mcp', listen: 1} as never), {
        message: 'connectMcpClient: listen must be a boolean, got number 1',
    });
});
