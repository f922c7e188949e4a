/** `context.http`: the headers of the POST that carried a call, in both eras; absent over stdio. */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {HandlerContext, McpTool} from '../../../lib/mcp/http/index.js';
import {harness} from '../../helpers/streams.js';
import {
    ENDPOINT,
    initializeBody,
    LEGACY,
    makeHandler,
    modern,
    post,
    read,
    SERVER_META,
    text,
} from './support.js';

/** A tool that answers whom the bearer token names, refusing a call without a known one. */
function whoami(contexts: HandlerContext[]): McpTool {
    return {
        name: 'whoami',
        inputSchema: {type: 'object'},
        handler: (_args, context) => {
            contexts.push(context);
            const token = context.http?.headers.get('authorization')?.match(/^Bearer (.+)$/)?.[1];
            if (token !== 'secret-a' && token !== 'secret-b') {
                return {content: [{type: 'text', text: 'Unauthorized'}], isError: true};
            }
            return text(`${token} of tenant ${context.http?.headers.get('x-tenant')}`);
        },
    };
}

const result = (id: number, value: string, isError = false) =>
    `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${value}"}]${isError ? ',"isError":true' : ''}}}\n`;

/** The same, as a 2026-07-28 answer. */
const modernResult = (id: number, value: string, isError = false) =>
    `{"jsonrpc":"2.0","id":${id},"result":{"resultType":"complete",${SERVER_META},"content":[{"type":"text","text":"${value}"}]${isError ? ',"isError":true' : ''}}}\n`;

describe('context.http', () => {
    test('a 2026-07-28 call sees the headers of its own POST', async () => {
        const contexts: HandlerContext[] = [];
        const {handler} = makeHandler(undefined, {tools: [whoami(contexts)]});
        const first = await handler.fetch(
            modern(
                1,
                'tools/call',
                {name: 'whoami'},
                {authorization: 'Bearer secret-a', 'x-tenant': 'north'},
            ),
        );
        assert.deepEqual(await read(first), [
            200,
            'application/json',
            modernResult(1, 'secret-a of tenant north'),
        ]);
        const second = await handler.fetch(modern(2, 'tools/call', {name: 'whoami'}));
        assert.deepEqual(await read(second), [
            200,
            'application/json',
            modernResult(2, 'Unauthorized', true),
        ]);
        const [a, b] = contexts;
        assert.ok(a?.http !== undefined && b?.http !== undefined);
        assert.ok(a.http.headers instanceof Headers);
        assert.equal(a.http.headers.get('mcp-method'), 'tools/call');
        assert.equal(b.http.headers.get('authorization'), null);
        assert.deepEqual(Object.keys(a.http), ['headers']);
        // Own and enumerable, so a spread context keeps it; the context stays frozen.
        assert.equal({...a}.http, a.http);
        assert.equal(Object.isFrozen(a), true);
    });

    test('a legacy call sees the headers of its own POST, not those of initialize', async () => {
        const contexts: HandlerContext[] = [];
        const {handler} = makeHandler(undefined, {tools: [whoami(contexts)]});
        const opened = await handler.fetch(post(initializeBody(), {authorization: 'Bearer secret-a'}));
        assert.equal(opened.status, 200);
        await opened.text();
        const session = opened.headers.get('mcp-session-id') as string;
        const call = (id: number, headers: Record<string, string>) =>
            handler.fetch(
                post(
                    {jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'whoami'}},
                    {'mcp-session-id': session, 'mcp-protocol-version': LEGACY, ...headers},
                ),
            );
        assert.deepEqual(await read(await call(1, {authorization: 'Bearer secret-b', 'x-tenant': 'south'})), [
            200,
            'application/json',
            result(1, 'secret-b of tenant south'),
        ]);
        assert.deepEqual(await read(await call(2, {})), [
            200,
            'application/json',
            result(2, 'Unauthorized', true),
        ]);
        assert.equal(contexts.length, 2);
        assert.equal(contexts[0]?.http?.headers.get('mcp-session-id'), session);
        assert.equal(contexts[1]?.http?.headers.get('authorization'), null);
    });

    test('a request that is not a call leaves no HTTP request behind for a later call', async () => {
        const contexts: HandlerContext[] = [];
        const {handler} = makeHandler(undefined, {tools: [whoami(contexts)]});
        const opened = await handler.fetch(post(initializeBody()));
        await opened.text();
        const session = opened.headers.get('mcp-session-id') as string;
        const note = await handler.fetch(
            post(
                {jsonrpc: '2.0', method: 'notifications/initialized'},
                {'mcp-session-id': session, authorization: 'Bearer secret-a'},
            ),
        );
        assert.equal(note.status, 202);
        const request = new Request(ENDPOINT, {
            method: 'POST',
            headers: {
                'content-type': 'application/json',
                accept: 'application/json',
                'mcp-session-id': session,
            },
            body: JSON.stringify({jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'whoami'}}),
        });
        assert.deepEqual(await read(await handler.fetch(request)), [
            200,
            'application/json',
            result(3, 'Unauthorized', true),
        ]);
        assert.equal(contexts[0]?.http?.headers, request.headers);
    });

    test('is absent over stdio', async () => {
        const contexts: HandlerContext[] = [];
        const h = harness({serverInfo: {name: 'stdio', version: '1.0.0'}, tools: [whoami(contexts)]});
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'whoami'}});
        await h.records(2);
        assert.deepEqual(h.output.records()[1], JSON.parse(result(1, 'Unauthorized', true)));
        const [context] = contexts;
        assert.ok(context !== undefined);
        assert.equal(context.http, undefined);
        assert.equal(Object.hasOwn(context, 'http'), false);
        h.input.push(null);
        await h.server.closed;
    });
});
