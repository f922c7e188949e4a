/**
 * `handler.notifyResourceUpdated` end to end with this package's own client over Node HTTP: a
 * 2026-07-28 `client.listen` and a legacy `subscribeResource` on the session's GET stream.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import type {McpHttpHandler} from '../../../lib/mcp/http/index.js';
import {createMcpHttpHandler, serveNodeHttp} from '../../../lib/mcp/http/index.js';
import {deferred} from '../../helpers/deferred.js';

const GUARD = {timeout: 30_000};
const WATCHED = 'test://watched';

function subscribing(): McpHttpHandler {
    return createMcpHttpHandler({
        serverInfo: {name: 'own-http', version: '1.0.0'},
        protocolVersions: ['2026-07-28', '2025-11-25'],
        resources: [
            {uri: WATCHED, name: 'w', handler: ({uri}) => ({contents: [{uri, text: 'W'}]})},
            {uri: 'test://other', name: 'o', handler: ({uri}) => ({contents: [{uri, text: 'O'}]})},
        ],
        subscriptions: true,
    });
}

test(
    '2026-07-28: client.listen hears notifyResourceUpdated; close() ends the subscription',
    GUARD,
    async () => {
        const handler = subscribing();
        const server = await serveNodeHttp(handler, {port: 0});
        try {
            const updates: string[] = [];
            const heard = deferred();
            const client = await connectMcpClient({
                url: server.url,
                versionNegotiation: '2026-07-28',
                onResourceUpdated: ({uri}) => {
                    updates.push(uri);
                    heard.resolve();
                },
            });
            const sub = await client.listen({resources: [WATCHED]});
            assert.equal(handler.notifyResourceUpdated('test://other'), 0);
            assert.equal(handler.notifyResourceUpdated(WATCHED), 1);
            await heard.promise;
            assert.deepEqual(updates, [WATCHED]);
            // The handler ends the listen stream gracefully; the client hears the server ended it.
            await handler.close();
            assert.deepEqual(await sub.ended, {by: 'server'});
            await client.close();
        } finally {
            await server.close();
        }
    },
);

test('2026-07-28: a subscription the client closes is no longer counted', GUARD, async () => {
    const handler = subscribing();
    const listenGone = deferred();
    const server = await serveNodeHttp(
        {
            fetch: async (request) => {
                const response = await handler.fetch(request);
                // Registered after the handler's own listener, so it runs once the handler heard.
                if (request.headers.get('mcp-method') === 'subscriptions/listen') {
                    request.signal.addEventListener('abort', () => listenGone.resolve(), {once: true});
                }
                return response;
            },
        },
        {port: 0},
    );
    try {
        const client = await connectMcpClient({url: server.url, versionNegotiation: '2026-07-28'});
        const sub = await client.listen({resources: [WATCHED]});
        assert.equal(handler.notifyResourceUpdated(WATCHED), 1);
        await sub.close();
        assert.deepEqual(await sub.ended, {by: 'client'});
        await listenGone.promise;
        assert.equal(handler.notifyResourceUpdated(WATCHED), 0);
        await client.close();
        await handler.close();
    } finally {
        await server.close();
    }
});

test('legacy: subscribeResource hears notifyResourceUpdated on the GET stream', GUARD, async () => {
    const handler = subscribing();
    const getOpened = deferred();
    const server = await serveNodeHttp(
        {
            fetch: async (request) => {
                const response = await handler.fetch(request);
                if (request.method === 'GET' && response.status === 200) getOpened.resolve();
                return response;
            },
        },
        {port: 0},
    );
    try {
        const heard = deferred<string>();
        const client = await connectMcpClient({
            url: server.url,
            listen: true,
            onResourceUpdated: ({uri}) => heard.resolve(uri),
        });
        assert.equal(client.era, 'legacy');
        await client.subscribeResource(WATCHED);
        await getOpened.promise;
        assert.equal(handler.notifyResourceUpdated('test://other'), 0);
        assert.equal(handler.notifyResourceUpdated(WATCHED), 1);
        assert.equal(await heard.promise, WATCHED);
        await client.unsubscribeResource(WATCHED);
        assert.equal(handler.notifyResourceUpdated(WATCHED), 0);
        await client.close();
        await handler.close();
    } finally {
        await server.close();
    }
});
