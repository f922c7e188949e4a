/**
 * What a Streamable HTTP server gets wrong in what it sends is an `McpProtocolViolationError`, at
 * the transport and at the call: a wrong content type, a body that is not UTF-8 or not JSON or too
 * large, a body without the answer, a bad session id, a bad SSE event. A refusal by status, a 202
 * and a network failure stay what they were.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {HttpTransport} from '../../../lib/mcp/client/http.js';
import type {HttpTransportOptions} from '../../../lib/mcp/client/http-options.js';
import {
    connectMcpClient,
    McpConnectionError,
    McpHttpError,
    McpProtocolViolationError,
} from '../../../lib/mcp/client/index.js';
import type {Route, Seen} from './http-fixture.js';
import {event, json, Reports, result, servedPerTest, sse, status} from './http-fixture.js';
import {scripted, TWO_PAGES} from './http-mcp.js';

/** Turns a hang into a failure; nothing here should come near it. */
const GUARD = {timeout: 30_000};

const serve = servedPerTest();
const CALL = {jsonrpc: '2.0', id: 9, method: 'tools/call', params: {name: 'slow'}};
const id = (seen: Seen): unknown => (seen.json as {id?: unknown} | undefined)?.id;

async function open(route: Route, options: Partial<HttpTransportOptions> = {}) {
    const fixture = await serve(route);
    const transport = new HttpTransport({
        url: fixture.url(),
        reconnect: {initialDelayMs: 0, maxDelayMs: 0},
        ...options,
    });
    const reports = new Reports();
    await transport.start(reports.handlers);
    return {fixture, transport, reports};
}

/** The rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
        () => assert.fail('expected a rejection'),
        (error: unknown) => error,
    );
}

function assertViolation(error: unknown, message: string): asserts error is McpProtocolViolationError {
    assert.ok(McpProtocolViolationError.is(error), `not a violation: ${String(error)}`);
    assert.equal(error.name, 'McpProtocolViolationError');
    assert.equal(error.message, message);
}

test(
    'each malformed answer to a POST is an McpProtocolViolationError saying what was wrong',
    GUARD,
    async () => {
        const {fixture, transport} = await open(
            (seen, res) => {
                const n = id(seen);
                if (n === 2) return status(res, 200, '<html>', {'content-type': 'text/html; charset=utf-8'});
                if (n === 3) return status(res, 200, '{"jsonrpc":', {'content-type': 'application/json'});
                if (n === 4) return json(res, [{jsonrpc: '2.0', id: 99, result: {}}]);
                if (n === 5)
                    return status(res, 200, Buffer.from([0xc3, 0x28]), {'content-type': 'application/json'});
                if (n === 6) return json(res, result(seen, {big: 'x'.repeat(100)}));
            },
            {maxMessageBytes: 64},
        );
        const what = (n: number) => `The answer to request ${n} from POST ${fixture.url()}`;
        const send = (n: number) => rejection(transport.send({...CALL, id: n}, {requestId: n}));

        assertViolation(
            await send(2),
            `${what(2)}: the content-type is "text/html"; an MCP server answers application/json or text/event-stream`,
        );
        const notJson = await send(3);
        assertViolation(notJson, `${what(3)}: the body is not JSON: "{\\"jsonrpc\\":"`);
        assert.ok(notJson.cause instanceof SyntaxError);
        assertViolation(await send(4), `${what(4)}: the JSON body holds no response with that id`);
        const notUtf8 = await send(5);
        assertViolation(notUtf8, `${what(5)}: the JSON body is not valid UTF-8`);
        assert.ok(notUtf8.cause instanceof TypeError);
        assertViolation(
            await send(6),
            `${what(6)}: the JSON body is larger than maxMessageBytes (64 bytes); ` +
                'raise maxMessageBytes if the server is trusted to send that much',
        );
        await transport.close();
    },
);

test('a session id that is not visible ASCII is an McpProtocolViolationError', GUARD, async () => {
    const {fixture, transport} = await open((seen, res) =>
        json(res, result(seen, {}), {'mcp-session-id': 'é'}),
    );
    const initialize = {jsonrpc: '2.0', id: 1, method: 'initialize', params: {}};
    assertViolation(
        await rejection(transport.send(initialize, {requestId: 1})),
        `POST ${fixture.url()} issued the session id "é", which is not made of visible ASCII characters only; ` +
            'the server is not a conforming MCP server',
    );
    await transport.close();
});

test('an SSE event that is not JSON or over maxMessageBytes is reported as a violation', GUARD, async () => {
    const {fixture, transport, reports} = await open(
        (seen, res) => {
            sse(res);
            res.write('data: nope\n\n');
            res.write(`data: "${'y'.repeat(100)}"\n\n`);
            event(res, result(seen, {}));
        },
        {maxMessageBytes: 64},
    );
    await transport.send(CALL, {requestId: 9});
    const [notJson, oversized] = reports.problems;
    const what = `The answer to request 9 from POST ${fixture.url()}`;
    assertViolation(notJson, `${what}: an SSE event is not JSON: "nope"`);
    assert.ok(notJson.cause instanceof SyntaxError);
    assertViolation(
        oversized,
        `${what}: an SSE event reached 108 bytes, over maxMessageBytes (64 bytes); it was dropped`,
    );
    assert.deepEqual(
        reports.strays.map((s) => s.kind),
        ['not-json', 'oversized'],
    );
    await transport.close();
});

test('a GET stream of another content type fails its attempt with a violation', GUARD, async () => {
    const {fixture, transport, reports} = await open(
        (seen, res) => {
            if (seen.method === 'GET') return json(res, {});
            if (id(seen) === undefined) return status(res, 202);
            json(res, result(seen, {}));
        },
        {listen: true, reconnect: {initialDelayMs: 0, maxDelayMs: 0, maxAttempts: 1}},
    );
    await transport.send({jsonrpc: '2.0', id: 1, method: 'initialize', params: {}}, {requestId: 1});
    await transport.send({jsonrpc: '2.0', method: 'notifications/initialized'});
    const given = (await reports.problem(1)).cause;
    assert.ok(McpHttpError.is(given));
    assert.equal(given.status, undefined);
    assertViolation(
        given.cause,
        `GET ${fixture.url()} answered with content-type "application/json", not text/event-stream`,
    );
    await transport.close();
});

test('a 202 to a request, a refusal and a network failure are still McpHttpErrors', GUARD, async () => {
    const {fixture, transport} = await open((seen, res) => {
        if (id(seen) === 1) return status(res, 202);
        status(res, 500, 'down');
    });
    const accepted = await rejection(transport.send({...CALL, id: 1}, {requestId: 1}));
    assert.ok(!McpProtocolViolationError.is(accepted));
    assert.ok(McpHttpError.is(accepted));
    assert.equal(accepted.status, 202);
    const refused = await rejection(transport.send({...CALL, id: 2}, {requestId: 2}));
    assert.ok(McpHttpError.is(refused));
    assert.equal(refused.message, `POST ${fixture.url()} answered HTTP 500 Internal Server Error: down`);
    await transport.close();

    const unreachable = new HttpTransport({url: 'http://127.0.0.1:9/mcp'});
    await unreachable.start(new Reports().handlers);
    const lost = await rejection(unreachable.send({...CALL, id: 3}, {requestId: 3}));
    assert.ok(!McpProtocolViolationError.is(lost));
    assert.ok(McpHttpError.is(lost));
    assert.equal(lost.status, undefined);
    assert.match(lost.message, /^POST http:\/\/127\.0\.0\.1:9\/mcp failed: /);
    await unreachable.close();
});

test('a JSON body that breaks off is a network failure, not a violation', GUARD, async () => {
    const {transport} = await open((_seen, res) => {
        res.writeHead(200, {'content-type': 'application/json', 'content-length': '100'});
        res.write('{"jsonrpc":', () => res.destroy());
    });
    const broken = await rejection(transport.send(CALL, {requestId: 9}));
    assert.ok(broken instanceof Error);
    assert.ok(!McpProtocolViolationError.is(broken), broken.message);
    await transport.close();
});

/** The scripted server, except that `tools/call` of `bad` answers an HTML page. */
function htmlForBad(): Route {
    const base = scripted(TWO_PAGES);
    return (seen, res) => {
        const message = seen.json as {method?: string; params?: {name?: string}} | undefined;
        if (message?.method === 'tools/call' && message.params?.name === 'bad') {
            return status(res, 200, '<html>', {'content-type': 'text/html'});
        }
        return base(seen, res);
    };
}

test(
    'a call answered malformed rejects with a violation naming its method; the session goes on',
    GUARD,
    async () => {
        const fixture = await serve(htmlForBad());
        const client = await connectMcpClient({url: fixture.url()});
        const error = await rejection(client.callTool('bad'));
        assertViolation(
            error,
            `The MCP server's answer to tools/call broke the protocol: The answer to request 2 from POST ${fixture.url()}: ` +
                'the content-type is "text/html"; an MCP server answers application/json or text/event-stream',
        );
        assert.ok(McpProtocolViolationError.is(error.cause));
        assert.equal(await client.listTools().then((tools) => tools.length), 2);
        await client.close();
    },
);

test('a call whose connection is cut still rejects with a connection error', GUARD, async () => {
    const base = scripted(TWO_PAGES);
    const fixture = await serve((seen, res) => {
        if ((seen.json as {method?: string} | undefined)?.method === 'tools/list')
            return res.socket?.destroy();
        return base(seen, res);
    });
    const client = await connectMcpClient({url: fixture.url()});
    const error = await rejection(client.listTools());
    assert.ok(McpConnectionError.is(error));
    assert.ok(McpHttpError.is(error.cause) && error.cause.status === undefined);
    assert.equal(error.message, `Could not send tools/list to the MCP server: ${error.cause.message}`);
    assert.match(error.cause.message, new RegExp(`^POST ${fixture.url()} failed: `));
    await client.close();
});
