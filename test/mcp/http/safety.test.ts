import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createMcpHttpHandler} from '../../../lib/mcp/http/index.js';
import {errorBody, Gate, initializeBody, makeHandler, modern, post, read, SERVER_INFO} from './support.js';

const at = (url: string, headers: Record<string, string> = {}) =>
    new Request(url, {
        method: 'POST',
        headers: {'content-type': 'application/json', ...headers},
        body: JSON.stringify(initializeBody()),
    });

describe('HTTP safety', () => {
    test('by default only loopback hosts and loopback origins are served (DNS rebinding)', async () => {
        const {handler} = makeHandler();
        for (const url of ['http://127.0.0.1:9/mcp', 'http://localhost/mcp', 'http://[::1]:80/mcp']) {
            assert.equal((await handler.fetch(at(url, {origin: 'http://localhost:3000'}))).status, 200, url);
        }
        assert.deepEqual(await read(await handler.fetch(at('http://evil.example.com/mcp'))), [
            403,
            'application/json',
            errorBody(undefined, -32600, 'Forbidden: Host "evil.example.com" is not allowed (allowedHosts)'),
        ]);
        const evilOrigin = at('http://127.0.0.1/mcp', {origin: 'http://evil.example.com'});
        assert.deepEqual(await read(await handler.fetch(evilOrigin)), [
            403,
            'application/json',
            errorBody(
                undefined,
                -32600,
                'Forbidden: Origin "http://evil.example.com" is not allowed (allowedOrigins)',
            ),
        ]);
        const nullOrigin = at('http://127.0.0.1/mcp', {origin: 'null'});
        assert.equal((await handler.fetch(nullOrigin)).status, 403);
    });

    test('allowedOrigins and allowedHosts replace the loopback defaults; "any" turns a check off', async () => {
        const {handler} = makeHandler(new Gate(), {
            allowedHosts: ['mcp.example.com'],
            allowedOrigins: ['https://app.example.com'],
        });
        assert.equal(
            (await handler.fetch(at('https://mcp.example.com/mcp', {origin: 'https://app.example.com'})))
                .status,
            200,
        );
        assert.equal(
            (await handler.fetch(at('https://mcp.example.com/mcp', {origin: 'http://localhost'}))).status,
            403,
        );
        assert.equal((await handler.fetch(at('http://127.0.0.1/mcp'))).status, 403);
        const open = makeHandler(new Gate(), {allowedHosts: 'any', allowedOrigins: 'any'}).handler;
        assert.equal(
            (await open.fetch(at('http://anything.example/mcp', {origin: 'https://x.example'}))).status,
            200,
        );
    });

    test('a body over maxMessageBytes is refused 413, declared or streamed', async () => {
        const {handler} = makeHandler(new Gate(), {maxMessageBytes: 64});
        const big = JSON.stringify({...initializeBody(), padding: 'x'.repeat(100)});
        const declared = await handler.fetch(post(big));
        assert.deepEqual(await read(declared), [
            413,
            'application/json',
            errorBody(
                undefined,
                -32600,
                `The request body of ${big.length} bytes or more exceeds the limit of 64 bytes (maxMessageBytes)`,
            ),
        ]);
        const bytes = new TextEncoder().encode(big);
        const streamed = new ReadableStream<Uint8Array>({
            start(controller) {
                controller.enqueue(bytes.subarray(0, 40));
                controller.enqueue(bytes.subarray(40));
                controller.close();
            },
        });
        const request = new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: {'content-type': 'application/json'},
            body: streamed,
            duplex: 'half',
        } as RequestInit);
        assert.deepEqual(await read(await handler.fetch(request)), [
            413,
            'application/json',
            errorBody(
                undefined,
                -32600,
                `The request body of ${big.length} bytes or more exceeds the limit of 64 bytes (maxMessageBytes)`,
            ),
        ]);
    });

    test('malformed input is answered with its status and code, never a crash', async () => {
        const {handler} = makeHandler();
        const cases: [Request, number, string][] = [
            [
                post('{"jsonrpc":'),
                400,
                errorBody(undefined, -32700, `Parse error: ${parseMessage('{"jsonrpc":')}`),
            ],
            [
                post(new Uint8Array([0x7b, 0xff, 0x7d])),
                400,
                errorBody(undefined, -32700, 'Parse error: the request body is not valid UTF-8'),
            ],
            [
                post('[]'),
                400,
                errorBody(
                    undefined,
                    -32600,
                    'Invalid Request: JSON-RPC batches are not supported; send each message as its own POST',
                ),
            ],
            [
                post([initializeBody()]),
                400,
                errorBody(
                    undefined,
                    -32600,
                    'Invalid Request: JSON-RPC batches are not supported; send each message as its own POST',
                ),
            ],
            [
                post('42'),
                400,
                errorBody(undefined, -32600, 'Invalid Request: the body must be one JSON-RPC message object'),
            ],
            [
                post('{"jsonrpc":"1.0","id":1,"method":"initialize"}'),
                400,
                errorBody(1, -32600, 'The "jsonrpc" member must be exactly "2.0"'),
            ],
            [
                post('{"jsonrpc":"2.0","id":1,"method":"x"}', {'content-type': 'text/plain'}),
                415,
                errorBody(
                    undefined,
                    -32600,
                    'Unsupported Content-Type "text/plain": send the JSON-RPC message as application/json',
                ),
            ],
            [
                post('{}', {accept: 'text/html'}),
                406,
                errorBody(
                    undefined,
                    -32600,
                    'Not Acceptable: answers are application/json or text/event-stream; list both in Accept',
                ),
            ],
        ];
        for (const [request, status, body] of cases) {
            assert.deepEqual(await read(await handler.fetch(request)), [status, 'application/json', body]);
        }
        const noType = new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            body: new Uint8Array([0x7b, 0x7d]),
        });
        assert.equal((await handler.fetch(noType)).status, 415);
        const charset = post(initializeBody(), {'content-type': 'Application/JSON; charset=utf-8'});
        assert.equal((await handler.fetch(charset)).status, 200);
    });

    test('a request body that fails while read is answered 400', async () => {
        const {handler} = makeHandler();
        const failing = new ReadableStream<Uint8Array>({
            pull(controller) {
                controller.error(new Error('socket reset'));
            },
        });
        const request = new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: {'content-type': 'application/json'},
            body: failing,
            duplex: 'half',
        } as RequestInit);
        assert.deepEqual(await read(await handler.fetch(request)), [
            400,
            'application/json',
            errorBody(undefined, -32600, 'The request body could not be read'),
        ]);
    });

    test('the options are checked with errors that say what to fix', () => {
        const base = {serverInfo: SERVER_INFO};
        assert.throws(() => createMcpHttpHandler(null as never), {
            name: 'TypeError',
            message: 'createMcpHttpHandler(options) needs an options object, got null',
        });
        assert.throws(() => createMcpHttpHandler({...base, allowedOrigins: 'all' as never}), {
            name: 'TypeError',
            message: `createMcpHttpHandler: allowedOrigins must be an array of non-empty strings or 'any', got the string "all"`,
        });
        assert.throws(() => createMcpHttpHandler({...base, maxSessions: 0}), {
            name: 'RangeError',
            message: 'createMcpHttpHandler: maxSessions must be a positive integer, got 0',
        });
        assert.throws(() => createMcpHttpHandler({...base, sessionIdleTimeoutMs: '5' as never}), {
            name: 'TypeError',
            message: 'createMcpHttpHandler: sessionIdleTimeoutMs must be a number, got the string "5"',
        });
        // The catalog options are checked by the core, in the name of the entry the caller used.
        assert.throws(() => createMcpHttpHandler({...base, logging: 'loud' as never}), {
            name: 'RangeError',
            message:
                'createMcpHttpHandler: logging "loud" is not a log level; the levels are debug, info, notice, warning, error, critical, alert, emergency',
        });
        assert.throws(
            () => createMcpHttpHandler({...base, tools: 1 as never}),
            (error: unknown) => {
                assert.ok(error instanceof TypeError);
                assert.match(error.message, /^createMcpHttpHandler: tools /);
                return true;
            },
        );
        // Node fires a longer timer after 1 ms: such a session would end at once.
        for (const value of [2 ** 31, 2 ** 32]) {
            assert.throws(() => createMcpHttpHandler({...base, sessionIdleTimeoutMs: value}), {
                name: 'RangeError',
                message: `createMcpHttpHandler: sessionIdleTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, got ${value}`,
            });
        }
        assert.doesNotThrow(() => createMcpHttpHandler({...base, sessionIdleTimeoutMs: 2 ** 31 - 1}));
        assert.throws(() => createMcpHttpHandler({...base, onSessionEnd: 1 as never}), {
            name: 'TypeError',
            message: 'createMcpHttpHandler: onSessionEnd must be a function, got number 1',
        });
        assert.throws(() => createMcpHttpHandler({...base, onDiagnostic: 1 as never}), {
            name: 'TypeError',
            message: 'createMcpHttpHandler: onDiagnostic must be a function, got number 1',
        });
        assert.throws(() => createMcpHttpHandler({...base, outputHighWaterMark: 1} as never), {
            name: 'TypeError',
            message:
                'createMcpHttpHandler: outputHighWaterMark is a stdio option; an HTTP answer is bounded by its own stream',
        });
        const tool = (schema: object) => ({
            ...base,
            tools: [
                {
                    name: 't',
                    inputSchema: {type: 'object' as const, properties: schema},
                    handler: () => ({content: []}),
                },
            ],
        });
        assert.throws(() => createMcpHttpHandler(tool({a: {type: 'number', 'x-mcp-header': 'A'}})), {
            name: 'TypeError',
            message:
                'createMcpHttpHandler: tool "t" puts x-mcp-header on a, whose type is "number"; only string, integer and boolean parameters can be headers',
        });
        // Annotations off the chain of "properties" keys make the tool invalid for every client.
        const unreachable = (where: string) =>
            `createMcpHttpHandler: tool "t" has an x-mcp-header at ${where}, which is not reached from the ` +
            'schema root through "properties" alone; put it on a property of such a chain';
        const off = {type: 'string', 'x-mcp-header': 'A'};
        for (const [schema, where] of [
            [{a: {type: 'array', items: off}}, 'inputSchema.properties.a.items'],
            [{a: {anyOf: [{type: 'null'}, off]}}, 'inputSchema.properties.a.anyOf[1]'],
            [
                {a: {type: 'object', additionalProperties: off}},
                'inputSchema.properties.a.additionalProperties',
            ],
            [
                {a: {type: 'array', items: {type: 'object', properties: {b: off}}}},
                'inputSchema.properties.a.items.properties.b',
            ],
        ] as const) {
            assert.throws(() => createMcpHttpHandler(tool(schema)), {
                name: 'TypeError',
                message: unreachable(where),
            });
        }
        assert.throws(
            () =>
                createMcpHttpHandler({
                    ...base,
                    tools: [
                        {
                            name: 't',
                            inputSchema: {type: 'object', 'x-mcp-header': 'Root'},
                            handler: () => ({content: []}),
                        },
                    ],
                }),
            {name: 'TypeError', message: unreachable('inputSchema')},
        );
        // A property that is merely named "x-mcp-header", and a nested chain, are fine.
        assert.doesNotThrow(() =>
            createMcpHttpHandler(
                tool({
                    'x-mcp-header': {type: 'string'},
                    o: {type: 'object', properties: {r: {...off, 'x-mcp-header': 'R'}}},
                }),
            ),
        );
        assert.throws(() => createMcpHttpHandler(tool({a: {type: 'string', 'x-mcp-header': 'A B'}})), {
            name: 'TypeError',
            message: `createMcpHttpHandler: tool "t" has an x-mcp-header at a that is not an HTTP token (letters, digits and !#$%&'*+.^_\`|~-): "A B"`,
        });
        assert.throws(
            () =>
                createMcpHttpHandler(
                    tool({
                        a: {type: 'string', 'x-mcp-header': 'A'},
                        b: {type: 'string', 'x-mcp-header': 'a'},
                    }),
                ),
            {
                name: 'TypeError',
                message:
                    'createMcpHttpHandler: tool "t" repeats the x-mcp-header "mcp-param-a"; each must be unique, case-insensitively',
            },
        );
    });

    test('fetch rejects a value that is not a Request; a fault inside is answered 500', async () => {
        const {handler, diagnostics} = makeHandler();
        await assert.rejects(handler.fetch({} as never), {
            name: 'TypeError',
            message: 'handler.fetch(request) needs a Web-standard Request, got an object',
        });
        const broken = new Request('http://127.0.0.1/mcp', {method: 'POST'});
        Object.defineProperty(broken, 'url', {get: () => 'not a url'});
        assert.deepEqual(await read(await handler.fetch(broken)), [
            500,
            'application/json',
            errorBody(
                undefined,
                -32603,
                'Internal error in the MCP HTTP handler; the server diagnostics have the details',
            ),
        ]);
        assert.equal(diagnostics.length, 1);
        assert.match(diagnostics[0] as string, /An HTTP request failed inside the MCP handler; answered 500/);
        void modern;
    });
});

function parseMessage(text: string): string {
    try {
        JSON.parse(text);
    } catch (error) {
        return (error as Error).message;
    }
    return '';
}
