// The part of the conformance fixture that asks the client: the tools, prompt and resource of the
// official suite's (0.2.0-alpha.12) elicitation, sampling, input-required and subscription
// scenarios, by the names, keys and texts they check. `fixture.mjs` spreads them into its catalog;
// a server serving them needs `subscriptions: true` for `test://watched-resource`.
//
// Each handler is written once for both eras: `context.elicit` and `createMessage` send requests on
// the session under 2025-11-25 and answer `input_required` under 2026-07-28, keyed as the
// scenarios expect.

const NO_ARGUMENTS = {type: 'object', properties: {}};

/** @param {string} text */
const textResult = (text) => ({content: [{type: 'text', text}]});

/** @param {string} message @param {Record<string, object>} properties @param {string[]} [required] */
const form = (message, properties, required) => ({
    message,
    requestedSchema: {type: 'object', properties, ...(required === undefined ? {} : {required})},
});

/** @param {string} text */
const question = (text) => ({messages: [{role: 'user', content: {type: 'text', text}}], maxTokens: 100});

/** @param {{content?: unknown}} result */
const sampledText = (result) => {
    const content = /** @type {{text?: string}} */ (result.content);
    return content?.text ?? JSON.stringify(result.content);
};

/** @param {{action: string, content?: unknown}} answer */
const described = (answer) => `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;

const NAME_FORM = form('What is your name?', {name: {type: 'string'}}, ['name']);

/** @type {import('arcane-os/mcp/stdio').McpTool[]} */
export const askingTools = [
    {
        name: 'test_sampling',
        description: 'Asks the client to sample a reply to the prompt.',
        inputSchema: {type: 'object', properties: {prompt: {type: 'string'}}, required: ['prompt']},
        handler: async ({prompt}, {createMessage}) =>
            textResult(
                `LLM response: ${sampledText(await createMessage({...question(String(prompt)), maxTokens: 100}))}`,
            ),
    },
    {
        name: 'test_elicitation',
        description: 'Asks the user for a username and an email.',
        inputSchema: {type: 'object', properties: {message: {type: 'string'}}, required: ['message']},
        handler: async ({message}, {elicit}) => {
            const answer = await elicit(
                form(
                    String(message),
                    {
                        username: {type: 'string', description: "User's response"},
                        email: {type: 'string', description: "User's email address"},
                    },
                    ['username', 'email'],
                ),
            );
            return textResult(`User response: ${described(answer)}`);
        },
    },
    {
        name: 'test_elicitation_sep1034_defaults',
        description: 'Asks with a default for every primitive type.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit}) => {
            const answer = await elicit(
                form('Please review your details', {
                    name: {type: 'string', default: 'John Doe'},
                    age: {type: 'integer', default: 30},
                    score: {type: 'number', default: 95.5},
                    status: {type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active'},
                    verified: {type: 'boolean', default: true},
                }),
            );
            return textResult(`Elicitation completed: ${described(answer)}`);
        },
    },
    {
        name: 'test_elicitation_sep1330_enums',
        description: 'Asks with each of the five enum shapes.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit}) => {
            const answer = await elicit(
                form('Choose your options', {
                    untitledSingle: {type: 'string', enum: ['option1', 'option2', 'option3']},
                    titledSingle: {
                        type: 'string',
                        oneOf: [
                            {const: 'value1', title: 'First Option'},
                            {const: 'value2', title: 'Second Option'},
                            {const: 'value3', title: 'Third Option'},
                        ],
                    },
                    legacyEnum: {
                        type: 'string',
                        enum: ['opt1', 'opt2', 'opt3'],
                        enumNames: ['Option One', 'Option Two', 'Option Three'],
                    },
                    untitledMulti: {
                        type: 'array',
                        items: {type: 'string', enum: ['option1', 'option2', 'option3']},
                    },
                    titledMulti: {
                        type: 'array',
                        items: {
                            anyOf: [
                                {const: 'value1', title: 'First Choice'},
                                {const: 'value2', title: 'Second Choice'},
                                {const: 'value3', title: 'Third Choice'},
                            ],
                        },
                    },
                }),
            );
            return textResult(`Elicitation completed: ${described(answer)}`);
        },
    },
    {
        name: 'test_input_required_result_elicitation',
        description: 'Asks for a name, then greets.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit}) => {
            const answer = await elicit(NAME_FORM, {key: 'user_name'});
            const content = /** @type {{name?: string}} */ (answer.content ?? {});
            return textResult(`Hello, ${content.name}!`);
        },
    },
    {
        name: 'test_input_required_result_sampling',
        description: 'Asks the client for the capital of France.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {createMessage}) => {
            const answer = await createMessage(question('What is the capital of France?'), {
                key: 'capital_question',
            });
            return textResult(`Sampled: ${sampledText(answer)}`);
        },
    },
    {
        name: 'test_input_required_result_list_roots',
        description: "Asks for the client's roots.",
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {listRoots}) => {
            const {roots} = await listRoots({key: 'client_roots'});
            return textResult(`Roots: ${roots.map((root) => root.uri).join(', ')}`);
        },
    },
    {
        name: 'test_input_required_result_request_state',
        description: 'Asks for a confirmation; the answer comes back with the sealed state.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit}) => {
            const answer = await elicit(form('Please confirm', {ok: {type: 'boolean'}}, ['ok']), {
                key: 'confirm',
            });
            return textResult(`state-ok: ${described(answer)}`);
        },
    },
    {
        name: 'test_input_required_result_multiple_inputs',
        description: 'Asks three questions at once.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit, createMessage, listRoots}) => {
            const [name, greeting, roots] = await Promise.all([
                elicit(NAME_FORM, {key: 'user_name'}),
                createMessage({...question('Generate a greeting'), maxTokens: 50}, {key: 'greeting'}),
                listRoots({key: 'client_roots'}),
            ]);
            return textResult(`${described(name)}; ${sampledText(greeting)}; ${roots.roots.length} roots`);
        },
    },
    {
        name: 'test_input_required_result_multi_round',
        description: 'Asks two questions, one round each.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit}) => {
            const name = await elicit(
                form('Step 1: What is your name?', {name: {type: 'string'}}, ['name']),
                {
                    key: 'step1',
                },
            );
            const color = await elicit(
                form('Step 2: What is your favorite color?', {color: {type: 'string'}}, ['color']),
                {
                    key: 'step2',
                },
            );
            return textResult(`${described(name)}; ${described(color)}`);
        },
    },
    {
        name: 'test_input_required_result_tampered_state',
        description: 'Asks for a confirmation under a sealed state.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit}) =>
            textResult(
                described(
                    await elicit(form('Please confirm', {ok: {type: 'boolean'}}, ['ok']), {key: 'confirm'}),
                ),
            ),
    },
    {
        name: 'test_input_required_result_capabilities',
        description: 'Asks what the client declared it can answer, and only that.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {elicit, createMessage}) => {
            // A question the client declared no capability for rejects at once, without being sent.
            const [name, sample] = await Promise.allSettled([
                elicit(NAME_FORM, {key: 'user_name'}),
                createMessage(question('Say hello'), {key: 'greeting'}),
            ]);
            return textResult(`elicitation ${name.status}, sampling ${sample.status}`);
        },
    },
];

/** @type {import('arcane-os/mcp/stdio').McpResource[]} */
export const askingResources = [
    {
        uri: 'test://watched-resource',
        name: 'watched-resource',
        description: 'A resource clients can subscribe to.',
        mimeType: 'text/plain',
        handler: ({uri}) => ({contents: [{uri, mimeType: 'text/plain', text: 'Watched resource content.'}]}),
    },
];

/** The prompt of `input-required-result-non-tool-request` (served once the server has prompts). */
export const askingPrompts = [
    {
        name: 'test_input_required_result_prompt',
        description: 'Asks what context the prompt should use.',
        /** @param {Record<string, string>} _args @param {import('arcane-os/mcp/stdio').HandlerContext} context */
        handler: async (_args, {elicit}) => {
            const answer = await elicit(
                form('What context should the prompt use?', {context: {type: 'string'}}, ['context']),
                {
                    key: 'user_context',
                },
            );
            const content = /** @type {{context?: string}} */ (answer.content ?? {});
            return {
                messages: [
                    {role: 'user', content: {type: 'text', text: `Use this context: ${content.context}`}},
                ],
            };
        },
    },
];
