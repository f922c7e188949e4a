/**
 * Timeouts that progress extends: with `resetTimeoutOnProgress`, each progress notification starts
 * the call's `timeoutMs` over, up to `maxTotalTimeoutMs`; without it, or without progress, the
 * call times out as before. The server is this package's own, in process; its tool reports
 * progress every 200 ms and finishes when the test says so.
 */
import assert from 'node:assert/strict';
import {after, test} from 'node:test';
import type {McpClient, Progress} from '../../../lib/mcp/client/index.js';
import {connectInProcess, McpTimeoutError} from '../../../lib/mcp/client/index.js';
import {longServer, PROGRESS_EVERY_MS} from './fixtures/long-server.js';
import {closeAll, connectFake, GUARD} from './support.js';

const clients: McpClient[] = [];
after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await closeAll();
});

async function connectLong() {
    const long = longServer();
    const client = await connectInProcess(long.server);
    clients.push(client);
    return {...long, client};
}

const TIMEOUT_MS = 1000;
/** Progress notifications that prove the call outlived its timeout: 6 × 200 ms > 1 s. */
const PAST_TIMEOUT = Math.ceil(TIMEOUT_MS / PROGRESS_EVERY_MS) + 1;

test(
    'a call whose server reports progress every 200 ms runs past a 1 s timeout to its result',
    GUARD,
    async () => {
        const {client, nextCall} = await connectLong();
        const updates: Progress[] = [];
        let running: Promise<Awaited<ReturnType<typeof nextCall>>> | undefined;
        const result = client.callTool(
            'long',
            {},
            {
                timeoutMs: TIMEOUT_MS,
                resetTimeoutOnProgress: true,
                onProgress: (update) => {
                    updates.push(update);
                    if (updates.length === PAST_TIMEOUT) void running?.then((call) => call.finish());
                },
            },
        );
        running = nextCall();
        assert.deepEqual(await result, {content: [{type: 'text', text: 'finished'}]});
        assert.ok(updates.length >= PAST_TIMEOUT, `${updates.length} progress notifications`);
        assert.deepEqual(
            updates.slice(0, PAST_TIMEOUT),
            [1, 2, 3, 4, 5, 6].map((progress) => ({progress})),
        );
    },
);

test(
    'such a call is stopped by its maximum, cancelled on the wire, with a timeout error naming it',
    GUARD,
    async () => {
        const {client, nextCall} = await connectLong();
        const calling = client.callTool(
            'long',
            {},
            {timeoutMs: TIMEOUT_MS, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 1500},
        );
        const call = await nextCall();
        await assert.rejects(calling, (error: unknown) => {
            assert.ok(error instanceof McpTimeoutError);
            assert.deepEqual(
                {
                    bound: error.bound,
                    timeoutMs: error.timeoutMs,
                    method: error.method,
                    message: error.message,
                },
                {
                    bound: 'maxTotalTimeoutMs',
                    timeoutMs: 1500,
                    method: 'tools/call',
                    message:
                        'The MCP server did not finish tools/call within its maximum of 1500 ms, progress notwithstanding; ' +
                        'the client stopped waiting and sent notifications/cancelled, but the server may still be working ' +
                        'on it. Raise maxTotalTimeoutMs if the operation needs longer.',
                },
            );
            return true;
        });
        assert.equal(await call.cancelled, "The client reached the call's maximum of 1500 ms");
    },
);

test('without the option the same call times out at timeoutMs, progress or not', GUARD, async () => {
    const {client, nextCall} = await connectLong();
    const updates: Progress[] = [];
    const calling = client.callTool(
        'long',
        {},
        {timeoutMs: TIMEOUT_MS, onProgress: (update) => updates.push(update)},
    );
    const call = await nextCall();
    await assert.rejects(calling, {
        name: 'McpTimeoutError',
        bound: 'timeoutMs',
        timeoutMs: TIMEOUT_MS,
        message:
            'The MCP server did not answer tools/call within 1000 ms; the client stopped waiting and sent ' +
            'notifications/cancelled, but the server may still be working on it. Raise timeoutMs if the ' +
            'operation needs longer.',
    });
    assert.equal(await call.cancelled, 'The client timed out after 1000 ms');
    assert.ok(
        updates.length > 0 && updates.length < PAST_TIMEOUT,
        `${updates.length} progress notifications`,
    );
});

test(
    'with the option but no progress from the server, the call times out at timeoutMs as before',
    GUARD,
    async () => {
        const {client, nextCall} = await connectLong();
        const calling = client.callTool('quiet', {}, {timeoutMs: TIMEOUT_MS, resetTimeoutOnProgress: true});
        const call = await nextCall();
        await assert.rejects(calling, {name: 'McpTimeoutError', bound: 'timeoutMs', timeoutMs: TIMEOUT_MS});
        assert.equal(await call.cancelled, 'The client timed out after 1000 ms');
    },
);

test(
    'resetTimeoutOnProgress alone asks for progress on the wire; the options are checked at the call site',
    GUARD,
    async () => {
        const {client, wire} = await connectFake();
        await client.callTool('t', {}, {resetTimeoutOnProgress: true});
        assert.equal(
            await wire.receivedLine('"tools/call"'),
            '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"progressToken":2}}}',
        );
        await client.callTool('t', {}, {maxTotalTimeoutMs: 5000});
        assert.equal(
            await wire.receivedLine('"id":3'),
            '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{}}}',
        );
        assert.throws(() => client.callTool('t', {}, {resetTimeoutOnProgress: 'yes'} as never), {
            name: 'TypeError',
            message: 'client.callTool: resetTimeoutOnProgress must be true or false, got the string "yes"',
        });
        assert.throws(() => client.callTool('t', {}, {maxTotalTimeoutMs: 0}), {
            name: 'RangeError',
            message:
                'client.callTool: maxTotalTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, ' +
                'or Infinity for no timeout; got 0',
        });
    },
);
