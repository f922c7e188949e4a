/**
 * `maxSubscriptions` over HTTP: a legacy session's subscribed URIs, the URIs of one listen, and the
 * open listen streams of the handler, each refused `-32602` past the bound with an exact message.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {events, initializeBody, LEGACY, makeHandler, modern, post, read} from './support.js';

const TEMPLATE = {
    uriTemplate: 'mem://notes/{id}',
    name: 'note',
    handler: ({uri}: {uri: string}) => ({contents: [{uri, text: uri}]}),
};

const limited = (maxSubscriptions: number) =>
    makeHandler(undefined, {resourceTemplates: [TEMPLATE], subscriptions: true, maxSubscriptions});

const listen = (id: number, uris: string[], headers: Record<string, string> = {}) =>
    modern(id, 'subscriptions/listen', {notifications: {resourceSubscriptions: uris}}, headers);

const ack = (id: number, uris: string[]) =>
    `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":${id}},"notifications":{"resourceSubscriptions":${JSON.stringify(uris)}}}}`;

const tooManyStreams = (id: number, limit: number) =>
    `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"subscriptions/listen refused: this handler already has ${limit} open listen streams, its limit (maxSubscriptions); end one first, or have the server raise maxSubscriptions","data":{"maxSubscriptions":${limit}}}}`;

describe('maxSubscriptions over HTTP, legacy sessions', () => {
    test('a subscribe past the bound is refused -32602; a repeat is not counted; unsubscribe frees a slot', async () => {
        const {handler} = limited(1);
        const opened = await handler.fetch(post(initializeBody()));
        await opened.text();
        const headers = {
            'mcp-session-id': opened.headers.get('mcp-session-id') as string,
            'mcp-protocol-version': LEGACY,
        };
        const send = async (id: number, method: string, uri: string) =>
            read(await handler.fetch(post({jsonrpc: '2.0', id, method, params: {uri}}, headers)));
        const ok = (id: number) => [200, 'application/json', `{"jsonrpc":"2.0","id":${id},"result":{}}\n`];
        assert.deepEqual(await send(1, 'resources/subscribe', 'mem://notes/1'), ok(1));
        assert.deepEqual(await send(2, 'resources/subscribe', 'mem://notes/1'), ok(2));
        assert.deepEqual(await send(3, 'resources/subscribe', 'mem://notes/2'), [
            200,
            'application/json',
            '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"resources/subscribe refused: this session already holds 1 subscriptions, its limit (maxSubscriptions); unsubscribe from a resource first, or have the server raise maxSubscriptions","data":{"uri":"mem://notes/2","maxSubscriptions":1}}}\n',
        ]);
        assert.deepEqual(await send(4, 'resources/unsubscribe', 'mem://notes/1'), ok(4));
        assert.deepEqual(await send(5, 'resources/subscribe', 'mem://notes/2'), ok(5));
        await handler.close();
    });
});

describe('maxSubscriptions over HTTP, 2026-07-28 listen streams', () => {
    test('one listen granted more URIs than the bound is refused -32602', async () => {
        const {handler} = limited(2);
        assert.deepEqual(
            await read(await handler.fetch(listen(1, ['mem://notes/1', 'mem://notes/2', 'mem://notes/3']))),
            [
                200,
                'application/json',
                '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"subscriptions/listen refused: its 3 subscriptions and the 0 this session holds exceed its limit of 2 (maxSubscriptions); listen to fewer URIs or end another listen first, or have the server raise maxSubscriptions","data":{"maxSubscriptions":2}}}\n',
            ],
        );
        assert.equal(handler.notifyResourceUpdated('mem://notes/1'), 0);
        await handler.close();
    });

    test('open listen streams past the bound are refused -32602 until one ends', async () => {
        const {handler} = limited(2);
        const first = events(await handler.fetch(listen(1, ['mem://notes/1'])));
        const second = events(await handler.fetch(listen(2, ['mem://notes/1'])));
        assert.equal(await first.next(), ack(1, ['mem://notes/1']));
        assert.equal(await second.next(), ack(2, ['mem://notes/1']));
        assert.deepEqual(await read(await handler.fetch(listen(3, ['mem://notes/1']))), [
            200,
            'application/json',
            `${tooManyStreams(3, 2)}\n`,
        ]);
        // The refused listen holds nothing: two streams hear of an update.
        assert.equal(handler.notifyResourceUpdated('mem://notes/1'), 2);
        await first.cancel();
        const third = events(await handler.fetch(listen(4, ['mem://notes/1'])));
        assert.equal(await third.next(), ack(4, ['mem://notes/1']));
        await handler.close();
    });

    test('the refusal of a listen from a client that refuses JSON is an SSE event', async () => {
        const {handler} = limited(1);
        const first = events(await handler.fetch(listen(1, [])));
        assert.equal(await first.next(), ack(1, []));
        const refused = await handler.fetch(
            listen(2, [], {accept: 'application/json;q=0, text/event-stream'}),
        );
        assert.deepEqual(await read(refused), [
            200,
            'text/event-stream',
            `event: message\ndata: ${tooManyStreams(2, 1)}\n\n`,
        ]);
        await handler.close();
    });
});
