/**
 * The client's surface beyond tools against this package's own server, in process: prompts with
 * completers, resource templates with completers, logging through `context.log`, and ping.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {LoggingMessage} from '../../../lib/mcp/client/index.js';
import {connectInProcess} from '../../../lib/mcp/client/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {GUARD} from './support.js';

const LANGUAGES = ['python', 'pytorch', 'typescript'];

function server() {
    return createMcpStdioServer({
        serverInfo: {name: 'own-surface', version: '1.0.0'},
        logging: true,
        prompts: [
            {
                name: 'review',
                description: 'Review code',
                arguments: [{name: 'language', required: true}],
                complete: {language: (value) => LANGUAGES.filter((name) => name.startsWith(value))},
                handler: ({language}) => ({
                    messages: [{role: 'user', content: {type: 'text', text: `Review this ${language} code.`}}],
                }),
            },
        ],
        resourceTemplates: [
            {
                uriTemplate: 'note:///{name}',
                name: 'notes',
                mimeType: 'text/plain',
                complete: {name: (value) => ['alpha', 'beta'].filter((name) => name.startsWith(value))},
                handler: ({uri}, {variables}) => ({contents: [{uri, text: `note ${String(variables.name)}`}]}),
            },
        ],
        tools: [
            {
                name: 'chatty',
                inputSchema: {type: 'object'},
                handler: (_args, {log}) => {
                    log('debug', 'not asked for');
                    log('warning', {disk: 'low'}, 'storage');
                    return {content: [{type: 'text', text: 'ok'}]};
                },
            },
        ],
    });
}

test('prompts, templates, completion, logging and ping against our own server', GUARD, async () => {
    const logs: LoggingMessage[] = [];
    const own = server();
    const client = await connectInProcess(own, {onLog: (message) => logs.push(message)});
    assert.deepEqual(client.capabilities.prompts !== undefined, true);
    assert.deepEqual(await client.listPrompts(), [
        {name: 'review', description: 'Review code', arguments: [{name: 'language', required: true}]},
    ]);
    assert.deepEqual(await client.getPrompt('review', {language: 'python'}), {
        messages: [{role: 'user', content: {type: 'text', text: 'Review this python code.'}}],
    });
    assert.deepEqual(
        await client.complete({ref: {type: 'ref/prompt', name: 'review'}, argument: {name: 'language', value: 'py'}}),
        {completion: {values: ['python', 'pytorch']}},
    );
    assert.deepEqual(await client.listResourceTemplates(), [
        {uriTemplate: 'note:///{name}', name: 'notes', mimeType: 'text/plain'},
    ]);
    assert.deepEqual(
        await client.complete({ref: {type: 'ref/resource', uri: 'note:///{name}'}, argument: {name: 'name', value: 'b'}}),
        {completion: {values: ['beta']}},
    );
    assert.deepEqual(await client.readResource('note:///alpha'), {contents: [{uri: 'note:///alpha', text: 'note alpha'}]});
    await client.setLoggingLevel('info');
    assert.deepEqual(await client.callTool('chatty'), {content: [{type: 'text', text: 'ok'}]});
    assert.deepEqual(logs, [{level: 'warning', logger: 'storage', data: {disk: 'low'}}]);
    await client.ping();
    await assert.rejects(client.getPrompt('missing'), {name: 'McpRemoteError', method: 'prompts/get'});
    await client.close();
    await own.closed;
});
