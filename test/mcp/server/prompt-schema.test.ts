/**
 * Prompt arguments given as a Standard Schema of string fields (zod, valibot, arktype): the list
 * derived from the JSON Schema, calls checked against the schema, the output value reaching the
 * handler, and schemas that cannot serve refused at construction.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {toStandardJsonSchema} from '@valibot/to-json-schema';
import {type} from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import type {McpPrompt, StandardSchemaV1} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {
    end,
    errorLine,
    HEAD,
    LIST_TAIL,
    legacy,
    META,
    modern,
    modernLine,
    resultLine,
    SERVER_INFO,
    serve,
} from '../../helpers/wire.js';

/** A prompt whose handler echoes the arguments it was given. */
function echo(name: string, schema: StandardSchemaV1, extra: Partial<McpPrompt> = {}): McpPrompt {
    return {
        name,
        arguments: schema,
        handler: (args) => ({
            messages: [{role: 'user', content: {type: 'text', text: JSON.stringify(args)}}],
        }),
        ...extra,
    };
}

const said = (value: unknown) => ({
    messages: [{role: 'user', content: {type: 'text', text: JSON.stringify(value)}}],
});

const zodPrompt = echo(
    'zod',
    z.object({
        code: z.string().describe('The code'),
        language: z.enum(['py', 'rs']).optional(),
        style: z.string().default('terse'),
    }),
    {complete: {language: (value) => ['py', 'rs'].filter((language) => language.startsWith(value))}},
);
const valibotPrompt = echo(
    'valibot',
    toStandardJsonSchema(
        v.object({a: v.pipe(v.string(), v.title('A')), b: v.optional(v.picklist(['x', 'y']))}),
    ),
);
const arktypePrompt = echo('arktype', type({a: 'string', 'b?': "'x'|'y'"}));

describe('prompt arguments from a Standard Schema', () => {
    test('the argument list is derived from the JSON Schema, in both eras', async () => {
        const h = serve({prompts: [zodPrompt, valibotPrompt, arktypePrompt]});
        const list =
            '[{"name":"zod","arguments":[{"name":"code","description":"The code","required":true},' +
            '{"name":"language","required":false},{"name":"style","required":false}]},' +
            '{"name":"valibot","arguments":[{"name":"a","title":"A","required":true},{"name":"b","required":false}]},' +
            '{"name":"arktype","arguments":[{"name":"a","required":true},{"name":"b","required":false}]}]';
        assert.equal(
            await modern(h, 1, 'prompts/list'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"prompts":${list}${LIST_TAIL}}`,
        );
        await h.initialize();
        assert.equal(
            await legacy(h, 2, 'prompts/list'),
            `{"jsonrpc":"2.0","id":2,"result":{"prompts":${list}}}`,
        );
        await end(h);
    });

    test('valid arguments reach the handler as the schema output, defaults applied', async () => {
        const h = serve({prompts: [zodPrompt, valibotPrompt, arktypePrompt]});
        assert.equal(
            await modern(h, 1, 'prompts/get', {name: 'zod', arguments: {code: 'x', language: 'py'}}),
            modernLine(1, said({code: 'x', language: 'py', style: 'terse'})),
        );
        await h.initialize();
        assert.equal(
            await legacy(h, 2, 'prompts/get', {name: 'valibot', arguments: {a: 'q', b: 'y'}}),
            resultLine(2, said({a: 'q', b: 'y'})),
        );
        assert.equal(
            await legacy(h, 3, 'prompts/get', {name: 'arktype', arguments: {a: 'q'}}),
            resultLine(3, said({a: 'q'})),
        );
        await end(h);
    });

    test('arguments that fail the schema are -32602 naming each issue; a missing required one as for a list', async () => {
        const h = serve({prompts: [zodPrompt, valibotPrompt, arktypePrompt]});
        assert.equal(
            await modern(h, 1, 'prompts/get', {name: 'zod', arguments: {code: 'x', language: 'go'}}),
            errorLine(
                1,
                -32602,
                'Invalid arguments for prompt "zod":\n- language: Invalid option: expected one of "py"|"rs"',
            ),
        );
        assert.equal(
            await modern(h, 2, 'prompts/get', {name: 'valibot', arguments: {a: 'q', b: 'z'}}),
            errorLine(
                2,
                -32602,
                'Invalid arguments for prompt "valibot":\n- b: Invalid type: Expected ("x" | "y") but received "z"',
            ),
        );
        assert.equal(
            await modern(h, 3, 'prompts/get', {name: 'arktype', arguments: {a: 'q', b: 'z'}}),
            errorLine(
                3,
                -32602,
                'Invalid arguments for prompt "arktype":\n- b: b must be "x" or "y" (was "z")',
            ),
        );
        assert.equal(
            await modern(h, 4, 'prompts/get', {name: 'zod', arguments: {}}),
            errorLine(4, -32602, 'prompts/get of prompt "zod" is missing the required argument "code"'),
        );
        await end(h);
    });

    test('completers are named by the derived arguments', async () => {
        const h = serve({prompts: [zodPrompt]});
        assert.equal(
            await modern(h, 1, 'completion/complete', {
                ref: {type: 'ref/prompt', name: 'zod'},
                argument: {name: 'language', value: 'r'},
            }),
            modernLine(1, {completion: {values: ['rs']}}),
        );
        await end(h);
    });
});

/** A hand-made Standard Schema whose `validate` is the test's own. */
function handMade(validate: (value: unknown, context?: unknown) => unknown): StandardSchemaV1 {
    const jsonSchema = {type: 'object', properties: {a: {type: 'string'}}, required: []};
    return {
        '~standard': {
            version: 1,
            vendor: 'hand',
            validate: validate as never,
            jsonSchema: {input: () => jsonSchema, output: () => jsonSchema},
        },
    };
}

describe('validators that settle later or fail', () => {
    test('an async validate: the handler runs after it with its value', async () => {
        const gate = new Gate();
        const h = serve({prompts: [echo('later', handMade(gate.handler))]});
        h.send({
            jsonrpc: '2.0',
            id: 1,
            method: 'prompts/get',
            params: {name: 'later', arguments: {a: '1'}, _meta: META},
        });
        await gate.started(1);
        const answered = h.output.waitForLines(1);
        gate.call(0).done.resolve({value: {a: 'validated'}});
        await answered;
        assert.equal(h.output.text, `${modernLine(1, said({a: 'validated'}))}\n`);
        await end(h);
    });

    test('a validate that throws or rejects is -32603 with a diagnostic', async () => {
        const internal = (id: number, problem: string) =>
            errorLine(
                id,
                -32603,
                `Internal error in prompts/get of prompt "bad" (request id ${id}): ${problem}; the server's diagnostics have the details`,
            );
        const throwing = serve({
            prompts: [
                echo(
                    'bad',
                    handMade(() => {
                        throw new Error('validator broke');
                    }),
                ),
            ],
        });
        assert.equal(
            await modern(throwing, 1, 'prompts/get', {name: 'bad', arguments: {}}),
            internal(1, 'the validate of its arguments schema threw'),
        );
        assert.match(throwing.errors.text, /validator broke/);
        await end(throwing);
        const rejecting = serve({
            prompts: [
                echo(
                    'bad',
                    handMade(() => Promise.reject(new Error('later broke'))),
                ),
            ],
        });
        assert.equal(
            await modern(rejecting, 2, 'prompts/get', {name: 'bad', arguments: {}}),
            internal(2, 'the validate of its arguments schema rejected'),
        );
        await end(rejecting);
    });

    test('cancelled while validating: the handler never runs and nothing is answered', async () => {
        const gate = new Gate();
        let ran = false;
        const h = serve({
            prompts: [
                {
                    name: 'later',
                    arguments: handMade(gate.handler),
                    handler: () => {
                        ran = true;
                        return {messages: []};
                    },
                },
            ],
        });
        h.send({
            jsonrpc: '2.0',
            id: 1,
            method: 'prompts/get',
            params: {name: 'later', arguments: {}, _meta: META},
        });
        await gate.started(1);
        assert.equal(h.server.cancel(1, 'stop'), true);
        gate.call(0).done.resolve({value: {}});
        await h.server.drain();
        assert.equal(ran, false);
        assert.equal(h.output.text, '');
        await end(h);
    });
});

describe('JSON Schema string fields', () => {
    test('an enum or const of strings is a string field', async () => {
        const jsonSchema = {
            type: 'object',
            properties: {pick: {enum: ['x', 'y']}, fixed: {const: 'k', title: 'Fixed'}},
            required: ['fixed'],
        };
        const schema: StandardSchemaV1 = {
            '~standard': {
                version: 1,
                vendor: 'hand',
                validate: (value) => ({value}),
                jsonSchema: {input: () => jsonSchema, output: () => jsonSchema},
            },
        };
        const h = serve({prompts: [echo('p', schema)]});
        assert.equal(
            await modern(h, 1, 'prompts/list'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"prompts":[{"name":"p","arguments":` +
                `[{"name":"pick","required":false},{"name":"fixed","title":"Fixed","required":true}]}]${LIST_TAIL}}`,
        );
        await end(h);
        jsonSchema.properties.pick = {enum: ['x', 1 as never]};
        assert.throws(
            () => createMcpStdioServer({serverInfo: SERVER_INFO, prompts: [echo('p', schema)]}),
            /has the field "pick" whose JSON Schema is not a string \(\{"enum":\["x",1\]\}\)/,
        );
    });
});

describe('schemas refused at construction', () => {
    const rejects = (prompt: McpPrompt, message: string) =>
        assert.throws(
            () => createMcpStdioServer({serverInfo: SERVER_INFO, prompts: [prompt]}),
            (error: unknown) => error instanceof TypeError && error.message === message,
        );
    const where = 'createMcpStdioServer: prompts[0] ("p") "arguments"';

    test('a field that is not a string, a schema that is not an object, one without a converter', () => {
        rejects(
            echo('p', z.object({n: z.number()})),
            `${where} has the field "n" whose JSON Schema is not a string ({"type":"number"}); prompt arguments are strings on the wire`,
        );
        rejects(
            echo('p', z.string()),
            `${where} converts to a JSON Schema that is not an object schema with "properties"; ` +
                'give an object of string fields, such as z.object({code: z.string()})',
        );
        assert.throws(
            () =>
                createMcpStdioServer({
                    serverInfo: SERVER_INFO,
                    prompts: [echo('p', v.object({a: v.string()}))],
                }),
            (error: unknown) =>
                error instanceof TypeError &&
                error.message.startsWith(
                    `${where} is a Standard Schema (vendor "valibot") without a JSON Schema converter`,
                ),
        );
    });
});
