/**
 * The client's surface beyond tools against this package's own servers, the stdio one in process
 * and the Streamable HTTP one on loopback: prompts with completers, resource templates with
 * completers, logging through `context.log`, and ping.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {LoggingMessage, McpClient} from '../../../lib/mcp/client/index.js';
import {connectInProcess, connectMcpClient} from '../../../lib/mcp/client/index.js';
import {createMcpHttpHandler, serveNodeHttp} from '../../../lib/mcp/http/index.js';
import type {McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {GUARD} from './support.js';

const LANGUAGES = ['python', 'pytorch', 'typescript'];

function catalog(): McpStdioServerOptions {
    return {
        serverInfo: {name: 'own-surface', version: '1.0.0'},
        logging: true,
        prompts: [
            {
                name: 'review',
                description: 'Review code',
                arguments: [{name: 'language', required: true}],
                complete: {language: (value) => LANGUAGES.filter((name) => name.startsWith(value))},
                handler: ({language}) => ({
                    messages: [
                        {role: 'user', content: {type: 'text', text: `Review this ${language} code.`}},
                    ],
                }),
            },
        ],
        resourceTemplates: [
            {
                uriTemplate: 'note:///{name}',
                name: 'notes',
                mimeType: 'text/plain',
                complete: {name: (value) => ['alpha', 'beta'].filter((name) => name.startsWith(value))},
                handler: ({uri}, {variables}) => ({
                    contents: [{uri, text: `note ${String(variables.name)}`}],
                }),
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
    };
}

async function exercise(client: McpClient, logs: LoggingMessage[] | undefined): Promise<void> {
    assert.deepEqual(client.capabilities.prompts !== undefined, true);
    assert.deepEqual(await client.listPrompts(), [
        {name: 'review', description: 'Review code', arguments: [{name: 'language', required: true}]},
    ]);
    assert.deepEqual(await client.getPrompt('review', {language: 'python'}), {
        messages: [{role: 'user', content: {type: 'text', text: 'Review this python code.'}}],
    });
    assert.deepEqual(
        await client.complete({
            ref: {type: 'ref/prompt', name: 'review'},
            argument: {name: 'language', value: 'py'},
        }),
        {completion: {values: ['python', 'pytorch']}},
    );
    assert.deepEqual(await client.listResourceTemplates(), [
        {uriTemplate: 'note:///{name}', name: 'notes', mimeType: 'text/plain'},
    ]);
    assert.deepEqual(
        await client.complete({
            ref: {type: 'ref/resource', uri: 'note:///{name}'},
            argument: {name: 'name', value: 'b'},
        }),
        {completion: {values: ['beta']}},
    );
    assert.deepEqual(await client.readResource('note:///alpha'), {
        contents: [{uri: 'note:///alpha', text: 'note alpha'}],
    });
    await client.setLoggingLevel('info');
    assert.deepEqual(await client.callTool('chatty'), {content: [{type: 'text', text: 'ok'}]});
    if (logs !== undefined)
        assert.deepEqual(logs, [{level: 'warning', logger: 'storage', data: {disk: 'low'}}]);
    await client.ping();
    await assert.rejects(client.getPrompt('missing'), {name: 'McpRemoteError', method: 'prompts/get'});
}

test(
    'prompts, templates, completion, logging and ping against our own stdio server, in process',
    GUARD,
    async () => {
        const logs: LoggingMessage[] = [];
        const own = createMcpStdioServer(catalog());
        const client = await connectInProcess(own, {onLog: (message) => logs.push(message)});
        await exercise(client, logs);
        await client.close();
        await own.closed;
    },
);

test('the same against our own Streamable HTTP server, log messages aside', GUARD, async () => {
    const handler = createMcpHttpHandler(catalog());
    const served = await serveNodeHttp(handler);
    const client = await connectMcpClient({url: served.url});
    try {
        // The HTTP server routes a request's notifications by progress token, so a log message
        // (which has none) does not reach the request's stream; logging is checked over stdio.
        await exercise(client, undefined);
    } finally {
        await client.close();
        await handler.close();
        await served.close();
    }
});

test(
    'a subscription to a resource of our own server brings its updates until it is withdrawn',
    GUARD,
    async () => {
        const updates: unknown[] = [];
        const own = createMcpStdioServer({...catalog(), subscriptions: true});
        const client = await connectInProcess(own, {onResourceUpdated: (update) => updates.push(update)});
        assert.deepEqual(client.capabilities.resources, {subscribe: true});
        await client.subscribeResource('note:///alpha');
        assert.equal(own.notifyResourceUpdated('note:///alpha'), 1);
        // A ping's answer follows the notification on the same stream: the callback has run by then.
        await client.ping();
        assert.deepEqual(updates, [{uri: 'note:///alpha'}]);
        await client.unsubscribeResource('note:///alpha');
        assert.equal(own.notifyResourceUpdated('note:///alpha'), 0);
        await client.close();
        await own.closed;
    },
);
