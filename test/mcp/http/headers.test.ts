import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {errorBody, makeHandler, modern, post, read} from './support.js';

describe('the 2026-07-28 request headers', () => {
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

    test('a method named like an Object.prototype member is not a named method: 404, not a header mismatch', async () => {
        const {handler} = makeHandler();
        for (const method of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
            const request = modern(1, method, {name: 'echo'}, {'mcp-name': 'x'});
            assert.deepEqual(await read(await handler.fetch(request)), [
                404,
                'application/json',
                errorBody(1, -32601, `Method not found: ${JSON.stringify(method)}`),
            ]);
        }
    });
});
