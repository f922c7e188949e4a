/**
 * `client.listen()` over stdio against a scripted 2026-07-28 peer, on the raw wire: the exact
 * records sent, the acknowledgement read as untrusted input, and every way a subscription ends.
 */
import assert from 'node:assert/strict';
import {EventEmitter, once} from 'node:events';
import type {Readable, Writable} from 'node:stream';
import {test} from 'node:test';
import type {
    InProcessServer,
    ListName,
    McpClient,
    McpInProcessClientOptions,
} from '../../../lib/mcp/client/index.js';
import {
    connectInProcess,
    McpConnectionError,
    McpProtocolViolationError,
    McpRemoteError,
    McpTimeoutError,
} from '../../../lib/mcp/client/index.js';
import {GUARD} from './support.js';

const ENVELOPE =
    '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},' +
    '"io.modelcontextprotocol/clientInfo":{"name":"arcane-os","version":"0.1.0"}}';
const KEY = 'io.modelcontextprotocol/subscriptionId';
const CANCEL_2 =
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"The client ended the subscription"}}';

/** A modern peer that answers server/discover and records every other line; the test writes the rest. */
class Peer implements InProcessServer {
    readonly lines: string[] = [];
    readonly #events = new EventEmitter();
    #output: Writable | undefined;
    #resolveClosed: () => void = () => {};
    readonly closed = new Promise<void>((resolve) => {
        this.#resolveClosed = resolve;
    });

    start({input, output}: {input: Readable; output: Writable}): this {
        this.#output = output;
        input.setEncoding('utf8');
        let partial = '';
        input.on('data', (text: string) => {
            partial += text;
            for (let lf = partial.indexOf('\n'); lf !== -1; lf = partial.indexOf('\n')) {
                const line = partial.slice(0, lf);
                partial = partial.slice(lf + 1);
                const message = JSON.parse(line) as {id?: number; method?: string};
                if (message.method === 'server/discover') {
                    this.send({
                        jsonrpc: '2.0',
                        id: message.id,
                        result: {
                            supportedVersions: ['2026-07-28'],
                            capabilities: {resources: {subscribe: true}},
                        },
                    });
                    continue;
                }
                this.lines.push(line);
                this.#events.emit('line');
            }
        });
        input.on('end', () => {
            output.end();
            this.#resolveClosed();
        });
        return this;
    }

    async close(): Promise<void> {
        this.#output?.end();
        this.#resolveClosed();
    }

    send(message: unknown): void {
        this.#output?.write(`${JSON.stringify(message)}\n`);
    }

    /** A notification tagged with subscription `id`. */
    tagged(method: string, id: unknown, params: Record<string, unknown> = {}): void {
        this.send({jsonrpc: '2.0', method, params: {_meta: {[KEY]: id}, ...params}});
    }

    acknowledge(id: unknown, notifications: unknown): void {
        this.tagged('notifications/subscriptions/acknowledged', id, {notifications});
    }

    /** Every line received, once there are `count`. */
    async received(count: number): Promise<string[]> {
        while (this.lines.length < count) await once(this.#events, 'line');
        return [...this.lines];
    }
}

interface Seen {
    all: string[];
    lists: ListName[];
    updates: string[];
    /** Resolves once onNotification has heard `count` notifications. */
    heard(count: number): Promise<void>;
}

async function connect(options: McpInProcessClientOptions = {}): Promise<[Peer, McpClient, Seen]> {
    const peer = new Peer();
    const events = new EventEmitter();
    const seen: Seen = {
        all: [],
        lists: [],
        updates: [],
        heard: async (count) => {
            while (seen.all.length < count) await once(events, 'heard');
        },
    };
    const client = await connectInProcess(peer, {
        versionNegotiation: '2026-07-28',
        onNotification: (notification) => {
            seen.all.push(notification.method);
            events.emit('heard');
        },
        onListChanged: (list) => seen.lists.push(list),
        onResourceUpdated: ({uri}) => seen.updates.push(uri),
        ...options,
    });
    return [peer, client, seen];
}

test(
    'the request carries the filter and the envelope; close() sends notifications/cancelled',
    GUARD,
    async () => {
        const [peer, client, seen] = await connect();
        const listening = client.listen({lists: ['tools', 'prompts'], resources: ['file:///a', 'file:///b']});
        assert.deepEqual(await peer.received(1), [
            `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["file:///a","file:///b"]},${ENVELOPE}}}`,
        ]);
        peer.acknowledge(2, {toolsListChanged: true, resourceSubscriptions: ['file:///b']});
        const sub = await listening;
        assert.deepEqual(sub.granted, {resources: ['file:///b'], lists: ['tools']});
        assert.ok(Object.isFrozen(sub));
        peer.tagged('notifications/tools/list_changed', 2);
        peer.tagged('notifications/resources/updated', 2, {uri: 'file:///b'});
        // An untagged notification is delivered as in the legacy era.
        peer.send({jsonrpc: '2.0', method: 'notifications/prompts/list_changed'});
        // Tagged with an id that names no subscription of this session: observed only.
        peer.tagged('notifications/resources/updated', 9, {uri: 'file:///b'});
        peer.tagged('notifications/subscriptions/acknowledged', 2, {notifications: {}});
        const closed = sub.close();
        assert.equal(sub.close(), closed);
        await closed;
        assert.deepEqual(await peer.received(2), [peer.lines[0], CANCEL_2]);
        // Late ones, after the close, reach onNotification only.
        peer.tagged('notifications/resources/updated', 2, {uri: 'file:///b'});
        peer.send({jsonrpc: '2.0', id: 2, result: {resultType: 'complete', _meta: {[KEY]: 2}}});
        peer.send({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: 'last'}});
        await seen.heard(8);
        await client.close();
        assert.deepEqual(seen.lists, ['tools', 'prompts']);
        assert.deepEqual(seen.updates, ['file:///b']);
        assert.deepEqual(seen.all, [
            'notifications/subscriptions/acknowledged',
            'notifications/tools/list_changed',
            'notifications/resources/updated',
            'notifications/prompts/list_changed',
            'notifications/resources/updated',
            'notifications/subscriptions/acknowledged',
            'notifications/resources/updated',
            'notifications/message',
        ]);
        assert.deepEqual(await sub.ended, {by: 'client'});
        assert.deepEqual(peer.lines, [peer.lines[0], CANCEL_2]);
    },
);

/** A listen whose acknowledgement (or first message) is `reply`; resolves with its rejection. */
async function refused(reply: (peer: Peer) => void): Promise<[unknown, string[]]> {
    const [peer, client] = await connect();
    const listening = client.listen({resources: ['file:///a'], lists: ['tools']});
    await peer.received(1);
    reply(peer);
    const error = await listening.then(
        () => assert.fail('listen resolved'),
        (caught: unknown) => caught,
    );
    await client.close();
    return [error, peer.lines.slice(1)];
}

const VIOLATIONS: [string, (peer: Peer) => void, string][] = [
    [
        'no notifications object',
        (peer) => peer.acknowledge(2, ['file:///a']),
        'The MCP server\'s acknowledgement of subscriptions/listen 2 has no "notifications" object',
    ],
    [
        'a resource not asked for',
        (peer) => peer.acknowledge(2, {resourceSubscriptions: ['file:///a', 'file:///etc/passwd']}),
        'The MCP server\'s acknowledgement of subscriptions/listen 2 grants the resource "file:///etc/passwd", which was not asked for',
    ],
    [
        'a list not asked for',
        (peer) => peer.acknowledge(2, {promptsListChanged: true}),
        'The MCP server\'s acknowledgement of subscriptions/listen 2 grants "promptsListChanged", which was not asked for',
    ],
    [
        'a flag that is not a boolean',
        (peer) => peer.acknowledge(2, {toolsListChanged: 'yes'}),
        'The MCP server\'s acknowledgement of subscriptions/listen 2 has a "toolsListChanged" that is not a boolean',
    ],
    [
        'resourceSubscriptions that is not an array of strings',
        (peer) => peer.acknowledge(2, {resourceSubscriptions: 'file:///a'}),
        'The MCP server\'s acknowledgement of subscriptions/listen 2 has a "resourceSubscriptions" that is not an array of strings',
    ],
    [
        'a notification before the acknowledgement',
        (peer) => peer.tagged('notifications/resources/updated', 2, {uri: 'file:///a'}),
        'The MCP server sent notifications/resources/updated on subscription 2 before acknowledging it',
    ],
];

for (const [what, reply, message] of VIOLATIONS) {
    test(
        `an acknowledgement with ${what} fails listen as a protocol violation and cancels it`,
        GUARD,
        async () => {
            const [error, after] = await refused(reply);
            assert.ok(error instanceof McpProtocolViolationError);
            assert.equal(error.message, message);
            assert.deepEqual(after, [CANCEL_2]);
        },
    );
}

test('an answer before the acknowledgement is a violation; nothing is cancelled', GUARD, async () => {
    const [error, after] = await refused((peer) => peer.send({jsonrpc: '2.0', id: 2, result: {}}));
    assert.ok(error instanceof McpProtocolViolationError);
    assert.equal(
        error.message,
        'The MCP server answered subscriptions/listen before acknowledging it, so no subscription was opened',
    );
    assert.deepEqual(after, []);
});

test('an error answer rejects listen with McpRemoteError', GUARD, async () => {
    const [error, after] = await refused((peer) =>
        peer.send({jsonrpc: '2.0', id: 2, error: {code: -32602, message: 'bad filter'}}),
    );
    assert.ok(error instanceof McpRemoteError);
    assert.deepEqual(
        [error.code, error.message, error.method],
        [-32602, 'bad filter', 'subscriptions/listen'],
    );
    assert.deepEqual(after, []);
});

test('the server cancelling a pending listen rejects it; nothing is sent back', GUARD, async () => {
    const [error, after] = await refused((peer) =>
        peer.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 2}}),
    );
    assert.equal(
        (error as Error).message,
        'The MCP server cancelled subscriptions/listen before acknowledging it',
    );
    assert.deepEqual(after, []);
});

test('an acknowledgement with another id is ignored: the wait runs out and is cancelled', GUARD, async () => {
    const [peer, client, seen] = await connect();
    const listening = client.listen({resources: ['file:///a']}, {timeoutMs: 50});
    await peer.received(1);
    peer.acknowledge('2', {resourceSubscriptions: ['file:///a']});
    const error = await listening.then(
        () => assert.fail('listen resolved'),
        (caught: unknown) => caught,
    );
    assert.ok(error instanceof McpTimeoutError);
    assert.deepEqual([error.method, error.timeoutMs], ['subscriptions/listen', 50]);
    assert.deepEqual(await peer.received(2), [peer.lines[0], CANCEL_2]);
    assert.deepEqual(seen.all, ['notifications/subscriptions/acknowledged']);
    await client.close();
});

test('client.close() while listen is pending cancels it first and rejects it', GUARD, async () => {
    const [peer, client] = await connect();
    const listening = client.listen({resources: ['file:///a']});
    await peer.received(1);
    const closing = client.close();
    await assert.rejects(listening, {
        name: 'McpConnectionError',
        message: 'The MCP client was closed before the server acknowledged subscriptions/listen',
    });
    await closing;
    await peer.closed;
    assert.deepEqual(peer.lines.slice(1), [CANCEL_2]);
});

test('the signal: aborted before, while pending, and once open', GUARD, async () => {
    const [peer, client] = await connect();
    const reason = new Error('stop');
    await assert.rejects(
        client.listen({resources: ['file:///a']}, {signal: AbortSignal.abort(reason)}),
        (error) => error === reason,
    );
    const pending = new AbortController();
    const listening = client.listen({resources: ['file:///a']}, {signal: pending.signal});
    await peer.received(1);
    pending.abort(reason);
    await assert.rejects(listening, (error) => error === reason);
    const open = new AbortController();
    const opening = client.listen({resources: ['file:///a']}, {signal: open.signal});
    await peer.received(3);
    peer.acknowledge(3, {resourceSubscriptions: ['file:///a']});
    const sub = await opening;
    open.abort(reason);
    assert.deepEqual(await sub.ended, {by: 'client'});
    assert.deepEqual((await peer.received(4)).slice(1), [
        CANCEL_2,
        peer.lines[2],
        CANCEL_2.replace('"requestId":2', '"requestId":3'),
    ]);
    await client.close();
});

test('the server ends an open subscription: by its answer, by cancelling, by an error', GUARD, async () => {
    const [peer, client] = await connect();
    const open = async (id: number) => {
        const listening = client.listen({lists: ['resources']});
        await peer.received(id - 1);
        peer.acknowledge(id, {resourcesListChanged: true});
        return listening;
    };
    const answered = await open(2);
    const cancelled = await open(3);
    const failed = await open(4);
    peer.send({jsonrpc: '2.0', id: 2, result: {resultType: 'complete', _meta: {[KEY]: 2}}});
    peer.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: {requestId: 3, reason: 'shutting down'},
    });
    peer.send({jsonrpc: '2.0', id: 4, error: {code: -32603, message: 'lost the feed'}});
    assert.deepEqual(await answered.ended, {by: 'server'});
    assert.deepEqual(await cancelled.ended, {by: 'server'});
    const end = await failed.ended;
    assert.equal(end.by, 'error');
    assert.ok(end.by === 'error' && end.error instanceof McpRemoteError);
    await Promise.all([answered.close(), cancelled.close(), failed.close()]);
    assert.equal(peer.lines.length, 3);
    await client.close();
});

test('the connection ending ends an open subscription with its error', GUARD, async () => {
    const [peer, client] = await connect();
    const listening = client.listen({resources: ['file:///a']});
    await peer.received(1);
    peer.acknowledge(2, {});
    const sub = await listening;
    assert.deepEqual(sub.granted, {resources: [], lists: []});
    await peer.close();
    const end = await sub.ended;
    assert.ok(end.by === 'error' && end.error instanceof McpConnectionError);
    await client.close();
});

test('the connection ending while listen is pending rejects it with that error', GUARD, async () => {
    const [peer, client] = await connect();
    const listening = client.listen({resources: ['file:///a']}, {timeoutMs: Number.POSITIVE_INFINITY});
    await peer.received(1);
    // A cancellation of something else is only observed.
    peer.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 'other'}});
    await peer.close();
    await assert.rejects(listening, McpConnectionError);
    await client.close();
});
