// The whole server fixture of the official conformance suite's (0.2.0-alpha.12) server scenarios:
// every tool, resource, resource template and prompt they call, by the names and with the content
// they check, as options for `createMcpStdioServer` (and for an HTTP handler taking the same
// options). `server-app.mjs` serves it over stdio.
//
// The tools, prompt and resource of the scenarios that ask the client (elicitation, sampling, roots,
// the 2026-07-28 input-required rounds) and of the subscription scenarios come from
// `./asking-fixture.mjs`. Left out, as this server has no way to serve it yet: `test_reconnection`,
// which closes an HTTP event stream mid-call.
//
// Tools that send notifications pause 50 ms before returning: the official SDK clients (the bridge
// is one) handle a notification a microtask after a response read with it, and then report a
// progress notification as being for an unknown request (typescript-sdk issue 2580).
import {setTimeout as delay} from 'node:timers/promises';
import {z} from 'zod';
import {askingPrompts, askingResources, askingTools} from './asking-fixture.mjs';

const STEP_MS = 50;

/** A 1×1 red PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** A WAV of eight silent 8-bit mono samples at 8 kHz, base64-encoded. */
const WAV = (() => {
    const samples = Buffer.alloc(8, 0x80);
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'ascii');
    header.writeUInt32LE(36 + samples.length, 4);
    header.write('WAVEfmt ', 8, 'ascii');
    header.writeUInt32LE(16, 16); // PCM format chunk size
    header.writeUInt16LE(1, 20); // PCM
    header.writeUInt16LE(1, 22); // one channel
    header.writeUInt32LE(8000, 24); // samples a second
    header.writeUInt32LE(8000, 28); // bytes a second
    header.writeUInt16LE(1, 32); // bytes a sample frame
    header.writeUInt16LE(8, 34); // bits a sample
    header.write('data', 36, 'ascii');
    header.writeUInt32LE(samples.length, 40);
    return Buffer.concat([header, samples]).toString('base64');
})();

const NO_ARGUMENTS = {type: 'object', properties: {}};

/** @param {string} text */
const textResult = (text) => ({content: [{type: 'text', text}]});

/** What `completion-complete` and clients are offered for `arg1`: the values starting with the input. */
const ARG1_VALUES = ['paris', 'park', 'party', 'test', 'testValue1'];
/** Ids the template's `{id}` completes to. */
const TEMPLATE_IDS = ['123', '124', '200', '456'];

/** @param {readonly string[]} values */
const startingWith = (values) => (/** @type {string} */ typed) =>
    values.filter((value) => value.startsWith(typed));

/** JSON Schema 2020-12 keywords the `json-schema-2020-12` scenario checks are kept as written. */
const JSON_SCHEMA_2020_12_INPUT = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
        address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: {street: {type: 'string'}, city: {type: 'string'}},
        },
    },
    properties: {
        name: {type: 'string'},
        address: {$ref: '#/$defs/address'},
        contactMethod: {type: 'string', enum: ['phone', 'email']},
        phone: {type: 'string'},
        email: {type: 'string'},
    },
    allOf: [{anyOf: [{required: ['phone']}, {required: ['email']}]}],
    if: {properties: {contactMethod: {const: 'phone'}}, required: ['contactMethod']},
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a schema never awaited
    then: {required: ['phone']},
    else: {required: ['email']},
    additionalProperties: false,
};

/** @type {import('arcane-os/mcp/stdio').McpTool[]} */
const tools = [
    {
        name: 'test_simple_text',
        description: 'Returns one text block.',
        inputSchema: NO_ARGUMENTS,
        handler: () => textResult('This is a simple text response for testing.'),
    },
    {
        name: 'test_image_content',
        description: 'Returns one PNG image.',
        inputSchema: NO_ARGUMENTS,
        handler: () => ({content: [{type: 'image', data: PNG, mimeType: 'image/png'}]}),
    },
    {
        name: 'test_audio_content',
        description: 'Returns one WAV clip.',
        inputSchema: NO_ARGUMENTS,
        handler: () => ({content: [{type: 'audio', data: WAV, mimeType: 'audio/wav'}]}),
    },
    {
        name: 'test_embedded_resource',
        description: 'Returns one embedded text resource.',
        inputSchema: NO_ARGUMENTS,
        handler: () => ({
            content: [
                {
                    type: 'resource',
                    resource: {
                        uri: 'test://embedded-resource',
                        mimeType: 'text/plain',
                        text: 'This is an embedded resource content.',
                    },
                },
            ],
        }),
    },
    {
        name: 'test_multiple_content_types',
        description: 'Returns text, an image and an embedded resource.',
        inputSchema: NO_ARGUMENTS,
        handler: () => ({
            content: [
                {type: 'text', text: 'Multiple content types test:'},
                {type: 'image', data: PNG, mimeType: 'image/png'},
                {
                    type: 'resource',
                    resource: {
                        uri: 'test://mixed-content-resource',
                        mimeType: 'application/json',
                        text: JSON.stringify({test: 'data', value: 123}),
                    },
                },
            ],
        }),
    },
    {
        name: 'test_error_handling',
        description: 'Always fails, as a tool execution error.',
        inputSchema: NO_ARGUMENTS,
        handler: () => ({
            isError: true,
            content: [{type: 'text', text: 'This tool intentionally returns an error for testing'}],
        }),
    },
    {
        name: 'test_tool_with_progress',
        description: 'Reports progress 0, 50 and 100 of 100, about 50 ms apart, then returns.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {signal, reportProgress}) => {
            for (const progress of [0, 50, 100]) {
                if (progress > 0) await delay(STEP_MS, undefined, {signal});
                reportProgress({progress, total: 100, message: `${progress}% done`});
            }
            await delay(STEP_MS, undefined, {signal});
            return textResult('Reported progress 0, 50 and 100 of 100.');
        },
    },
    {
        name: 'test_tool_with_logging',
        description: 'Logs three info messages, about 50 ms apart, to a client that asked for them.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {signal, log}) => {
            const steps = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
            for (const [index, step] of steps.entries()) {
                if (index > 0) await delay(STEP_MS, undefined, {signal});
                log('info', step, 'test_tool_with_logging');
            }
            await delay(STEP_MS, undefined, {signal});
            return textResult('Logged three messages.');
        },
    },
    {
        name: 'json_schema_2020_12_tool',
        description: 'Tool with JSON Schema 2020-12 features',
        inputSchema: JSON_SCHEMA_2020_12_INPUT,
        handler: (args) => textResult(`Received ${JSON.stringify(args)}`),
    },
];

/** @type {import('arcane-os/mcp/stdio').McpResource[]} */
const resources = [
    {
        uri: 'test://static-text',
        name: 'static-text',
        description: 'A fixed text resource.',
        mimeType: 'text/plain',
        handler: ({uri}) => ({
            contents: [
                {uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.'},
            ],
        }),
    },
    {
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A fixed PNG image.',
        mimeType: 'image/png',
        handler: ({uri}) => ({contents: [{uri, mimeType: 'image/png', blob: PNG}]}),
    },
];

/** @type {import('arcane-os/mcp/stdio').McpResourceTemplate[]} */
const resourceTemplates = [
    {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'The data of one id, as JSON.',
        mimeType: 'application/json',
        complete: {id: startingWith(TEMPLATE_IDS)},
        handler: ({uri}, {variables}) => {
            const id = String(variables.id);
            return {
                contents: [
                    {
                        uri,
                        mimeType: 'application/json',
                        text: JSON.stringify({id, templateTest: true, data: `Data for ID: ${id}`}),
                    },
                ],
            };
        },
    },
];

/** @type {import('arcane-os/mcp/stdio').McpPrompt[]} */
const prompts = [
    {
        name: 'test_simple_prompt',
        description: 'A prompt without arguments.',
        handler: () => ({
            messages: [{role: 'user', content: {type: 'text', text: 'This is a simple prompt for testing.'}}],
        }),
    },
    {
        name: 'test_prompt_with_arguments',
        description: 'A prompt of two arguments.',
        arguments: [
            {name: 'arg1', description: 'First test argument', required: true},
            {name: 'arg2', description: 'Second test argument', required: true},
        ],
        complete: {arg1: startingWith(ARG1_VALUES)},
        handler: ({arg1, arg2}) => ({
            messages: [
                {
                    role: 'user',
                    content: {type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`},
                },
            ],
        }),
    },
    {
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt that embeds the resource it is given.',
        // A schema of string fields: the listed arguments are derived from it, and calls checked.
        arguments: z.object({resourceUri: z.string().describe('URI of the resource to embed')}),
        handler: ({resourceUri = ''}) => ({
            messages: [
                {
                    role: 'user',
                    content: {
                        type: 'resource',
                        resource: {
                            uri: resourceUri,
                            mimeType: 'text/plain',
                            text: 'Embedded resource content for testing.',
                        },
                    },
                },
                {role: 'user', content: {type: 'text', text: 'Please process the embedded resource above.'}},
            ],
        }),
    },
    {
        name: 'test_prompt_with_image',
        description: 'A prompt with an image.',
        handler: () => ({
            messages: [
                {role: 'user', content: {type: 'image', data: PNG, mimeType: 'image/png'}},
                {role: 'user', content: {type: 'text', text: 'Please analyze the image above.'}},
            ],
        }),
    },
];

/** @type {import('arcane-os/mcp/stdio').McpStdioServerOptions} */
export const fixture = {
    serverInfo: {name: 'arcane-os-conformance', version: '1.0.0'},
    tools: [...tools, ...askingTools],
    resources: [...resources, ...askingResources],
    resourceTemplates,
    prompts: [...prompts, ...askingPrompts],
    subscriptions: true,
    // A level, not just `true`: the bridge answers `logging/setLevel` itself and never forwards it,
    // then filters what it gets, so the server must send before being asked (the spec allows it).
    logging: 'debug',
};
