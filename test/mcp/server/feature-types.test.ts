/** The types of prompts, templates, completers and logging: right uses compile, wrong ones do not. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {
    Completer,
    GetPromptResult,
    HandlerContext,
    McpPrompt,
    McpResourceTemplate,
    McpStdioServerOptions,
} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';

test('prompt, template, completer and log types', () => {
    const prompt: McpPrompt = {
        name: 'p',
        arguments: [{name: 'x', required: true}],
        complete: {x: (value, context) => [value, ...Object.keys(context.arguments)]},
        handler: (args, context) => {
            const x: string | undefined = args.x;
            const method: 'prompts/get' = context.method;
            const sent: boolean = context.log('info', {x}, 'prompts');
            return {messages: [{role: 'user', content: {type: 'text', text: `${x} ${method} ${sent}`}}]};
        },
    };
    const template: McpResourceTemplate = {
        uriTemplate: 'a://{id}{/path*}',
        name: 'a',
        handler: (params, context) => {
            const id: string | readonly string[] | undefined = context.variables.id;
            return {contents: [{uri: params.uri, text: String(id)}]};
        },
    };
    // @ts-expect-error a prompt handler returns a GetPromptResult, not a tool result
    const toolResult: McpPrompt = {name: 'p', handler: () => ({content: []})};
    // @ts-expect-error a message's role is "user" or "assistant"
    const system: GetPromptResult = {messages: [{role: 'system', content: {type: 'text', text: ''}}]};
    // @ts-expect-error a completer suggests strings
    const numbers: Completer = () => [1];
    const log = (context: HandlerContext) => {
        // @ts-expect-error log takes one of the eight syslog levels
        context.log('verbose', 'x');
    };
    // @ts-expect-error logging is a boolean or one of the eight levels
    const options: McpStdioServerOptions = {serverInfo: {name: 's', version: '1'}, logging: 'yes'};
    const leveled: McpStdioServerOptions = {serverInfo: {name: 's', version: '1'}, logging: 'info'};
    assert.ok([toolResult, system, numbers, log, options, leveled].length === 6);
    const server = createMcpStdioServer({
        serverInfo: {name: 's', version: '1'},
        prompts: [prompt],
        resourceTemplates: [template],
        logging: true,
    });
    assert.equal(typeof server.start, 'function');
});
