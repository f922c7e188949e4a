/** Resource subscriptions on the raw wire: legacy subscribe/unsubscribe and 2026-07-28 listen streams. */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import type {Harness} from '../../helpers/streams.js';
import {harness} from '../../helpers/streams.js';

const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
};

function server(extra: Partial<McpStdioServerOptions> = {}): Harness {
    return harness({
        serverInfo: {name: 'subs', version: '1.0.0'},
        protocolVersions: ['2026-07-28', '2025-11-25'],
        resources: [
            {uri: 'test://watched', name: 'w', handler: ({uri}) => ({contents: [{uri, text: 'W'}]})},
            {uri: 'test://other', name: 'o', handler: ({uri}) => ({contents: [{uri, text: 'O'}]})},
        ],
        resourceTemplates: [
            {
                uriTemplate: 'test://notes/{id}',
                name: 'note',
                handler: ({uri}) => ({contents: [{uri, text: 'N'}]}),
            },
        ],
        subscriptions: true,
        ...extra,
    });
}

function lines(h: Harness): string[] {
    return h.output.text.split('\n').filter((line) => line !== '');
}

async function exchange(h: Harness, message: object): Promise<string> {
    const before = h.output.lineCount;
    h.send(message);
    await h.output.waitForLines(before + 1);
    return lines(h)[before] as string;
}

describe('resource subscriptions', () => {
    test('legacy: subscribe is advertised, answered {}, and updates reach the subscriber until it unsubscribes', async () => {
        const h = server();
        const init = (await h.initialize({
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: {name: 'c', version: '1'},
        })) as {result: {capabilities: unknown}};
        assert.deepEqual(init.result.capabilities, {resources: {subscribe: true}});
        assert.equal(
            await exchange(h, {
                jsonrpc: '2.0',
                id: 1,
                method: 'resources/subscribe',
                params: {uri: 'test://watched'},
            }),
            '{"jsonrpc":"2.0","id":1,"result":{}}',
        );
        assert.equal(h.server.notifyResourceUpdated('test://other'), 0);
        assert.equal(h.server.notifyResourceUpdated('test://watched'), 1);
        await h.output.waitForLines(3);
        assert.equal(
            lines(h)[2],
            '{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://watched"}}',
        );
        assert.equal(
            await exchange(h, {
                jsonrpc: '2.0',
                id: 2,
                method: 'resources/unsubscribe',
                params: {uri: 'test://watched'},
            }),
            '{"jsonrpc":"2.0","id":2,"result":{}}',
        );
        assert.equal(h.server.notifyResourceUpdated('test://watched'), 0);
        assert.equal(
            await exchange(h, {
                jsonrpc: '2.0',
                id: 3,
                method: 'resources/subscribe',
                params: {uri: 'test://nope'},
            }),
            '{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found: test://nope","data":{"uri":"test://nope"}}}',
        );
        h.input.push(null);
        await h.server.closed;
    });

    test('modern: listen is acknowledged with the granted subset, notifications carry its id, close answers it', async () => {
        const h = server();
        const ack = await exchange(h, {
            jsonrpc: '2.0',
            id: 'L',
            method: 'subscriptions/listen',
            params: {
                _meta: META,
                notifications: {
                    toolsListChanged: true,
                    resourceSubscriptions: ['test://watched', 'test://unknown'],
                },
            },
        });
        assert.equal(
            ack,
            '{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"notifications":{"resourceSubscriptions":["test://watched"]}}}',
        );
        assert.equal(h.server.notifyResourceUpdated('test://watched'), 1);
        await h.output.waitForLines(2);
        assert.equal(
            lines(h)[1],
            '{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"uri":"test://watched"}}',
        );
        // The listen request holds its id while open.
        assert.equal(
            await exchange(h, {jsonrpc: '2.0', id: 'L', method: 'server/discover', params: {_meta: META}}),
            '{"jsonrpc":"2.0","id":"L","error":{"code":-32600,"message":"Request id \\"L\\" is already in use by a request in progress; use a new id for each request"}}',
        );
        await h.server.close();
        assert.equal(
            lines(h)[3],
            '{"jsonrpc":"2.0","id":"L","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}',
        );
        assert.equal(lines(h).length, 4);
    });

    test('modern: a cancelled listen ends without an answer', async () => {
        const h = server();
        await exchange(h, {
            jsonrpc: '2.0',
            id: 7,
            method: 'subscriptions/listen',
            params: {_meta: META, notifications: {resourceSubscriptions: ['test://watched']}},
        });
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 7}});
        await h.server.drain();
        assert.equal(h.server.notifyResourceUpdated('test://watched'), 0);
        await h.server.close();
        assert.equal(lines(h).length, 1);
    });

    test('malformed params: a subscribe without a uri, a listen without a filter of URI strings', async () => {
        const h = server();
        await h.initialize();
        assert.equal(
            await exchange(h, {jsonrpc: '2.0', id: 1, method: 'resources/unsubscribe', params: {}}),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"resources/unsubscribe needs \\"params.uri\\", the resource URI as a string"}}',
        );
        h.input.push(null);
        await h.server.closed;
        const modern = server();
        const refusal =
            '"error":{"code":-32602,"message":"subscriptions/listen needs \\"params.notifications\\", an object whose \\"resourceSubscriptions\\", when given, is an array of URI strings"}}';
        for (const [id, notifications] of [
            [1, undefined],
            [2, {resourceSubscriptions: [1]}],
            [3, {resourceSubscriptions: 'test://watched'}],
        ] as const) {
            assert.equal(
                await exchange(modern, {
                    jsonrpc: '2.0',
                    id,
                    method: 'subscriptions/listen',
                    params: {_meta: META, notifications},
                }),
                `{"jsonrpc":"2.0","id":${id},${refusal}`,
            );
        }
        // A filter without resource subscriptions is granted none.
        assert.equal(
            await exchange(modern, {
                jsonrpc: '2.0',
                id: 4,
                method: 'subscriptions/listen',
                params: {_meta: META, notifications: {}},
            }),
            '{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"notifications":{"resourceSubscriptions":[]}}}',
        );
        await modern.server.close();
    });

    test('without the option the methods stay unknown and notifyResourceUpdated throws', async () => {
        const h = server({subscriptions: undefined});
        await h.initialize();
        assert.equal(
            await exchange(h, {
                jsonrpc: '2.0',
                id: 1,
                method: 'resources/subscribe',
                params: {uri: 'test://watched'},
            }),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: \\"resources/subscribe\\""}}',
        );
        assert.equal(
            await exchange(h, {
                jsonrpc: '2.0',
                id: 2,
                method: 'resources/unsubscribe',
                params: {uri: 'test://watched'},
            }),
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: \\"resources/unsubscribe\\""}}',
        );
        const modern = server({subscriptions: undefined});
        assert.equal(
            await exchange(modern, {
                jsonrpc: '2.0',
                id: 1,
                method: 'subscriptions/listen',
                params: {_meta: META, notifications: {}},
            }),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: \\"subscriptions/listen\\""}}',
        );
        await modern.server.close();
        assert.throws(() => h.server.notifyResourceUpdated(7 as never), {
            name: 'TypeError',
            message: 'server.notifyResourceUpdated(uri) needs the resource URI as a string, got number 7',
        });
        assert.throws(() => h.server.notifyResourceUpdated('test://watched'), {
            name: 'TypeError',
            message:
                'server.notifyResourceUpdated(): this server serves no subscriptions; create it with subscriptions: true',
        });
        h.input.push(null);
        await h.server.closed;
    });
});
