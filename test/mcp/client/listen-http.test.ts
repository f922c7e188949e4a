/**
 * `client.listen()` over Streamable HTTP: against a scripted endpoint (the request's headers and
 * body, notifications on the request's own SSE stream, close by closing that stream and posting
 * nothing, the stream's end), and against this package's own HTTP handler.
 */
import assert from 'node:assert/strict';
import type {ServerResponse} from 'node:http';
import {test} from 'node:test';
import {
    connectMcpClient,
    McpConnectionError,
    McpProtocolViolationError,
} from '../../../lib/mcp/client/index.js';
import {createMcpHttpHandler, serveNodeHttp} from '../../../lib/mcp/http/index.js';
import {deferred} from '../../helpers/deferred.js';
import type {Seen} from './http-fixture.js';
import {event, json, result, servedPerTest, sse, status} from './http-fixture.js';
import {GUARD} from './support.js';

const serve = servedPerTest();
const KEY = 'io.modelcontextprotocol/subscriptionId';
const DISCOVERY = {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: {resources: {subscribe: true}},
};

/** Answers discovery; hands each listen exchange, its SSE stream started, to `onListen`. */
function endpoint(onListen: (seen: Seen, res: ServerResponse) => void) {
    return (seen: Seen, res: ServerResponse): unknown => {
        if (seen.method !== 'POST') return status(res, 405);
        const {method} = seen.json as {method: string};
        if (method === 'server/discover') return json(res, result(seen, DISCOVERY));
        if (method !== 'subscriptions/listen') return status(res, 202);
        sse(res);
        onListen(seen, res);
        return undefined;
    };
}

const tagged = (method: string, id: number, params: object = {}) => ({
    jsonrpc: '2.0',
    method,
    params: {_meta: {[KEY]: id}, ...params},
});

test('the listen stream carries the acknowledgement and the updates; close() closes it', GUARD, async () => {
    const fixture = await serve(
        endpoint((seen, res) => {
            event(
                res,
                tagged('notifications/subscriptions/acknowledged', 2, {
                    notifications: {resourceSubscriptions: ['file:///a']},
                }),
            );
            event(res, tagged('notifications/resources/updated', 2, {uri: 'file:///a'}));
            assert.equal(seen.method, 'POST');
        }),
    );
    const updated = deferred<string>();
    const client = await connectMcpClient({
        url: fixture.url(),
        versionNegotiation: '2026-07-28',
        onResourceUpdated: ({uri}) => updated.resolve(uri),
    });
    const sub = await client.listen({resources: ['file:///a']});
    assert.equal(await updated.promise, 'file:///a');
    const listen = await fixture.request(2);
    assert.equal(listen.headers['mcp-method'], 'subscriptions/listen');
    assert.equal(listen.headers['mcp-protocol-version'], '2026-07-28');
    assert.equal(listen.headers['mcp-name'], undefined);
    assert.equal(
        listen.body,
        '{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["file:///a"]},' +
            '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},' +
            '"io.modelcontextprotocol/clientInfo":{"name":"arcane-os","version":"0.1.0"}}}}',
    );
    await sub.close();
    await listen.closed;
    assert.deepEqual(await sub.ended, {by: 'client'});
    await client.close();
    // Closing the stream is the cancellation over HTTP: nothing else was posted.
    assert.equal(fixture.seen.length, 2);
});

test('the server answering on the stream ends the subscription gracefully', GUARD, async () => {
    const fixture = await serve(
        endpoint((_seen, res) => {
            event(res, tagged('notifications/subscriptions/acknowledged', 2, {notifications: {}}));
            event(res, {jsonrpc: '2.0', id: 2, result: {resultType: 'complete', _meta: {[KEY]: 2}}});
            res.end();
        }),
    );
    const client = await connectMcpClient({url: fixture.url(), versionNegotiation: '2026-07-28'});
    const sub = await client.listen({lists: ['tools']});
    assert.deepEqual(sub.granted, {resources: [], lists: []});
    assert.deepEqual(await sub.ended, {by: 'server'});
    await client.close();
});

test(
    'a stream that ends without an answer ends the subscription with a connection error',
    GUARD,
    async () => {
        const fixture = await serve(
            endpoint((_seen, res) => {
                event(res, tagged('notifications/subscriptions/acknowledged', 2, {notifications: {}}));
                res.end();
            }),
        );
        const client = await connectMcpClient({url: fixture.url(), versionNegotiation: '2026-07-28'});
        const sub = await client.listen({lists: ['tools']});
        const end = await sub.ended;
        assert.ok(end.by === 'error' && end.error instanceof McpConnectionError);
        assert.equal(
            end.error.message,
            `Could not send subscriptions/listen to the MCP server: The answer to request 2 from POST ${fixture.url()}: ` +
                'the SSE stream ended before the answer, with no event id to resume it from',
        );
        await client.close();
    },
);

test('a malformed acknowledgement fails listen and closes the stream; nothing is posted', GUARD, async () => {
    const fixture = await serve(
        endpoint((_seen, res) => {
            event(res, tagged('notifications/subscriptions/acknowledged', 2, {notifications: 'all'}));
        }),
    );
    const client = await connectMcpClient({url: fixture.url(), versionNegotiation: '2026-07-28'});
    await assert.rejects(client.listen({lists: ['tools']}), {
        name: 'McpProtocolViolationError',
        message: 'The MCP server\'s acknowledgement of subscriptions/listen 2 has no "notifications" object',
    });
    await (await fixture.request(2)).closed;
    await client.close();
    assert.equal(fixture.seen.length, 2);
    assert.ok(McpProtocolViolationError.is(new McpProtocolViolationError('x')));
});

test('client.close() while listen waits for its acknowledgement closes the stream', GUARD, async () => {
    const fixture = await serve(endpoint(() => {}));
    const client = await connectMcpClient({url: fixture.url(), versionNegotiation: '2026-07-28'});
    const listening = client.listen({resources: ['file:///a']});
    const listen = await fixture.request(2);
    const closing = client.close();
    await assert.rejects(listening, {
        name: 'McpConnectionError',
        message: 'The MCP client was closed before the server acknowledged subscriptions/listen',
    });
    await closing;
    await listen.closed;
    assert.equal(fixture.seen.length, 2);
});

test(
    "this package's HTTP handler acknowledges a listen and lets it go when the stream closes",
    GUARD,
    async () => {
        const handler = createMcpHttpHandler({
            serverInfo: {name: 'own-http', version: '1.0.0'},
            protocolVersions: ['2026-07-28'],
            resources: [
                {uri: 'test://watched', name: 'w', handler: ({uri}) => ({contents: [{uri, text: 'W'}]})},
            ],
            subscriptions: true,
        });
        const server = await serveNodeHttp(handler, {port: 0});
        try {
            const client = await connectMcpClient({url: server.url, versionNegotiation: '2026-07-28'});
            const sub = await client.listen({resources: ['test://watched', 'test://unknown']});
            assert.deepEqual(sub.granted, {resources: ['test://watched'], lists: []});
            await client.subscribeResource('test://watched');
            await client.unsubscribeResource('test://watched');
            await sub.close();
            assert.deepEqual(await sub.ended, {by: 'client'});
            await client.close();
            // With every stream closed, the handler has nothing left to wait for.
            await handler.close();
        } finally {
            await server.close();
        }
    },
);
