/**
 * The client's surface beyond tools against the official SDK 1.x `McpServer`: prompts, resource
 * templates, completion, ping, logging, list changes, resource updates, and a call whose timeout
 * its progress extends.
 */
import assert from 'node:assert/strict';
import {after, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {LoggingMessage, Progress, ResourceUpdated} from '../../../lib/mcp/client/index.js';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import {assertGone, GUARD, Wire} from '../../mcp/client/support.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/sdk-v1-surface-server.js', import.meta.url));

const logs: LoggingMessage[] = [];
const lists: string[] = [];
const updates: ResourceUpdated[] = [];
const wire = new Wire();
const client = await connectMcpClient({
    command: process.execPath,
    args: [FIXTURE],
    stderr: wire.stderr,
    onLog: (message) => logs.push(message),
    onListChanged: (list) => lists.push(list),
    onResourceUpdated: (update) => updates.push(update),
});
const pid = await wire.pid();
after(async () => {
    await client.close();
    assertGone(pid);
});

test('prompts are listed, got and completed', GUARD, async () => {
    const prompts = await client.listPrompts();
    assert.deepEqual(
        prompts.map(({name, description, arguments: args}) => ({name, description, args})),
        [{name: 'review', description: 'Review code', args: [{name: 'language', required: true}]}],
    );
    assert.deepEqual(await client.getPrompt('review', {language: 'python'}), {
        messages: [{role: 'user', content: {type: 'text', text: 'Review this python code.'}}],
    });
    const {completion} = await client.complete({
        ref: {type: 'ref/prompt', name: 'review'},
        argument: {name: 'language', value: 'py'},
    });
    assert.deepEqual(completion.values, ['python', 'pytorch']);
    await assert.rejects(client.getPrompt('missing'), {name: 'McpRemoteError', code: -32602});
});

test('resource templates are listed and completed, and a templated resource read', GUARD, async () => {
    const templates = await client.listResourceTemplates();
    assert.deepEqual(
        templates.map(({uriTemplate, name, mimeType}) => ({uriTemplate, name, mimeType})),
        [{uriTemplate: 'note:///{name}', name: 'notes', mimeType: 'text/plain'}],
    );
    const {completion} = await client.complete({
        ref: {type: 'ref/resource', uri: 'note:///{name}'},
        argument: {name: 'name', value: 'a'},
    });
    assert.deepEqual(completion.values, ['alpha']);
    assert.deepEqual(await client.readResource('note:///beta'), {
        contents: [{uri: 'note:///beta', text: 'note beta'}],
    });
    assert.equal(await client.ping(), undefined);
});

test(
    'logging, list changes and resource updates reach their callbacks; progress extends the timeout',
    GUARD,
    async () => {
        await client.setLoggingLevel('info');
        await client.subscribeResource('note:///alpha');
        const progress: Progress[] = [];
        const result = await client.callTool(
            'work',
            {steps: 7},
            {timeoutMs: 1000, resetTimeoutOnProgress: true, onProgress: (update) => progress.push(update)},
        );
        // Seven steps of 200 ms: the call outlived its 1 s timeout on the strength of its progress.
        assert.deepEqual(result, {content: [{type: 'text', text: 'did 7 steps'}]});
        assert.deepEqual(
            progress.map(({progress: done}) => done),
            [1, 2, 3, 4, 5, 6, 7],
        );
        assert.deepEqual(logs, [{level: 'info', logger: 'work', data: 'starting 7 steps'}]);
        assert.deepEqual(lists, ['resources', 'prompts']);
        assert.deepEqual(updates, [{uri: 'note:///alpha'}]);
        await client.unsubscribeResource('note:///alpha');
        await assert.rejects(client.callTool('work', {steps: 7}, {timeoutMs: 1000}), {
            name: 'McpTimeoutError',
            bound: 'timeoutMs',
            timeoutMs: 1000,
        });
    },
);
