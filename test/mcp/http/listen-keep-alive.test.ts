/**
 * A 2026-07-28 listen stream carries nothing while no resource changes, and an HTTP client or
 * proxy gives up a response body that stays silent (Node's fetch after 300 s): the handler writes
 * an SSE comment on each open listen stream at a fixed interval, which no client dispatches.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {KEEP_ALIVE_MS} from '../../../lib/mcp/http/keep-alive.js';
import {makeHandler, modern} from './support.js';

const KEY = 'io.modelcontextprotocol/subscriptionId';
const RESOURCES = [{uri: 'mem://a', name: 'a', handler: () => ({contents: [{uri: 'mem://a', text: 'a'}]})}];

function events(response: Response) {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    return async (): Promise<string | undefined> => {
        for (;;) {
            const end = buffer.indexOf('\n\n');
            if (end >= 0) {
                const event = buffer.slice(0, end + 2);
                buffer = buffer.slice(end + 2);
                return event;
            }
            const {done, value} = await reader.read();
            if (done) return undefined;
            buffer += decoder.decode(value, {stream: true});
        }
    };
}

const message = (record: string) => `event: message\ndata: ${record}\n\n`;

test('an open listen stream gets a comment each interval, and none once it is answered', async (t) => {
    t.mock.timers.enable({apis: ['setInterval']});
    const {handler} = makeHandler(undefined, {resources: RESOURCES, subscriptions: true});
    const response = await handler.fetch(
        modern(4, 'subscriptions/listen', {notifications: {resourceSubscriptions: ['mem://a']}}),
    );
    const next = events(response);
    assert.equal(
        await next(),
        message(
            `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"${KEY}":4},"notifications":{"resourceSubscriptions":["mem://a"]}}}`,
        ),
    );
    t.mock.timers.tick(KEEP_ALIVE_MS);
    assert.equal(await next(), ':\n\n');
    assert.equal(handler.notifyResourceUpdated('mem://a'), 1);
    assert.equal(
        await next(),
        message(
            `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"${KEY}":4},"uri":"mem://a"}}`,
        ),
    );
    t.mock.timers.tick(KEEP_ALIVE_MS);
    assert.equal(await next(), ':\n\n');
    await handler.close();
    t.mock.timers.tick(KEEP_ALIVE_MS);
    assert.equal(
        await next(),
        message(`{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","_meta":{"${KEY}":4}}}`),
    );
    assert.equal(await next(), undefined);
});
