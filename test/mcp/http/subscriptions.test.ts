/**
 * `handler.notifyResourceUpdated(uri)`: legacy sessions hear of an update on their GET stream,
 * 2026-07-28 listen streams on their own answer stream, tagged; `close()` answers open listen
 * streams; the checks of the call itself.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {MAX_UNREAD_STREAM_BYTES} from '../../../lib/mcp/http/legacy-session.js';
import {ENDPOINT, events, initializeBody, LEGACY, makeHandler, modern, post} from './support.js';

const KEY = 'io.modelcontextprotocol/subscriptionId';
const RESOURCES = ['mem://a', 'mem://b'].map((uri) => ({
    uri,
    name: uri,
    handler: () => ({contents: [{uri, text: uri}]}),
}));

const subscribing = () => makeHandler(undefined, {resources: RESOURCES, subscriptions: true});

const stream = (response: Response) => events(response, {whole: true});

const event = (record: string) => `event: message\ndata: ${record}\n\n`;
const ack = (id: number, uris: string[]) =>
    event(
        `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"${KEY}":${id}},"notifications":{"resourceSubscriptions":${JSON.stringify(uris)}}}}`,
    );
const taggedUpdate = (id: number, uri: string) =>
    event(
        `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"${KEY}":${id}},"uri":"${uri}"}}`,
    );
const ended = (id: number) =>
    event(`{"jsonrpc":"2.0","id":${id},"result":{"resultType":"complete","_meta":{"${KEY}":${id}}}}`);

const listen = (id: number, uris: string[]) =>
    modern(id, 'subscriptions/listen', {notifications: {resourceSubscriptions: uris}});

async function legacySession(handler: ReturnType<typeof makeHandler>['handler']) {
    const opened = await handler.fetch(post(initializeBody()));
    await opened.text();
    const headers = {
        'mcp-session-id': opened.headers.get('mcp-session-id') as string,
        'mcp-protocol-version': LEGACY,
    };
    const send = async (id: number, method: string, params: object) =>
        (await handler.fetch(post({jsonrpc: '2.0', id, method, params}, headers))).text();
    const get = () =>
        handler.fetch(new Request(ENDPOINT, {headers: {...headers, accept: 'text/event-stream'}}));
    return {send, get};
}

describe('handler.notifyResourceUpdated, legacy sessions', () => {
    test('a subscribed session hears on its GET stream; another uri and an unsubscribed one do not', async () => {
        const {handler} = subscribing();
        const one = await legacySession(handler);
        const other = await legacySession(handler);
        assert.equal(
            await one.send(1, 'resources/subscribe', {uri: 'mem://a'}),
            '{"jsonrpc":"2.0","id":1,"result":{}}\n',
        );
        const getOne = await one.get();
        const getOther = await other.get();
        assert.equal(getOne.status, 200);
        assert.equal(handler.notifyResourceUpdated('mem://b'), 0);
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        const events = stream(getOne);
        assert.equal(
            await events.next(),
            event('{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"mem://a"}}'),
        );
        assert.equal(
            await one.send(2, 'resources/unsubscribe', {uri: 'mem://a'}),
            '{"jsonrpc":"2.0","id":2,"result":{}}\n',
        );
        assert.equal(handler.notifyResourceUpdated('mem://a'), 0);
        await handler.close();
        assert.equal(await events.next(), undefined);
        assert.equal(await getOther.text(), '');
    });

    test('a subscribed session without an open GET stream is not counted', async () => {
        const {handler} = subscribing();
        const session = await legacySession(handler);
        await session.send(1, 'resources/subscribe', {uri: 'mem://a'});
        assert.equal(handler.notifyResourceUpdated('mem://a'), 0);
        const get = await session.get();
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        await get.body?.cancel();
        assert.equal(handler.notifyResourceUpdated('mem://a'), 0);
        await handler.close();
    });
});

describe('handler.notifyResourceUpdated, a GET stream nobody reads', () => {
    test('counts the updates the stream took, and none once the bound ended it', async () => {
        const {handler, diagnostics} = subscribing();
        const session = await legacySession(handler);
        await session.send(1, 'resources/subscribe', {uri: 'mem://a'});
        const get = await session.get();
        const size = Buffer.byteLength(
            event('{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"mem://a"}}'),
        );
        let told = 0;
        while (told < 100_000 && handler.notifyResourceUpdated('mem://a') === 1) told += 1;
        assert.equal(told, Math.floor(MAX_UNREAD_STREAM_BYTES / size));
        assert.equal(diagnostics.length, 1);
        assert.equal(handler.notifyResourceUpdated('mem://a'), 0);
        assert.equal((await get.text()).length, told * size);
        await handler.close();
    });
});

describe('handler.notifyResourceUpdated, 2026-07-28 listen streams', () => {
    test('each stream granted the uri hears of it, tagged; close() answers every stream', async () => {
        const {handler} = subscribing();
        const first = await handler.fetch(listen(1, ['mem://a']));
        const second = await handler.fetch(listen(2, ['mem://b', 'mem://unknown']));
        assert.equal(first.status, 200);
        assert.equal(first.headers.get('content-type'), 'text/event-stream');
        const a = stream(first);
        const b = stream(second);
        assert.equal(await a.next(), ack(1, ['mem://a']));
        assert.equal(await b.next(), ack(2, ['mem://b']));
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        assert.equal(handler.notifyResourceUpdated('mem://unknown'), 0);
        assert.equal(await a.next(), taggedUpdate(1, 'mem://a'));
        assert.equal(handler.notifyResourceUpdated('mem://b'), 1);
        assert.equal(await b.next(), taggedUpdate(2, 'mem://b'));
        // Listen streams are not running handlers: drain does not wait for them.
        await handler.drain();
        await handler.close();
        assert.equal(await a.next(), ended(1));
        assert.equal(await a.next(), undefined);
        assert.equal(await b.next(), ended(2));
        assert.equal(await b.next(), undefined);
        await handler.closed;
        assert.equal(handler.notifyResourceUpdated('mem://a'), 0);
    });

    test('the client closing its listen stream removes it', async () => {
        const {handler} = subscribing();
        const kept = stream(await handler.fetch(listen(1, ['mem://a'])));
        const dropped = stream(await handler.fetch(listen(2, ['mem://a'])));
        await kept.next();
        await dropped.next();
        assert.equal(handler.notifyResourceUpdated('mem://a'), 2);
        await dropped.cancel();
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        assert.equal(await kept.next(), taggedUpdate(1, 'mem://a'));
        assert.equal(await kept.next(), taggedUpdate(1, 'mem://a'));
        await handler.close();
        assert.equal(await kept.next(), ended(1));
    });

    test('a listen whose request is aborted is removed with it', async () => {
        const {handler} = subscribing();
        const gone = new AbortController();
        const response = await handler.fetch(
            modern(
                1,
                'subscriptions/listen',
                {notifications: {resourceSubscriptions: ['mem://a']}},
                {},
                {signal: gone.signal},
            ),
        );
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        gone.abort();
        assert.equal(handler.notifyResourceUpdated('mem://a'), 0);
        await response.body?.cancel();
        await handler.close();
    });

    test('updates a client has not read yet are not repeated: an unread stream stays bounded', async () => {
        const {handler} = subscribing();
        const events = stream(await handler.fetch(listen(4, ['mem://a', 'mem://b'])));
        for (let round = 0; round < 1000; round += 1) {
            assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
            assert.equal(handler.notifyResourceUpdated('mem://b'), 1);
        }
        await handler.close();
        assert.equal(await events.next(), ack(4, ['mem://a', 'mem://b']));
        assert.equal(await events.next(), taggedUpdate(4, 'mem://a'));
        assert.equal(await events.next(), taggedUpdate(4, 'mem://b'));
        assert.equal(await events.next(), ended(4));
        assert.equal(await events.next(), undefined);
    });

    test('close({cancelPending: true}) answers open listen streams too', async () => {
        const {handler} = subscribing();
        const events = stream(await handler.fetch(listen(7, ['mem://a'])));
        assert.equal(await events.next(), ack(7, ['mem://a']));
        await handler.close({cancelPending: true});
        assert.equal(await events.next(), ended(7));
        assert.equal(await events.next(), undefined);
    });

    test('a listen that does not accept an SSE answer is refused 406', async () => {
        const {handler} = subscribing();
        const response = await handler.fetch(
            modern(3, 'subscriptions/listen', {notifications: {}}, {accept: 'application/json'}),
        );
        assert.equal(response.status, 406);
        assert.equal(
            await response.text(),
            '{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Not Acceptable: subscriptions/listen is answered with an SSE stream; list text/event-stream in Accept"}}\n',
        );
        assert.equal(handler.notifyResourceUpdated('mem://a'), 0);
        await handler.close();
    });
});

describe('handler.notifyResourceUpdated, its checks', () => {
    test('a uri that is not a string is a TypeError', () => {
        const {handler} = subscribing();
        assert.throws(() => handler.notifyResourceUpdated(42 as unknown as string), {
            name: 'TypeError',
            message: 'handler.notifyResourceUpdated(uri) needs the resource URI as a string, got number 42',
        });
    });

    test('a handler created without subscriptions: true throws a TypeError', () => {
        const {handler} = makeHandler();
        assert.throws(() => handler.notifyResourceUpdated('mem://a'), {
            name: 'TypeError',
            message:
                'handler.notifyResourceUpdated(): this handler serves no subscriptions; create it with subscriptions: true',
        });
    });
});
