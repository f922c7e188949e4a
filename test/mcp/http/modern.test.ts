import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
    errorBody,
    events,
    type Gate,
    MODERN,
    makeHandler,
    modern,
    post,
    read,
    SERVER_META,
    text,
} from './support.js';

const LIST = `{"resultType":"complete",${SERVER_META},"tools":`;

describe('the 2026-07-28 era over HTTP', () => {
    test('answers a plain request with application/json and status 200', async () => {
        const {handler} = makeHandler();
        const [status, type, body] = await read(
            await handler.fetch(modern(1, 'tools/call', {name: 'echo', arguments: {}})),
        );
        assert.deepEqual([status, type], [200, 'application/json']);
        assert.equal(
            body,
            `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",${SERVER_META},"content":[{"type":"text","text":"{}"}]}}\n`,
        );
        const list = await read(await handler.fetch(modern(2, 'tools/list')));
        assert.equal(list[0], 200);
        assert.ok(list[2].startsWith(`{"jsonrpc":"2.0","id":2,"result":${LIST}`));
    });

    test('keeps request ids of concurrent clients apart: each request has its own session', async () => {
        const {handler, gate} = makeHandler();
        const first = handler.fetch(modern(7, 'tools/call', {name: 'wait'}));
        const second = handler.fetch(modern(7, 'tools/call', {name: 'wait'}));
        await gate.started(2);
        gate.release(1, text('second'));
        gate.release(0, text('first'));
        assert.match((await read(await first))[2], /"text":"first"/);
        assert.match((await read(await second))[2], /"text":"second"/);
    });

    test('streams progress as SSE before the response, then ends the stream', async () => {
        const {handler, gate} = makeHandler();
        const response = await handler.fetch(
            modern(3, 'tools/call', {name: 'steps', _meta: {progressToken: 'p'}}),
        );
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'text/event-stream');
        assert.equal(response.headers.get('x-accel-buffering'), 'no');
        const stream = events(response);
        assert.equal(
            await stream.next(),
            'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2}}',
        );
        await gate.started(1);
        gate.release(0, text('done'));
        assert.equal(
            await stream.next(),
            `event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"resultType":"complete",${SERVER_META},"content":[{"type":"text","text":"done"}]}}`,
        );
        assert.equal(await stream.next(), undefined);
    });

    test('progress a slow client has not read yet is replaced by newer progress, not queued', async () => {
        const {handler, gate} = makeHandler();
        const response = await handler.fetch(
            modern(8, 'tools/call', {name: 'burst', _meta: {progressToken: 'b'}}),
        );
        await gate.started(1);
        const stream = events(response);
        assert.equal(await stream.next(), burstProgress(1));
        assert.equal(await stream.next(), burstProgress(100));
        gate.release(0, text('burst done'));
        assert.match((await stream.next()) as string, /"id":8,"result":.*"burst done"/);
        assert.equal(await stream.next(), undefined);
    });

    test('progress still waiting when the answer comes is withdrawn, as on stdio', async () => {
        const {handler, gate} = makeHandler();
        const response = await handler.fetch(
            modern(9, 'tools/call', {name: 'burst', _meta: {progressToken: 'b'}}),
        );
        await gate.started(1);
        gate.release(0, text('burst done'));
        await handler.drain();
        const stream = events(response);
        assert.equal(await stream.next(), burstProgress(1));
        assert.match((await stream.next()) as string, /"id":9,"result":.*"burst done"/);
        assert.equal(await stream.next(), undefined);
    });

    test('answers JSON and drops progress when the client accepts no event stream', async () => {
        const {handler, gate} = makeHandler();
        const pending = handler.fetch(
            modern(4, 'tools/call', {name: 'steps', _meta: {progressToken: 1}}, {accept: 'application/json'}),
        );
        await gate.started(1);
        gate.release(0, text('quiet'));
        const [status, type, body] = await read(await pending);
        assert.deepEqual([status, type], [200, 'application/json']);
        assert.match(body, /"text":"quiet"/);
    });

    test('a client that closes the stream cancels the handler with the identical reason; nothing more is written', async () => {
        const {handler, gate} = makeHandler();
        const response = await handler.fetch(
            modern(5, 'tools/call', {name: 'steps', _meta: {progressToken: 1}}),
        );
        const stream = events(response);
        await stream.next();
        await gate.started(1);
        const reason = new Error('user left');
        await stream.cancel(reason);
        const context = gate.contexts[0] as Gate['contexts'][number];
        assert.equal(context.signal.aborted, true);
        assert.equal(context.signal.reason, reason);
        assert.equal(context.reportProgress({progress: 2}), false);
        await handler.drain();
    });

    test('a request whose signal aborts before the answer cancels the handler', async () => {
        const {handler, gate} = makeHandler();
        const controller = new AbortController();
        const pending = handler.fetch(
            modern(6, 'tools/call', {name: 'wait'}, {}, {signal: controller.signal}),
        );
        await gate.started(1);
        const reason = new Error('gone');
        controller.abort(reason);
        assert.equal(gate.contexts[0]?.signal.reason, reason);
        assert.equal((await pending).status, 499);
        await handler.drain();
    });

    test('the envelope: missing _meta 400 -32602, unknown revision 400 -32022, unknown method 404 -32601', async () => {
        const {handler} = makeHandler();
        const bare = post(
            {jsonrpc: '2.0', id: 1, method: 'tools/list'},
            {'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list'},
        );
        assert.deepEqual(await read(await handler.fetch(bare)), [
            400,
            'application/json',
            errorBody(
                1,
                -32602,
                'tools/list needs params._meta["io.modelcontextprotocol/protocolVersion"] and the client\'s capabilities (protocol revision 2026-07-28)',
            ),
        ]);
        const future = modern(
            1,
            'tools/list',
            {_meta: {'io.modelcontextprotocol/protocolVersion': '2099-01-01'}},
            {'mcp-protocol-version': '2099-01-01'},
        );
        const [status, , body] = await read(await handler.fetch(future));
        assert.equal(status, 400);
        assert.deepEqual(JSON.parse(body).error.code, -32022);
        assert.deepEqual(JSON.parse(body).error.data, {
            supported: [MODERN, '2025-11-25'],
            requested: '2099-01-01',
        });
        const noCaps = modern(1, 'tools/list', {
            _meta: {'io.modelcontextprotocol/clientCapabilities': undefined},
        });
        assert.equal((await handler.fetch(noCaps)).status, 400);
        for (const method of ['initialize', 'ping', 'prompts/nope']) {
            assert.deepEqual(await read(await handler.fetch(modern(1, method))), [
                404,
                'application/json',
                errorBody(1, -32601, `Method not found: ${JSON.stringify(method)}`),
            ]);
        }
        const initialize = post(
            {jsonrpc: '2.0', id: 1, method: 'initialize'},
            {'mcp-protocol-version': MODERN, 'mcp-method': 'initialize'},
        );
        assert.deepEqual(await read(await handler.fetch(initialize)), [
            404,
            'application/json',
            errorBody(1, -32601, 'Method not found: "initialize"'),
        ]);
    });

    test('a notification is accepted 202; a response is refused 400; Mcp-Session-Id is ignored', async () => {
        const {handler} = makeHandler();
        const note = post(
            {jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1}},
            {'mcp-protocol-version': MODERN},
        );
        assert.deepEqual(await read(await handler.fetch(note)), [202, null, '']);
        const answer = post({jsonrpc: '2.0', id: 1, result: {}}, {'mcp-protocol-version': MODERN});
        assert.deepEqual(await read(await handler.fetch(answer)), [
            400,
            'application/json',
            errorBody(
                undefined,
                -32600,
                'Invalid Request: this server sends no requests, so a client sends it no responses',
            ),
        ]);
        const withSession = await handler.fetch(modern(1, 'tools/list', {}, {'mcp-session-id': 'whatever'}));
        assert.equal(withSession.status, 200);
        assert.equal(withSession.headers.get('mcp-session-id'), null);
        assert.equal(handler.sessionCount, 0);
    });

    test('GET and DELETE are 405 without a legacy session', async () => {
        const {handler} = makeHandler();
        for (const method of ['GET', 'DELETE', 'PUT']) {
            const response = await handler.fetch(new Request('http://127.0.0.1/mcp', {method}));
            assert.equal(response.status, 405);
            assert.equal(response.headers.get('allow'), 'POST');
        }
    });
});

function burstProgress(value: number): string {
    return `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"b","progress":${value}}}`;
}
