/**
 * The transport's streams: an answer stream resumed by GET with Last-Event-ID, the standalone GET
 * stream and its reconnection, and what a misbehaving answer gives. Reconnection waits are made
 * zero by the options or the server's `retry`, so nothing waits on a clock.
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {McpHttpError} from '../../../lib/mcp/client/errors.js';
import {HttpTransport} from '../../../lib/mcp/client/http.js';
import type {HttpTransportOptions} from '../../../lib/mcp/client/http-options.js';
import type {Route, Seen} from './http-fixture.js';
import {event, Fixture, json, Reports, result, sse, status} from './http-fixture.js';

/** Turns a hang into a failure; nothing here should come near it. */
const GUARD = {timeout: 30_000};

const INITIALIZE = {jsonrpc: '2.0', id: 1, method: 'initialize', params: {}};
const INITIALIZED = {jsonrpc: '2.0', method: 'notifications/initialized'};
const CALL = {jsonrpc: '2.0', id: 9, method: 'tools/call', params: {name: 'slow'}};
const FAST = {initialDelayMs: 0, maxDelayMs: 0};

let fixtures: Fixture[] = [];
afterEach(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
    fixtures = [];
});

async function open(route: Route, options: Partial<HttpTransportOptions> = {}) {
    const fixture = await Fixture.start(route);
    fixtures.push(fixture);
    const transport = new HttpTransport({url: fixture.url(), reconnect: FAST, ...options});
    const reports = new Reports();
    await transport.start(reports.handlers);
    return {fixture, transport, reports};
}

const id = (seen: Seen): unknown => (seen.json as {id?: unknown} | undefined)?.id;

test(
    'an answer stream that ends before its answer is resumed by GET with Last-Event-ID, and the answer comes there',
    GUARD,
    async () => {
        const note = {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: {progressToken: 1, progress: 1},
        };
        let call: Seen | undefined;
        const {fixture, transport, reports} = await open((seen, res) => {
            if (seen.method === 'POST') {
                call = seen;
                sse(res, {'mcp-session-id': 'abc'});
                res.write('id: e-1\nretry: 0\ndata:\n\n');
                event(res, note, 'e-2');
                res.end();
                return;
            }
            sse(res);
            event(res, result(call as Seen, {content: []}), 'e-3');
        });
        await transport.send(CALL, {requestId: 9});
        assert.deepEqual(reports.messages, [note, {jsonrpc: '2.0', id: 9, result: {content: []}}]);
        assert.deepEqual(fixture.summary(), ['POST tools/call', 'GET']);
        const get = fixture.seen[1] as Seen;
        assert.deepEqual([get.headers.accept, get.headers['last-event-id']], ['text/event-stream', 'e-2']);
        await transport.close();
    },
);

test('a stream that keeps ending is resumed each time from its newest event id', GUARD, async () => {
    let call: Seen | undefined;
    let gets = 0;
    const {fixture, transport} = await open((seen, res) => {
        sse(res);
        if (seen.method === 'POST') {
            call = seen;
            res.end('id: p\ndata:\n\n');
            return;
        }
        gets += 1;
        if (gets === 1) res.end('id: q\n\n');
        else if (gets === 2) res.destroy();
        else event(res, result(call as Seen, {}));
    });
    await transport.send(CALL, {requestId: 9});
    assert.deepEqual(
        fixture.seen.map((s) => s.headers['last-event-id']),
        [undefined, 'p', 'q', 'q'],
    );
    await transport.close();
});

test(
    'an answer stream that ends before its answer, with no event id, rejects naming the request',
    GUARD,
    async () => {
        const {fixture, transport} = await open((_seen, res) => {
            sse(res);
            res.end(': nothing here\n\n');
        });
        await assert.rejects(transport.send(CALL, {requestId: 9}), {
            message: `The answer to request 9 from POST ${fixture.url()}: the SSE stream ended before the answer, with no event id to resume it from`,
        });
        assert.deepEqual(fixture.summary(), ['POST tools/call']);
        await transport.close();
    },
);

test('an answer stream whose server does not resume (405 to GET) rejects', GUARD, async () => {
    const {fixture, transport} = await open((seen, res) => {
        if (seen.method === 'GET') return status(res, 405);
        sse(res);
        res.end('id: 1\nretry: 0\ndata:\n\n');
    });
    await assert.rejects(transport.send(CALL, {requestId: 9}), {
        message:
            `The answer to request 9 from POST ${fixture.url()}: the SSE stream ended before the answer, ` +
            'and the server does not resume streams (its GET answered HTTP 405)',
    });
    await transport.close();
});

test('failed resumptions are retried and given up after reconnect.maxAttempts in a row', GUARD, async () => {
    const {fixture, transport} = await open(
        (seen, res) => {
            if (seen.method === 'GET') return status(res, 503, 'busy');
            sse(res);
            res.end('id: 1\ndata:\n\n');
        },
        {reconnect: {...FAST, maxAttempts: 3}},
    );
    const error = await transport.send(CALL, {requestId: 9}).catch((e: unknown) => e);
    assert.ok(error instanceof McpHttpError);
    assert.equal(
        error.message,
        `The answer to request 9 from POST ${fixture.url()}: GET ${fixture.url()} answered HTTP 503 Service Unavailable: busy ` +
            '(reconnection given up after 3 failed attempts)',
    );
    assert.deepEqual([error.status, (error.cause as McpHttpError).status], [503, 503]);
    assert.deepEqual(fixture.summary(), ['POST tools/call', 'GET', 'GET', 'GET']);
    await transport.close();
});

test(
    'aborting a request while its stream waits to be resumed rejects with the reason and sends no GET',
    GUARD,
    async () => {
        const {fixture, transport} = await open(
            (_seen, res) => {
                sse(res);
                res.end('id: 1\ndata:\n\n');
            },
            {reconnect: {initialDelayMs: 60_000, maxDelayMs: 60_000}},
        );
        const controller = new AbortController();
        const sent = transport.send(CALL, {requestId: 9, signal: controller.signal});
        await (await fixture.request(1)).closed;
        const reason = new Error('stop');
        controller.abort(reason);
        await assert.rejects(sent, (e) => e === reason);
        assert.deepEqual(fixture.summary(), ['POST tools/call']);
        await transport.close();
    },
);

test(
    'with listen, a GET stream opens after notifications/initialized and passes on what the server sends',
    GUARD,
    async () => {
        const changed = {jsonrpc: '2.0', method: 'notifications/tools/list_changed'};
        let gets = 0;
        const {fixture, transport, reports} = await open(
            (seen, res) => {
                if (seen.method === 'POST' && id(seen) === undefined) return status(res, 202);
                if (seen.method === 'POST') return json(res, result(seen, {}), {'mcp-session-id': 's-1'});
                if (seen.method === 'DELETE') return status(res, 204);
                gets += 1;
                if (gets === 1) {
                    sse(res);
                    event(res, changed, 'g-1');
                    return res.end();
                }
                if (gets === 2) return res.destroy();
                if (gets === 3) return status(res, 405);
            },
            {listen: true},
        );
        await transport.send(INITIALIZE, {requestId: 1});
        assert.deepEqual(fixture.summary(), ['POST initialize']);
        await transport.send(INITIALIZED);
        assert.deepEqual(await reports.message(2), changed);
        await fixture.request(5);
        await transport.close();
        assert.deepEqual(fixture.summary(), [
            'POST initialize',
            'POST notifications/initialized',
            'GET',
            'GET',
            'GET',
            'DELETE',
        ]);
        assert.deepEqual(
            fixture.seen.slice(2, 5).map((s) => s.headers['last-event-id']),
            [undefined, 'g-1', 'g-1'],
        );
        assert.deepEqual(reports.problems, []);
    },
);

test('a GET stream refused past reconnect.maxAttempts is given up and reported', GUARD, async () => {
    const {fixture, transport, reports} = await open(
        (seen, res) => {
            if (seen.method === 'GET') return status(res, 400, 'no GET here');
            if (id(seen) === undefined) return status(res, 202);
            json(res, result(seen, {}));
        },
        {listen: true, reconnect: {...FAST, maxAttempts: 2}},
    );
    await transport.send(INITIALIZE, {requestId: 1});
    await transport.send(INITIALIZED);
    const problem = await reports.problem(1);
    assert.equal(
        problem.message,
        `The standalone GET stream of ${fixture.url()} was given up, so messages the server sends on its own will not arrive`,
    );
    assert.equal(
        (problem.cause as Error).message,
        `The standalone GET stream of ${fixture.url()}: GET ${fixture.url()} answered HTTP 400 Bad Request: no GET here ` +
            '(reconnection given up after 2 failed attempts)',
    );
    assert.deepEqual(fixture.summary(), ['POST initialize', 'POST notifications/initialized', 'GET', 'GET']);
    await transport.close();
});

test('a GET stream answered with another content-type counts as a failed attempt', GUARD, async () => {
    const {transport, reports} = await open(
        (seen, res) => {
            if (seen.method === 'GET') return json(res, {});
            if (id(seen) === undefined) return status(res, 202);
            json(res, result(seen, {}));
        },
        {listen: true, reconnect: {...FAST, maxAttempts: 1}},
    );
    await transport.send(INITIALIZE, {requestId: 1});
    await transport.send(INITIALIZED);
    const problem = await reports.problem(1);
    assert.match(
        (problem.cause as Error).message,
        /answered with content-type "application\/json", not text\/event-stream/,
    );
    await transport.close();
});

test('closing clears a pending reconnection wait of the GET stream', GUARD, async () => {
    const {fixture, transport, reports} = await open(
        (seen, res) => {
            if (seen.method === 'GET') {
                sse(res);
                res.end('retry: 60000\n\n');
                return;
            }
            if (id(seen) === undefined) return status(res, 202);
            json(res, result(seen, {}), {'mcp-session-id': 'x'});
        },
        {listen: true, reconnect: {initialDelayMs: 60_000, maxDelayMs: 60_000}},
    );
    await transport.send(INITIALIZE, {requestId: 1});
    await transport.send(INITIALIZED);
    await (await fixture.request(3)).closed;
    await transport.close();
    assert.deepEqual(fixture.summary(), [
        'POST initialize',
        'POST notifications/initialized',
        'GET',
        'DELETE',
    ]);
    assert.deepEqual(reports.problems, []);
});

test('closing ends an open GET stream', GUARD, async () => {
    const {fixture, transport, reports} = await open(
        (seen, res) => {
            if (seen.method === 'GET') return sse(res);
            if (id(seen) === undefined) return status(res, 202);
            json(res, result(seen, {}));
        },
        {listen: true},
    );
    await transport.send(INITIALIZE, {requestId: 1});
    await transport.send(INITIALIZED);
    const get = await fixture.request(3);
    await transport.close();
    await get.closed;
    assert.deepEqual(fixture.summary(), ['POST initialize', 'POST notifications/initialized', 'GET']);
    assert.deepEqual(reports.problems, []);
});

test('an event on the GET stream that is not JSON is reported as such', GUARD, async () => {
    const {fixture, transport, reports} = await open(
        (seen, res) => {
            if (seen.method === 'GET') {
                sse(res);
                res.write('data: nope\n\n');
                return;
            }
            if (id(seen) === undefined) return status(res, 202);
            json(res, result(seen, {}));
        },
        {listen: true},
    );
    await transport.send(INITIALIZE, {requestId: 1});
    await transport.send(INITIALIZED);
    assert.equal(
        (await reports.problem(1)).message,
        `The standalone GET stream of ${fixture.url()}: an SSE event is not JSON: "nope"`,
    );
    await transport.close();
});

test('an error body that breaks off still gives the status, with what was read', GUARD, async () => {
    const {fixture, transport} = await open((_seen, res) => {
        res.writeHead(502, {'content-length': '100'});
        res.write('partial', () => res.destroy());
    });
    const error = (await transport.send(CALL, {requestId: 9}).catch((e: unknown) => e)) as McpHttpError;
    assert.equal(error.status, 502);
    assert.match(
        error.message,
        new RegExp(
            `^POST ${fixture.url()} answered HTTP 502 Bad Gateway: partial \\[the body broke off: .+\\]$`,
        ),
    );
    await transport.close();
});

test('an SSE event that is not JSON is reported and the stream goes on to the answer', GUARD, async () => {
    const {fixture, transport, reports} = await open((seen, res) => {
        sse(res);
        res.write('data: {not json\n\n');
        res.write('event: other\ndata: ignored\n\n');
        event(res, result(seen, {}));
    });
    await transport.send(CALL, {requestId: 9});
    assert.deepEqual(reports.messages, [{jsonrpc: '2.0', id: 9, result: {}}]);
    assert.deepEqual(
        reports.problems.map((p) => p.message),
        [`The answer to request 9 from POST ${fixture.url()}: an SSE event is not JSON: "{not json"`],
    );
    assert.ok(reports.problems[0]?.cause instanceof SyntaxError);
    await transport.close();
});

test(
    'an SSE event over maxMessageBytes is dropped and reported; a JSON body over it rejects',
    GUARD,
    async () => {
        const {fixture, transport, reports} = await open(
            (seen, res) => {
                if (id(seen) === 1) return json(res, result(seen, {big: 'x'.repeat(100)}));
                sse(res);
                res.write(`data: "${'y'.repeat(100)}"\n\n`);
                event(res, result(seen, {}));
            },
            {maxMessageBytes: 64},
        );
        await transport.send(CALL, {requestId: 9});
        assert.deepEqual(
            reports.problems.map((p) => p.message),
            [
                `The answer to request 9 from POST ${fixture.url()}: an SSE event reached 108 bytes, over maxMessageBytes (64 bytes); it was dropped`,
            ],
        );
        await assert.rejects(transport.send(INITIALIZE, {requestId: 1}), {
            message:
                `The answer to request 1 from POST ${fixture.url()}: the JSON body is larger than maxMessageBytes (64 bytes); ` +
                'raise maxMessageBytes if the server is trusted to send that much',
        });
        await transport.close();
    },
);

test('an answer that is not JSON-RPC over HTTP rejects with what was wrong', GUARD, async () => {
    const {fixture, transport, reports} = await open((seen, res) => {
        const n = id(seen);
        if (n === 1) return status(res, 202);
        if (n === 2) return status(res, 200, '<html>', {'content-type': 'text/html; charset=utf-8'});
        if (n === 3) return status(res, 200, '{"jsonrpc":', {'content-type': 'application/json'});
        if (n === 4) return json(res, {jsonrpc: '2.0', id: 99, result: {}});
        if (n === 5)
            return status(res, 200, Buffer.from([0x22, 0xff, 0x22]), {'content-type': 'application/json'});
    });
    const url = fixture.url();
    const what = (n: number) => `The answer to request ${n} from POST ${url}`;
    await assert.rejects(transport.send({...CALL, id: 1}, {requestId: 1}), {
        message: `${what(1)}: the server accepted the request (HTTP 202) but sent no answer`,
        status: 202,
    });
    await assert.rejects(transport.send({...CALL, id: 2}, {requestId: 2}), {
        message: `${what(2)}: the content-type is "text/html"; an MCP server answers application/json or text/event-stream`,
    });
    await assert.rejects(transport.send({...CALL, id: 3}, {requestId: 3}), {
        message: `${what(3)}: the body is not JSON: "{\\"jsonrpc\\":"`,
    });
    await assert.rejects(transport.send({...CALL, id: 4}, {requestId: 4}), {
        message: `${what(4)}: the JSON body holds no response with that id`,
    });
    await assert.rejects(transport.send({...CALL, id: 5}, {requestId: 5}), {
        message: `${what(5)}: the JSON body is not valid UTF-8`,
    });
    assert.deepEqual(reports.messages, [{jsonrpc: '2.0', id: 99, result: {}}]);
    await transport.close();
});

test('a session id that is not visible ASCII is refused', GUARD, async () => {
    const {fixture, transport} = await open((seen, res) =>
        json(res, result(seen, {}), {'mcp-session-id': 'a b'}),
    );
    await assert.rejects(transport.send(INITIALIZE, {requestId: 1}), {
        message:
            `POST ${fixture.url()} issued the session id "a b", which is not made of visible ASCII characters only; ` +
            'the server is not a conforming MCP server',
    });
    assert.equal(transport.sessionId, undefined);
    await transport.close();
});

test('a wait for reconnection ends at once, with the reason, when its signal aborts', GUARD, async () => {
    const transport = new HttpTransport({url: 'http://127.0.0.1:9/mcp'});
    const controller = new AbortController();
    const waiting = transport.wait(60_000, controller.signal);
    const reason = new Error('closing');
    controller.abort(reason);
    await assert.rejects(waiting, (e) => e === reason);
});

test(
    'a status without a reason phrase, a redirect without a location, and a long bad event are put plainly',
    GUARD,
    async () => {
        const {fixture, transport, reports} = await open((seen, res) => {
            if (id(seen) === 1) {
                res.writeHead(599, '');
                res.end();
                return;
            }
            if (id(seen) === 2) return status(res, 300);
            sse(res);
            res.write(`data: ${'z'.repeat(200)}\n\n`);
            event(res, result(seen, {}));
        });
        await assert.rejects(transport.send({...CALL, id: 1}, {requestId: 1}), {
            message: `POST ${fixture.url()} answered HTTP 599`,
        });
        await assert.rejects(transport.send({...CALL, id: 2}, {requestId: 2}), {
            message: `POST ${fixture.url()} answered HTTP 300 Multiple Choices`,
        });
        await transport.send(CALL, {requestId: 9});
        assert.deepEqual(
            reports.problems.map((p) => p.message),
            [
                `The answer to request 9 from POST ${fixture.url()}: an SSE event is not JSON: "${'z'.repeat(120)}"…`,
            ],
        );
        await transport.close();
    },
);
