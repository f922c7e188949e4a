/**
 * `defineTool`'s types: the handler's arguments follow the input schema (Standard Schema output
 * type, or `JsonObject` for raw JSON Schema) and `structuredContent` the output schema's input
 * type. Every `@ts-expect-error` below must fail to compile, or the build fails; the runtime
 * assertions check that `defineTool` hands the tool back as given.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {toStandardJsonSchema} from '@valibot/to-json-schema';
import {type} from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import type {JsonObject, McpSchemaTool, McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {defineTool} from '../../../lib/mcp/stdio/index.js';

/** Compiles only when `Actual` and `Expected` are the same type. */
function same<Actual, Expected>(
    ..._proof: [Actual] extends [Expected] ? ([Expected] extends [Actual] ? [] : [never]) : [never]
): void {}

const text = (value: string) => ({content: [{type: 'text' as const, text: value}]});

test('zod: the handler gets the output type, defaults and transforms applied', () => {
    const tool = defineTool({
        name: 'add',
        inputSchema: z.object({
            a: z.number(),
            b: z.number().default(1),
            tag: z.string().transform((s) => s.length),
        }),
        outputSchema: z.object({sum: z.number()}),
        handler: (args) => {
            same<typeof args, {a: number; b: number; tag: number}>();
            // @ts-expect-error: no such argument
            args.c;
            return {...text(String(args.a + args.b)), structuredContent: {sum: args.a + args.b}};
        },
    });
    assert.equal(tool.name, 'add');
    const options: McpStdioServerOptions = {serverInfo: {name: 't', version: '1'}, tools: [tool]};
    assert.equal(options.tools?.length, 1);
});

test('zod: structuredContent must match the output schema', () => {
    defineTool({
        name: 'wrong-structured',
        inputSchema: z.object({}),
        outputSchema: z.object({sum: z.number()}),
        // @ts-expect-error: sum must be a number
        handler: () => ({...text('x'), structuredContent: {sum: 'one'}}),
    });
    defineTool({
        name: 'missing-structured',
        inputSchema: z.object({}),
        outputSchema: z.object({sum: z.number()}),
        // @ts-expect-error: a successful result needs structuredContent
        handler: async () => text('x'),
    });
    const errorResult = defineTool({
        name: 'error-result',
        inputSchema: z.object({}),
        outputSchema: z.object({sum: z.number()}),
        handler: async () => ({...text('no sum today'), isError: true as const}),
    });
    assert.equal(errorResult.name, 'error-result');
});

test('zod: an input schema must be an object schema', () => {
    defineTool({
        name: 'scalar',
        // @ts-expect-error: a string schema cannot be a tool's arguments
        inputSchema: z.string(),
        handler: () => text('x'),
    });
});

test('valibot with toStandardJsonSchema and arktype infer the same way', () => {
    defineTool({
        name: 'valibot',
        inputSchema: toStandardJsonSchema(v.object({n: v.pipe(v.string(), v.transform(Number))})),
        outputSchema: toStandardJsonSchema(v.object({twice: v.number()})),
        handler: ({n}) => {
            same<typeof n, number>();
            return {...text(''), structuredContent: {twice: n * 2}};
        },
    });
    defineTool({
        name: 'arktype',
        inputSchema: type({n: 'number', 'label?': 'string'}),
        outputSchema: type({ok: 'boolean'}),
        // @ts-expect-error: ok must be a boolean
        handler: (args) => {
            same<typeof args, {n: number; label?: string}>();
            return {...text(''), structuredContent: {ok: 'yes'}};
        },
    });
});

test('raw JSON Schema: JsonObject arguments and any structuredContent, as before', () => {
    const tool: McpSchemaTool = defineTool({
        name: 'raw',
        inputSchema: {type: 'object', properties: {q: {type: 'string'}}},
        outputSchema: {type: 'object'},
        handler: (args) => {
            same<typeof args, JsonObject>();
            return {...text(String(args.q)), structuredContent: 42};
        },
    });
    defineTool({
        name: 'raw-no-output',
        // @ts-expect-error: raw JSON Schema input needs "type": "object"
        inputSchema: {type: 'string'},
        handler: () => text('x'),
    });
    assert.equal(tool.name, 'raw');
});

test('without defineTool, a Standard Schema tool is accepted with JsonObject arguments', () => {
    const options: McpStdioServerOptions = {
        serverInfo: {name: 't', version: '1'},
        tools: [
            {
                name: 'plain',
                inputSchema: z.object({n: z.number()}),
                handler: (args) => {
                    same<typeof args, JsonObject>();
                    return text(String(args.n));
                },
            },
        ],
    };
    assert.equal(options.tools?.[0]?.name, 'plain');
});

test('defineTool returns the very tool it was given', () => {
    const given = {name: 'same', inputSchema: z.object({}), handler: () => text('x')};
    assert.equal(defineTool(given), given);
});
