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

    test('every standard header rule: 400 and -32020', async () => {
        const {handler} = makeHandler();
        const cases: [Request, string][] = [
            [
                post(
                    {jsonrpc: '2.0', id: 1, method: 'tools/list', params: {_meta: {}}},
                    {'mcp-method': 'tools/list'},
                ),
                'the MCP-Protocol-Version header is required',
            ],
            [
                modern(1, 'tools/list', {}, {'mcp-method': ''}),
                'Mcp-Method header value "" does not match body method "tools/list"',
            ],
            [
                modern(1, 'tools/list', {}, {'mcp-method': 'TOOLS/LIST'}),
                'Mcp-Method header value "TOOLS/LIST" does not match body method "tools/list"',
            ],
            [
                modern(1, 'tools/call', {name: 'echo'}, {'mcp-name': 'other'}),
                'Mcp-Name header value "other" does not match body value "echo"',
            ],
            [
                modern(1, 'resources/read', {uri: 'mem://a'}, {'mcp-name': 'mem://b'}),
                'Mcp-Name header value "mem://b" does not match body value "mem://a"',
            ],
            [
                modern(1, 'tools/list', {}, {'mcp-protocol-version': '2025-11-25'}),
                'MCP-Protocol-Version header value "2025-11-25" does not match params._meta["io.modelcontextprotocol/protocolVersion"] "2026-07-28"',
            ],
        ];
        for (const [request, message] of cases) {
            assert.deepEqual(await read(await handler.fetch(request)), [
                400,
                'application/json',
                errorBody(1, -32020, `Header mismatch: ${message}`),
            ]);
        }
        const missing = new Request(modern(1, 'tools/call', {name: 'echo'}));
        missing.headers.delete('mcp-name');
        assert.deepEqual(await read(await handler.fetch(missing)), [
            400,
            'application/json',
            errorBody(1, -32020, 'Header mismatch: the Mcp-Name header is required'),
        ]);
        const noMethod = new Request(modern(1, 'tools/list'));
        noMethod.headers.delete('mcp-method');
        assert.deepEqual(await read(await handler.fetch(noMethod)), [
            400,
            'application/json',
            errorBody(1, -32020, 'Header mismatch: the Mcp-Method header is required'),
        ]);
    });

    test('header names are case-insensitive and surrounding whitespace is ignored', async () => {
        const {handler} = makeHandler();
        const request = new Request(modern(1, 'tools/call', {name: 'echo'}));
        request.headers.delete('mcp-name');
        request.headers.set('MCP-NAME', '  echo  ');
        request.headers.set('MCP-METHOD', 'tools/call');
        const response = await handler.fetch(request);
        assert.equal(response.status, 200);
    });

    test('the Base64 sentinel form is decoded; a malformed one is refused', async () => {
        const {handler} = makeHandler();
        const encoded = (value: string) => `=?base64?${Buffer.from(value).toString('base64')}?=`;
        const call = (region: unknown, header: string) =>
            handler.fetch(
                modern(1, 'tools/call', {name: 'echo', arguments: {region}}, {'mcp-param-region': header}),
            );
        assert.equal((await call('Hello, 世界', encoded('Hello, 世界'))).status, 200);
        assert.equal((await call('=?base64?x?=', encoded('=?base64?x?='))).status, 200);
        // Without both markers the value is literal.
        assert.equal((await call('=?base64?SGVsbG8=', '=?base64?SGVsbG8=')).status, 200);
        assert.deepEqual(await read(await call('Hello', '=?base64?SGVsbG8?=')), [
            400,
            'application/json',
            errorBody(1, -32020, 'Header mismatch: the Mcp-Param-Region header value is malformed'),
        ]);
        assert.deepEqual(await read(await call('Hello', '=?base64?SGVs!!!bG8=?=')), [
            400,
            'application/json',
            errorBody(1, -32020, 'Header mismatch: the Mcp-Param-Region header value is malformed'),
        ]);
        const name = handler.fetch(modern(1, 'tools/call', {name: 'echo'}, {'mcp-name': encoded('echo')}));
        assert.equal((await name).status, 200);
    });

    test('Mcp-Param-* headers from x-mcp-header: required when the value is there, compared by type', async () => {
        const {handler} = makeHandler();
        const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
            handler.fetch(modern(1, 'tools/call', {name: 'echo', arguments: args}, headers));
        assert.equal(
            (
                await call(
                    {count: 42, on: false, nested: {zone: 'z'}},
                    {'mcp-param-count': '42.0', 'mcp-param-on': 'false', 'mcp-param-zone': 'z'},
                )
            ).status,
            200,
        );
        assert.equal((await call({region: null}, {})).status, 200);
        assert.deepEqual(await read(await call({region: 'eu'}, {})), [
            400,
            'application/json',
            errorBody(
                1,
                -32020,
                'Header mismatch: the Mcp-Param-Region header is required: arguments.region has a value',
            ),
        ]);
        assert.deepEqual(await read(await call({count: 42}, {'mcp-param-count': '43'})), [
            400,
            'application/json',
            errorBody(
                1,
                -32020,
                'Header mismatch: Mcp-Param-Count header value "43" does not match arguments.count 42',
            ),
        ]);
        assert.deepEqual(await read(await call({on: true}, {'mcp-param-on': 'TRUE'})), [
            400,
            'application/json',
            errorBody(
                1,
                -32020,
                'Header mismatch: Mcp-Param-On header value "TRUE" does not match arguments.on true',
            ),
        ]);
        assert.deepEqual(await read(await call({}, {'mcp-param-zone': 'z'})), [
            400,
            'application/json',
            errorBody(
                1,
                -32020,
                'Header mismatch: Mcp-Param-Zone header value "z" does not match arguments.nested.zone null',
            ),
        ]);
        // A header no tool declares passes through untouched.
        assert.equal((await call({}, {'mcp-param-other': 'x'})).status, 200);
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
