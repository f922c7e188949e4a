/**
 * A `subscriptions/listen` whose body was still arriving when `close()` was called: `close()`
 * answered the listen streams open then, so this one is answered as soon as it opens, rather than
 * left open on a closed handler that can no longer tell it anything or end it.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {makeHandler, modern} from './support.js';

const KEY = 'io.modelcontextprotocol/subscriptionId';
const RESOURCES = [{uri: 'mem://a', name: 'a', handler: () => ({contents: [{uri: 'mem://a', text: 'a'}]})}];
const message = (record: string) => `event: message\ndata: ${record}\n\n`;

test('a listen that opens after close() began is answered at once', {timeout: 10_000}, async () => {
    const {handler} = makeHandler(undefined, {resources: RESOURCES, subscriptions: true});
    const json = modern(6, 'subscriptions/listen', {notifications: {resourceSubscriptions: ['mem://a']}});
    const bytes = new Uint8Array(await json.arrayBuffer());
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
        start: (controller) => {
            push = controller;
        },
    });
    const request = new Request(json.url, {
        method: 'POST',
        headers: json.headers,
        body,
        duplex: 'half',
    } as RequestInit);
    const answering = handler.fetch(request);
    const closing = handler.close();
    push.enqueue(bytes);
    push.close();
    const response = await answering;
    assert.equal(response.status, 200);
    assert.equal(
        await response.text(),
        message(
            `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"${KEY}":6},"notifications":{"resourceSubscriptions":["mem://a"]}}}`,
        ) + message(`{"jsonrpc":"2.0","id":6,"result":{"resultType":"complete","_meta":{"${KEY}":6}}}`),
    );
    await closing;
});
