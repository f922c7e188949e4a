/**
 * A legacy session's GET stream is bounded: a client that leaves too much unread loses the stream.
 * The bound is on what piles up: an event of any size goes on a stream with nothing unread.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {McpTool} from '../../../lib/mcp/http/index.js';
import {MAX_UNREAD_STREAM_BYTES} from '../../../lib/mcp/http/legacy-session.js';
import {ENDPOINT, events, Gate, initializeBody, LEGACY, makeHandler, post, text} from './support.js';

/** Each question carries this much text, so that a few fill the bound. */
const FILLER = 'x'.repeat(100_000);
const QUESTIONS = 15;

/** Once released, asks the client `QUESTIONS` questions at once (its POST has gone by then). */
function asker(gate: Gate): McpTool {
    return {
        name: 'ask',
        inputSchema: {type: 'object'},
        handler: async (_args, context) => {
            await gate.run(context);
            for (let index = 0; index < QUESTIONS; index += 1) {
                context
                    .elicit({
                        message: `${index} ${FILLER}`,
                        requestedSchema: {type: 'object', properties: {ok: {type: 'boolean'}}},
                    })
                    .catch(() => {});
            }
            return text('asked');
        },
    };
}

describe('a GET stream nobody reads', () => {
    test('ends once its unread events would pass the bound; what it holds is still delivered', async () => {
        const gate = new Gate();
        const {handler, diagnostics} = makeHandler(gate, {tools: [asker(gate)]});
        const init = {
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {
                protocolVersion: LEGACY,
                capabilities: {elicitation: {}},
                clientInfo: {name: 't', version: '1'},
            },
        };
        const opened = await handler.fetch(post(init));
        await opened.text();
        const session = opened.headers.get('mcp-session-id') as string;
        const headers = {'mcp-session-id': session, 'mcp-protocol-version': LEGACY};
        const get = () =>
            handler.fetch(new Request(ENDPOINT, {headers: {...headers, accept: 'text/event-stream'}}));
        const stream = await get();
        assert.equal(stream.status, 200);
        // The call's client goes away: its questions have only the GET stream left.
        const gone = new AbortController();
        const call = handler.fetch(
            post({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}}, headers, {
                signal: gone.signal,
            }),
        );
        await gate.started(1);
        gone.abort();
        assert.equal((await call).status, 499);
        gate.release(0, undefined);
        await handler.drain();
        assert.deepEqual(diagnostics, [
            `[arcane-os/mcp/stdio] Ended a session's GET stream: its client left over ${MAX_UNREAD_STREAM_BYTES} bytes of events unread; what the session sends before the client opens a new one is dropped\n`,
        ]);
        const reader = events(stream);
        const sizes: number[] = [];
        const ids: string[] = [];
        for (let event = await reader.next(); event !== undefined; event = await reader.next()) {
            sizes.push(Buffer.byteLength(`${event}\n\n`));
            ids.push((JSON.parse(event.slice('event: message\ndata: '.length)) as {id: string}).id);
        }
        // Every event is about the same size: as many as fit, in order, and not one more.
        const total = sizes.reduce((sum, size) => sum + size, 0);
        assert.ok(total <= MAX_UNREAD_STREAM_BYTES, `${total} bytes held`);
        assert.ok(total + (sizes.at(-1) as number) > MAX_UNREAD_STREAM_BYTES, `${total} bytes held`);
        assert.deepEqual(
            ids,
            sizes.map((_size, index) => `arcane-os:${index + 1}`),
        );
        assert.ok(ids.length < QUESTIONS);
        // The session lives on, and its client may listen again.
        const again = await get();
        assert.equal(again.status, 200);
        assert.equal(handler.sessionCount, 1);
        await handler.close();
        assert.equal(await again.text(), '');
    });
});

const SMALL = 'mem://a';
/** A URI whose update alone is over the bound. */
const LARGE = `mem://${'b'.repeat(MAX_UNREAD_STREAM_BYTES)}`;
const update = (uri: string) =>
    `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"${uri}"}}\n\n`;

/** A legacy session subscribed to both URIs, with its GET stream open and not read yet. */
async function subscribed() {
    const resources = [SMALL, LARGE].map((uri) => ({
        uri,
        name: uri.slice(0, 8),
        handler: () => ({contents: [{uri, text: ''}]}),
    }));
    const made = makeHandler(undefined, {resources, subscriptions: true});
    const opened = await made.handler.fetch(post(initializeBody()));
    await opened.text();
    const headers = {
        'mcp-session-id': opened.headers.get('mcp-session-id') as string,
        'mcp-protocol-version': LEGACY,
    };
    for (const [index, uri] of [SMALL, LARGE].entries()) {
        const body = {jsonrpc: '2.0', id: index + 1, method: 'resources/subscribe', params: {uri}};
        assert.equal(
            await (await made.handler.fetch(post(body, headers))).text(),
            `{"jsonrpc":"2.0","id":${index + 1},"result":{}}\n`,
        );
    }
    const get = await made.handler.fetch(
        new Request(ENDPOINT, {headers: {...headers, accept: 'text/event-stream'}}),
    );
    assert.equal(get.status, 200);
    return {...made, get};
}

describe('a GET stream and one event over the bound', () => {
    test('is delivered whole when nothing is unread, and the stream stays open', async () => {
        const {handler, diagnostics, get} = await subscribed();
        assert.ok(Buffer.byteLength(update(LARGE)) > MAX_UNREAD_STREAM_BYTES);
        assert.equal(handler.notifyResourceUpdated(LARGE), 1);
        const reader = (get.body as ReadableStream<Uint8Array>).getReader();
        const first = await reader.read();
        assert.equal(Buffer.from(first.value as Uint8Array).toString(), update(LARGE));
        // Read, it no longer counts: the next event goes on the same stream.
        assert.equal(handler.notifyResourceUpdated(SMALL), 1);
        const second = await reader.read();
        assert.equal(Buffer.from(second.value as Uint8Array).toString(), update(SMALL));
        assert.deepEqual(diagnostics, []);
        await handler.close();
        assert.equal((await reader.read()).done, true);
    });

    test('ends the stream when anything is unread before it; what was unread is still delivered', async () => {
        const {handler, diagnostics, get} = await subscribed();
        assert.equal(handler.notifyResourceUpdated(SMALL), 1);
        assert.equal(handler.notifyResourceUpdated(LARGE), 0);
        assert.deepEqual(diagnostics, [
            `[arcane-os/mcp/stdio] Ended a session's GET stream: its client left over ${MAX_UNREAD_STREAM_BYTES} bytes of events unread; what the session sends before the client opens a new one is dropped\n`,
        ]);
        assert.equal(await get.text(), update(SMALL));
        await handler.close();
    });

    test('left unread, counts against the bound for the events after it', async () => {
        const {handler, diagnostics, get} = await subscribed();
        assert.equal(handler.notifyResourceUpdated(LARGE), 1);
        assert.equal(handler.notifyResourceUpdated(SMALL), 0);
        assert.equal(diagnostics.length, 1);
        assert.equal(await get.text(), update(LARGE));
        await handler.close();
    });
});
