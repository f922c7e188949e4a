/**
 * `client.listen()` against this package's own stdio server in the 2026-07-28 era (in process):
 * acknowledgement, updates to `onResourceUpdated`, close by `notifications/cancelled`, the server's
 * graceful end, `subscribeResource` routed through listen, and the legacy era's refusal.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {McpInProcessClientOptions, ResourceUpdated} from '../../../lib/mcp/client/index.js';
import {connectInProcess, McpClientError, McpRemoteError} from '../../../lib/mcp/client/index.js';
import type {McpStdioServer, McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {deferred} from '../../helpers/deferred.js';
import {GUARD} from './support.js';

const WATCHED = 'test://watched';
const OTHER = 'test://other';

function server(extra: Partial<McpStdioServerOptions> = {}): McpStdioServer {
    return createMcpStdioServer({
        serverInfo: {name: 'subs', version: '1.0.0'},
        protocolVersions: ['2026-07-28', '2025-11-25'],
        resources: [
            {uri: WATCHED, name: 'w', handler: ({uri}) => ({contents: [{uri, text: 'W'}]})},
            {uri: OTHER, name: 'o', handler: ({uri}) => ({contents: [{uri, text: 'O'}]})},
        ],
        subscriptions: true,
        ...extra,
    });
}

/** A modern session whose every notification is recorded, and whose updates are awaited one by one. */
async function modern(own: McpStdioServer, options: McpInProcessClientOptions = {}) {
    const updates: string[] = [];
    const seen: string[] = [];
    let waiting = deferred<void>();
    const client = await connectInProcess(own, {
        versionNegotiation: '2026-07-28',
        stderr: 'ignore',
        onNotification: (notification) => seen.push(JSON.stringify(notification)),
        onResourceUpdated: (update: ResourceUpdated) => {
            updates.push(update.uri);
            waiting.resolve();
        },
        ...options,
    });
    const nextUpdate = async () => {
        await waiting.promise;
        waiting = deferred<void>();
    };
    return {client, updates, seen, nextUpdate};
}

test(
    'listen is acknowledged, delivers updates to onResourceUpdated and ends with close()',
    GUARD,
    async () => {
        const own = server();
        const {client, updates, seen, nextUpdate} = await modern(own);
        const sub = await client.listen({resources: [WATCHED, 'test://unknown', WATCHED]});
        assert.equal(sub.id, 2);
        assert.deepEqual(sub.requested, {resources: [WATCHED, 'test://unknown'], lists: []});
        assert.deepEqual(sub.granted, {resources: [WATCHED], lists: []});
        assert.deepEqual(seen, [
            '{"method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":2},"notifications":{"resourceSubscriptions":["test://watched"]}}}',
        ]);
        assert.equal(own.notifyResourceUpdated(OTHER), 0);
        assert.equal(own.notifyResourceUpdated(WATCHED), 1);
        await nextUpdate();
        assert.deepEqual(updates, [WATCHED]);
        const closing = sub.close();
        assert.equal(sub.close(), closing);
        await closing;
        assert.deepEqual(await sub.ended, {by: 'client'});
        // The server heard the cancellation: the stream is gone, nothing more is sent for it.
        await client.readResource(OTHER);
        assert.equal(own.notifyResourceUpdated(WATCHED), 0);
        await client.close();
        await own.closed;
    },
);

test('a callback that throws never breaks the subscription', GUARD, async () => {
    const own = server();
    const reached = deferred<void>();
    let calls = 0;
    const client = await connectInProcess(own, {
        versionNegotiation: '2026-07-28',
        stderr: 'ignore',
        onNotification: () => {
            throw new Error('observer');
        },
        onResourceUpdated: () => {
            calls += 1;
            if (calls === 2) reached.resolve();
            throw new Error('typed');
        },
    });
    const sub = await client.listen({resources: [WATCHED]});
    own.notifyResourceUpdated(WATCHED);
    own.notifyResourceUpdated(WATCHED);
    await reached.promise;
    await client.readResource(OTHER);
    await sub.close();
    await client.close();
});

test('two subscriptions are told apart by their ids', GUARD, async () => {
    const own = server();
    const {client, updates, nextUpdate} = await modern(own);
    const first = await client.listen({resources: [WATCHED]});
    const second = await client.listen({resources: [OTHER]});
    assert.deepEqual([first.id, second.id], [2, 3]);
    own.notifyResourceUpdated(OTHER);
    await nextUpdate();
    await second.close();
    assert.equal(own.notifyResourceUpdated(OTHER), 0);
    own.notifyResourceUpdated(WATCHED);
    await nextUpdate();
    assert.deepEqual(updates, [OTHER, WATCHED]);
    await client.close();
    assert.deepEqual(await first.ended, {by: 'client'});
});

test(
    'the server closing answers the listen request: the subscription ends by the server',
    GUARD,
    async () => {
        const own = server();
        const {client} = await modern(own);
        const sub = await client.listen({resources: [WATCHED]});
        await own.close();
        assert.deepEqual(await sub.ended, {by: 'server'});
        await sub.close();
        await client.close();
    },
);

test("subscribeResource in the modern era opens a listen of the URI's own", GUARD, async () => {
    const own = server();
    const {client, updates, seen, nextUpdate} = await modern(own);
    const wait = new AbortController();
    await client.subscribeResource(WATCHED, {signal: wait.signal});
    await client.subscribeResource(WATCHED);
    assert.equal(seen.length, 1);
    // Its signal bounded the wait for the acknowledgement only.
    wait.abort();
    own.notifyResourceUpdated(WATCHED);
    await nextUpdate();
    assert.deepEqual(updates, [WATCHED]);
    await client.unsubscribeResource(WATCHED);
    await client.unsubscribeResource(WATCHED);
    await client.readResource(OTHER);
    assert.equal(own.notifyResourceUpdated(WATCHED), 0);
    await assert.rejects(client.subscribeResource('test://unknown'), {
        name: 'McpClientError',
        message:
            'The MCP server acknowledged the subscription to "test://unknown" without granting it: it serves no updates for that resource (see capabilities.resources.subscribe)',
    });
    await client.close();
});

test('a server without subscriptions refuses listen with -32601', GUARD, async () => {
    const own = server({subscriptions: false});
    const {client} = await modern(own);
    const error = await client.listen({resources: [WATCHED]}).then(
        () => assert.fail('resolved'),
        (caught: unknown) => caught,
    );
    assert.ok(error instanceof McpRemoteError);
    assert.equal(error.code, -32601);
    assert.equal(error.method, 'subscriptions/listen');
    await client.close();
});

test('listen in the legacy era rejects and says what to use instead', GUARD, async () => {
    const own = server();
    const client = await connectInProcess(own, {stderr: 'ignore'});
    const error = await client.listen({resources: [WATCHED]}).then(
        () => assert.fail('resolved'),
        (caught: unknown) => caught,
    );
    assert.ok(error instanceof McpClientError);
    assert.equal(
        error.message,
        "client.listen: subscriptions/listen belongs to protocol revision 2026-07-28, and this session speaks an earlier one; use subscribeResource(uri) and onListChanged, or connect with versionNegotiation: 'auto' to a server that serves 2026-07-28",
    );
    await client.close();
});

test('a wrong filter or option is thrown at the call site', GUARD, async () => {
    const own = server();
    const {client} = await modern(own);
    assert.throws(() => client.listen(undefined as never), {
        name: 'TypeError',
        message:
            "client.listen needs a filter {resources?: string[], lists?: ('tools' | 'resources' | 'prompts')[]}, got undefined",
    });
    assert.throws(() => client.listen({}), {
        name: 'RangeError',
        message: 'client.listen: the filter asks for nothing; name resources, lists, or both',
    });
    assert.throws(() => client.listen({lists: ['files' as never]}), {
        name: 'RangeError',
        message: "client.listen: lists may hold 'tools', 'resources', 'prompts', got the string \"files\"",
    });
    assert.throws(() => client.listen({resources: [7 as never]}), {
        name: 'TypeError',
        message: 'client.listen: resources[0] must be a resource URI, got number 7',
    });
    assert.throws(() => client.listen({resources: [WATCHED]}, {timeoutMs: 0}), {name: 'RangeError'});
    assert.throws(() => client.listen({uris: []} as never), {name: 'TypeError'});
    assert.throws(() => client.listen({resources: WATCHED as never}), {
        name: 'TypeError',
        message: `client.listen: resources must be an array of resource URIs, got the string ${JSON.stringify(WATCHED)}`,
    });
    assert.throws(() => client.listen({lists: 'tools' as never}), {
        name: 'TypeError',
        message: 'client.listen: lists must be an array of list names, got the string "tools"',
    });
    await client.close();
});
