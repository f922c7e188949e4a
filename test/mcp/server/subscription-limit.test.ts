/** `maxSubscriptions` over stdio: what a session holds, legacy URIs and listen streams together. */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {Harness} from '../../helpers/streams.js';
import {harness} from '../../helpers/streams.js';

const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
};

function server(maxSubscriptions?: number): Harness {
    return harness({
        serverInfo: {name: 'limits', version: '1.0.0'},
        protocolVersions: ['2026-07-28', '2025-11-25'],
        resourceTemplates: [
            {
                uriTemplate: 'test://notes/{id}',
                name: 'note',
                handler: ({uri}) => ({contents: [{uri, text: 'N'}]}),
            },
        ],
        subscriptions: true,
        ...(maxSubscriptions === undefined ? {} : {maxSubscriptions}),
    });
}

async function exchange(h: Harness, message: object): Promise<string> {
    const before = h.output.lineCount;
    h.send(message);
    await h.output.waitForLines(before + 1);
    return h.output.text.split('\n').filter((line) => line !== '')[before] as string;
}

const subscribe = (h: Harness, id: number, uri: string) =>
    exchange(h, {jsonrpc: '2.0', id, method: 'resources/subscribe', params: {uri}});

const unsubscribe = (h: Harness, id: number, uri: string) =>
    exchange(h, {jsonrpc: '2.0', id, method: 'resources/unsubscribe', params: {uri}});

const listen = (h: Harness, id: number, uris: string[]) =>
    exchange(h, {
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: {_meta: META, notifications: {resourceSubscriptions: uris}},
    });

const ok = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{}}`;

const subscribeRefused = (id: number, uri: string, limit: number) =>
    `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"resources/subscribe refused: this session already holds ${limit} subscriptions, its limit (maxSubscriptions); unsubscribe from a resource first, or have the server raise maxSubscriptions","data":{"uri":"${uri}","maxSubscriptions":${limit}}}}`;

const listenRefused = (id: number, slots: number, held: number, limit: number) =>
    `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"subscriptions/listen refused: its ${slots} subscriptions and the ${held} this session holds exceed its limit of ${limit} (maxSubscriptions); listen to fewer URIs or end another listen first, or have the server raise maxSubscriptions","data":{"maxSubscriptions":${limit}}}}`;

const acknowledged = (id: number, uris: string[]) =>
    `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":${id}},"notifications":{"resourceSubscriptions":${JSON.stringify(uris)}}}}`;

describe('maxSubscriptions, legacy resources/subscribe', () => {
    test('the bound refuses a new URI -32602, not a repeated one; unsubscribe frees a slot', async () => {
        const h = server(2);
        await h.initialize();
        assert.equal(await subscribe(h, 1, 'test://notes/1'), ok(1));
        assert.equal(await subscribe(h, 2, 'test://notes/2'), ok(2));
        assert.equal(await subscribe(h, 3, 'test://notes/3'), subscribeRefused(3, 'test://notes/3', 2));
        // Subscribing again to what the session holds takes no new slot.
        assert.equal(await subscribe(h, 4, 'test://notes/2'), ok(4));
        // The refused URI was not subscribed.
        assert.equal(h.server.notifyResourceUpdated('test://notes/3'), 0);
        assert.equal(await unsubscribe(h, 5, 'test://notes/1'), ok(5));
        assert.equal(await subscribe(h, 6, 'test://notes/3'), ok(6));
        assert.equal(h.server.notifyResourceUpdated('test://notes/3'), 1);
        await h.server.close();
    });

    test('the default bound is 1000 subscriptions', async () => {
        const h = server();
        await h.initialize();
        const ids = Array.from({length: 1000}, (_, index) => index + 1);
        for (const id of ids) {
            h.send({jsonrpc: '2.0', id, method: 'resources/subscribe', params: {uri: `test://notes/${id}`}});
        }
        await h.output.waitForLines(1001);
        assert.deepEqual(h.output.text.split('\n').slice(1, 1001), ids.map(ok));
        assert.equal(
            await subscribe(h, 1001, 'test://notes/1001'),
            subscribeRefused(1001, 'test://notes/1001', 1000),
        );
        await h.server.close();
    });
});

describe('maxSubscriptions, 2026-07-28 subscriptions/listen', () => {
    test('a listen counts its granted URIs, and one granted none counts one', async () => {
        const h = server(3);
        assert.equal(
            await listen(h, 1, ['test://notes/1', 'test://notes/2', 'test://notes/1']),
            acknowledged(1, ['test://notes/1', 'test://notes/2']),
        );
        // Two more URIs would make four; URIs the catalog lacks are not granted and not counted.
        assert.equal(await listen(h, 2, ['test://notes/3', 'test://notes/4']), listenRefused(2, 2, 2, 3));
        assert.equal(await listen(h, 3, ['other://x']), acknowledged(3, []));
        assert.equal(await listen(h, 4, []), listenRefused(4, 1, 3, 3));
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1}});
        assert.equal(
            await listen(h, 5, ['test://notes/3', 'test://notes/4']),
            acknowledged(5, ['test://notes/3', 'test://notes/4']),
        );
        await h.server.close();
    });

    test('a listen too large on its own is refused even in a fresh session', async () => {
        const h = server(1);
        assert.equal(await listen(h, 1, ['test://notes/1', 'test://notes/2']), listenRefused(1, 2, 0, 1));
        assert.equal(await listen(h, 2, ['test://notes/1']), acknowledged(2, ['test://notes/1']));
        await h.server.close();
    });
});
