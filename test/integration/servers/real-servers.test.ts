/**
 * Real servers over stdio: this package's own server, and the official SDK 1.x and 2.x servers,
 * each serving the catalog of `fixtures/sdk-catalog.ts` through its own code. The client must
 * handshake, page, call, fail, report progress, cancel, time out and close against each.
 */
import assert from 'node:assert/strict';
import {afterEach, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {Progress} from '../../../lib/mcp/client/index.js';
import {
    connectMcpClient,
    McpRemoteError,
    McpTimeoutError,
    readToolResult,
} from '../../../lib/mcp/client/index.js';
import {MOON_PANTRY, REPO_ROOT} from '../../helpers/paths.js';
import {assertGone, closeAll, GUARD, Wire} from '../../mcp/client/support.js';
import {RESOURCE, TOOLS_PAGE_1, TOOLS_PAGE_2} from './fixtures/sdk-catalog.js';

afterEach(closeAll);

interface Subject {
    label: string;
    fixture: string;
    serverInfo: object;
    instructions: string;
    progress: boolean;
}

const SUBJECTS: Subject[] = [
    {
        label: 'our own stdio server',
        fixture: 'own-server',
        serverInfo: {name: 'own-fixture', version: '0.1.0'},
        instructions: 'Our own server.',
        progress: false,
    },
    {
        label: 'the official SDK 1.x server',
        fixture: 'sdk-v1-server',
        serverInfo: {name: 'sdk-v1-fixture', version: '1.0.0'},
        instructions: 'An SDK 1.x server.',
        progress: true,
    },
    {
        label: 'the official SDK 2.x server',
        fixture: 'sdk-v2-server',
        serverInfo: {name: 'sdk-v2-fixture', version: '2.0.0'},
        instructions: 'An SDK 2.x server.',
        progress: true,
    },
];

async function connect(subject: Subject) {
    const wire = new Wire();
    const client = await connectMcpClient({
        command: process.execPath,
        args: [fileURLToPath(new URL(`./fixtures/${subject.fixture}.js`, import.meta.url))],
        stderr: wire.stderr,
    });
    return {client, wire, pid: await wire.pid()};
}

for (const subject of SUBJECTS) {
    describe(subject.label, () => {
        test('the handshake negotiates 2025-11-25 and keeps what the server said', GUARD, async () => {
            const {client, pid} = await connect(subject);
            assert.equal(client.protocolVersion, '2025-11-25');
            assert.deepEqual(
                {...client.serverInfo, title: undefined},
                {...subject.serverInfo, title: undefined},
            );
            assert.equal(client.instructions, subject.instructions);
            assert.deepEqual(client.capabilities.tools, {});
            await client.close();
            assertGone(pid);
        });

        test('listTools returns every tool of every page, schemas as authored', GUARD, async () => {
            // The SDK fixtures serve the second half of the tools only on the page after "page-2".
            const {client} = await connect(subject);
            const expected = [...TOOLS_PAGE_1, ...TOOLS_PAGE_2].filter(
                (tool) => subject.progress || tool.name !== 'progress',
            );
            assert.deepEqual(await client.listTools(), expected);
            await client.close();
        });

        test('a successful call, an isError call and an unknown tool', GUARD, async () => {
            const {client} = await connect(subject);
            const echoed = await client.callTool('echo', {text: 'hi'});
            assert.deepEqual(echoed, {
                content: [{type: 'text', text: 'hi'}],
                structuredContent: {echoed: 'hi'},
            });
            assert.deepEqual(readToolResult(echoed), {echoed: 'hi'});
            const failed = await client.callTool('fail');
            assert.equal(failed.isError, true);
            assert.throws(() => readToolResult(failed), {
                name: 'McpToolError',
                message: 'The tool reported an error: it failed, as it always does',
            });
            await assert.rejects(client.callTool('nope'), (error) => {
                assert.ok(error instanceof McpRemoteError);
                assert.equal(error.code, -32602);
                return true;
            });
            await client.close();
        });

        if (subject.progress) {
            test('progress notifications reach onProgress in order', GUARD, async () => {
                const {client} = await connect(subject);
                const updates: Progress[] = [];
                const result = await client.callTool(
                    'progress',
                    {},
                    {onProgress: (update) => updates.push(update)},
                );
                assert.deepEqual(result, {content: [{type: 'text', text: 'done'}]});
                assert.deepEqual(updates, [
                    {progress: 1, total: 2},
                    {progress: 2, total: 2},
                ]);
                await client.close();
            });
        }

        test('an abort reaches the running handler through notifications/cancelled', GUARD, async () => {
            const {client, wire, pid} = await connect(subject);
            const controller = new AbortController();
            const reason = new Error('stop waiting');
            const call = client.callTool('wait', {}, {signal: controller.signal});
            // Let the request reach the handler: a second request answered after it proves it was read.
            await client.listResources();
            controller.abort(reason);
            await assert.rejects(call, (error) => error === reason);
            assert.match(await wire.until((line) => line.startsWith('CANCELLED')), /^CANCELLED /);
            assert.deepEqual(await client.callTool('echo', {text: 'after'}), {
                content: [{type: 'text', text: 'after'}],
                structuredContent: {echoed: 'after'},
            });
            await client.close();
            assertGone(pid);
        });

        test('a timeout reaches the running handler through notifications/cancelled', GUARD, async () => {
            const {client, wire} = await connect(subject);
            await assert.rejects(client.callTool('wait', {}, {timeoutMs: 100}), McpTimeoutError);
            assert.match(await wire.until((line) => line.startsWith('CANCELLED')), /^CANCELLED /);
            await client.close();
        });

        test('resources are listed and read, and a missing one is an error', GUARD, async () => {
            const {client} = await connect(subject);
            assert.deepEqual(await client.listResources(), [RESOURCE]);
            assert.deepEqual(await client.readResource('sdk://note'), {
                contents: [{uri: 'sdk://note', mimeType: 'text/plain', text: 'a note'}],
            });
            await assert.rejects(client.readResource('sdk://missing'), McpRemoteError);
            await client.close();
        });
    });
}

test('the moon-pantry example is served to the client as its README shows', GUARD, async () => {
    const client = await connectMcpClient({command: process.execPath, args: [MOON_PANTRY], cwd: REPO_ROOT});
    assert.equal(client.serverInfo.name, 'moon-pantry');
    const [tool] = await client.listTools();
    assert.equal(tool?.name, 'moon.menu');
    assert.deepEqual(readToolResult(await client.callTool('moon.menu')), {
        content: 'Moon soup\nExtra tentacles available.',
        message: {chef: 'Octopus', open: true},
    });
    await client.close();
});
