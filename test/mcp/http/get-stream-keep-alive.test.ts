/**
 * A legacy session's GET stream carries nothing while the session has nothing to say, and an HTTP
 * client or proxy gives up a silent response body (Node's fetch after 300 s): the stream gets an
 * SSE comment at the same fixed interval as a listen stream when its client is waiting for data
 * (a comment never sits unread), and none once the stream has ended, however it ended.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {KEEP_ALIVE_MS} from '../../../lib/mcp/http/keep-alive.js';
import {ENDPOINT, events, initializeBody, LEGACY, makeHandler, post} from './support.js';

const RESOURCES = [{uri: 'mem://a', name: 'a', handler: () => ({contents: [{uri: 'mem://a', text: 'a'}]})}];
const UPDATE =
    'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"mem://a"}}\n\n';
const COMMENT = ':\n\n';

/** A handler with one legacy session subscribed to `mem://a`, and its GET stream open. */
async function subscribedStream() {
    const {handler, diagnostics} = makeHandler(undefined, {resources: RESOURCES, subscriptions: true});
    const opened = await handler.fetch(post(initializeBody()));
    await opened.text();
    const headers = {
        'mcp-session-id': opened.headers.get('mcp-session-id') as string,
        'mcp-protocol-version': LEGACY,
    };
    const subscribed = await handler.fetch(
        post({jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: {uri: 'mem://a'}}, headers),
    );
    assert.equal(await subscribed.text(), '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    const get = await handler.fetch(
        new Request(ENDPOINT, {headers: {...headers, accept: 'text/event-stream'}}),
    );
    assert.equal(get.status, 200);
    return {handler, diagnostics, headers, get};
}

describe('a legacy GET stream kept alive', () => {
    test('gets a comment each interval while its client waits for data', async (t) => {
        t.mock.timers.enable({apis: ['setInterval']});
        const {handler, get} = await subscribedStream();
        const next = events(get, {whole: true});
        const first = next.next();
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(await first, COMMENT);
        // Not reading again yet: no second comment queues behind the first.
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        assert.equal(await next.next(), UPDATE);
        const second = next.next();
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(await second, COMMENT);
        await handler.close();
        assert.equal(await next.next(), undefined);
    });

    test('gets none while an event waits unread: the event itself is what the client will read', async (t) => {
        t.mock.timers.enable({apis: ['setInterval']});
        const {handler, get} = await subscribedStream();
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        t.mock.timers.tick(KEEP_ALIVE_MS);
        const next = events(get, {whole: true});
        assert.equal(await next.next(), UPDATE);
        const after = next.next();
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(await after, COMMENT);
        await handler.close();
        assert.equal(await next.next(), undefined);
    });

    test('gets none while its client is not reading, so none waits unread', async (t) => {
        t.mock.timers.enable({apis: ['setInterval']});
        const {handler, get} = await subscribedStream();
        t.mock.timers.tick(KEEP_ALIVE_MS);
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
        await handler.close();
        assert.equal(await get.text(), UPDATE);
    });

    test('stops when the client cancels the stream, and a new GET gets its own', async (t) => {
        t.mock.timers.enable({apis: ['setInterval']});
        const {handler, headers, get} = await subscribedStream();
        await events(get, {whole: true}).cancel();
        // A timer left running would write on the cancelled stream and throw here.
        t.mock.timers.tick(KEEP_ALIVE_MS);
        const again = await handler.fetch(
            new Request(ENDPOINT, {headers: {...headers, accept: 'text/event-stream'}}),
        );
        assert.equal(again.status, 200);
        const next = events(again, {whole: true});
        const first = next.next();
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(await first, COMMENT);
        await handler.close();
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(await next.next(), undefined);
    });

    test('stops when DELETE ends the session', async (t) => {
        t.mock.timers.enable({apis: ['setInterval']});
        const {handler, headers, get} = await subscribedStream();
        const next = events(get, {whole: true});
        const deleted = await handler.fetch(new Request(ENDPOINT, {method: 'DELETE', headers}));
        assert.equal(deleted.status, 204);
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(await next.next(), undefined);
        await handler.close();
    });

    test('stops when the unread bound ends the stream', async (t) => {
        t.mock.timers.enable({apis: ['setInterval']});
        const {handler, diagnostics, get} = await subscribedStream();
        let told = 0;
        while (told < 100_000 && handler.notifyResourceUpdated('mem://a') === 1) told += 1;
        assert.equal(diagnostics.length, 1);
        t.mock.timers.tick(KEEP_ALIVE_MS);
        assert.equal(await get.text(), UPDATE.repeat(told));
        // Read to its end, the stream is closed: a timer left running would throw here.
        t.mock.timers.tick(KEEP_ALIVE_MS);
        await handler.close();
    });
});
