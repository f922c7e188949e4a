/** `Accept` ranges: the most specific match decides, and `q=0` refuses. */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {accepts} from '../../../lib/mcp/http/body.js';
import {ENDPOINT, errorBody, Gate, initializeBody, makeHandler, modern, post, read, text} from './support.js';

const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';

describe('accepts', () => {
    test('q=0 refuses a range, in any spelling of zero', () => {
        for (const zero of ['q=0', 'q=0.', 'q=0.0', 'q=0.000', ' Q = 0 ']) {
            assert.equal(accepts(`${SSE};${zero}`, SSE), false, zero);
        }
        for (const some of ['q=0.001', 'q=1', 'q=0.5', 'level=0']) {
            assert.equal(accepts(`${SSE};${some}`, SSE), true, some);
        }
    });

    test('the most specific matching range decides', () => {
        assert.equal(accepts(`*/*, ${SSE};q=0`, SSE), false);
        assert.equal(accepts(`*/*, ${SSE};q=0`, JSON_TYPE), true);
        assert.equal(accepts(`text/*;q=0, ${SSE}`, SSE), true);
        assert.equal(accepts(`text/*, ${SSE};q=0.0`, SSE), false);
        assert.equal(accepts('*/*;q=0', JSON_TYPE), false);
        assert.equal(accepts(`${JSON_TYPE};q=0, ${JSON_TYPE}`, JSON_TYPE), true);
        assert.equal(accepts('text/html', SSE), false);
        assert.equal(accepts(null, SSE), true);
    });
});

describe('the handler and q=0', () => {
    test('a POST that refuses both answer types is 406', async () => {
        const {handler} = makeHandler();
        const refused = await handler.fetch(post(initializeBody(), {accept: `${JSON_TYPE};q=0, ${SSE};q=0`}));
        assert.deepEqual(await read(refused), [
            406,
            'application/json',
            errorBody(
                undefined,
                -32600,
                'Not Acceptable: answers are application/json or text/event-stream; list both in Accept',
            ),
        ]);
        assert.equal(handler.sessionCount, 0);
    });

    test('a POST that refuses SSE gets its answer as JSON even after progress', async () => {
        const gate = new Gate();
        const {handler} = makeHandler(gate);
        const pending = handler.fetch(
            modern(1, 'tools/call', {name: 'steps', _meta: {progressToken: 1}}, {accept: `*/*, ${SSE};q=0`}),
        );
        await gate.started(1);
        gate.release(0, text('done'));
        const [status, type, body] = await read(await pending);
        assert.deepEqual([status, type], [200, 'application/json']);
        assert.match(body, /^\{"jsonrpc":"2\.0","id":1,"result":\{.*"text":"done"\}\]\}\}\n$/);
    });

    test('a 2026-07-28 POST that refuses JSON gets its answer as an SSE stream, with no notification before it', async () => {
        const {handler} = makeHandler();
        const call = (accept?: string) =>
            handler.fetch(
                modern(1, 'tools/call', {name: 'echo', arguments: {}}, accept === undefined ? {} : {accept}),
            );
        const [status, type, json] = await read(await call());
        assert.deepEqual([status, type], [200, JSON_TYPE]);
        assert.deepEqual(await read(await call(`${JSON_TYPE};q=0, ${SSE}`)), [
            200,
            SSE,
            `event: message\ndata: ${json.slice(0, -1)}\n\n`,
        ]);
        // An unknown method too: its 404 is a JSON answer's status, the stream's is 200.
        assert.deepEqual(
            await read(await handler.fetch(modern(2, 'no/such', {}, {accept: `*/*;q=0, ${SSE}`}))),
            [
                200,
                SSE,
                'event: message\ndata: {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: \\"no/such\\""}}\n\n',
            ],
        );
    });

    test('a legacy POST that refuses JSON gets its answer as an SSE stream, initialize with its session id', async () => {
        const {handler} = makeHandler();
        const accept = `${JSON_TYPE};q=0, ${SSE}`;
        const opened = await handler.fetch(post(initializeBody(), {accept}));
        const session = opened.headers.get('mcp-session-id');
        assert.equal(typeof session, 'string');
        const [status, type, body] = await read(opened);
        assert.deepEqual([status, type], [200, SSE]);
        assert.match(
            body,
            /^event: message\ndata: \{"jsonrpc":"2\.0","id":0,"result":\{"protocolVersion":"2025-11-25",.*\}\n\n$/,
        );
        const listed = await handler.fetch(
            post(
                {jsonrpc: '2.0', id: 1, method: 'ping'},
                {accept, 'mcp-session-id': session as string, 'mcp-protocol-version': '2025-11-25'},
            ),
        );
        assert.deepEqual(await read(listed), [
            200,
            SSE,
            'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
        ]);
        await handler.close();
    });

    test('a GET that refuses SSE is 406', async () => {
        const {handler} = makeHandler();
        const opened = await handler.fetch(post(initializeBody()));
        await opened.text();
        const session = opened.headers.get('mcp-session-id') as string;
        const refused = await handler.fetch(
            new Request(ENDPOINT, {headers: {'mcp-session-id': session, accept: `${SSE};q=0`}}),
        );
        assert.deepEqual(await read(refused), [
            406,
            'application/json',
            errorBody(undefined, -32600, 'Not Acceptable: a GET stream is text/event-stream; accept it'),
        ]);
    });
});
