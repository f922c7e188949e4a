/**
 * Standard Schema tools at construction: a schema without a converter, a failing or odd
 * conversion, each revision's rule on the converted schema, and raw JSON Schema tools untouched.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import * as v from 'valibot';
import * as z from 'zod';
import {buildCatalog} from '../../../lib/mcp/server/catalog.js';
import type {McpSchemaTool, StandardSchemaV1, ToolHandler} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {SERVER_INFO, schema} from '../../helpers/schema-tools.js';
import {text} from '../../helpers/session.js';

const build = (tools: unknown[], protocolVersions?: string[]) => () =>
    createMcpStdioServer({
        serverInfo: SERVER_INFO,
        tools: tools as McpSchemaTool[],
        ...(protocolVersions && {protocolVersions}),
    });

describe('construction', () => {
    test('a Standard Schema without a converter is a TypeError saying how to get one', () => {
        const plain = {name: 'plain', inputSchema: v.object({n: v.number()}), handler: () => text('')};
        assert.throws(build([plain]), {
            name: 'TypeError',
            message:
                'createMcpStdioServer: tools[0] ("plain") "inputSchema" is a Standard Schema (vendor "valibot") ' +
                'without a JSON Schema converter, so its JSON Schema cannot be advertised; give a schema that ' +
                'carries the Standard JSON Schema converter (`~standard.jsonSchema`): zod >= 4.2 and arktype ' +
                "have it natively; for valibot wrap the schema with toStandardJsonSchema from '@valibot/to-json-schema'",
        });
    });

    test('a conversion that throws is a TypeError naming the tool, with the cause', () => {
        const transformed = z.object({n: z.number().transform(String)});
        const tool = {
            name: 'out',
            inputSchema: z.object({}),
            outputSchema: transformed,
            handler: () => text(''),
        };
        let caught: unknown;
        assert.throws(build([tool]), (error) => {
            caught = error;
            return true;
        });
        assert.ok(caught instanceof TypeError);
        assert.equal(
            caught.message,
            'createMcpStdioServer: tools[0] ("out") "outputSchema" (a Standard Schema, vendor "zod") could not be ' +
                'converted to JSON Schema draft-2020-12: Transforms cannot be represented in JSON Schema; use only ' +
                'what JSON Schema can express (no transforms on the output side), or give a raw JSON Schema instead',
        );
        assert.equal((caught.cause as Error).message, 'Transforms cannot be represented in JSON Schema');
        const throwsString: StandardSchemaV1 = {
            '~standard': {
                version: 1,
                vendor: 'hand-made',
                validate: () => ({value: {}}),
                jsonSchema: {
                    input: () => {
                        throw 'no dialect';
                    },
                    output: () => ({}),
                },
            },
        };
        assert.throws(build([{name: 's', inputSchema: throwsString, handler: () => text('')}]), {
            message:
                /"inputSchema" \(a Standard Schema, vendor "hand-made"\) could not be converted to JSON Schema draft-2020-12: no dialect;/,
        });
    });

    test('a converter giving something other than an object is a TypeError', () => {
        for (const converted of [null, [], 'schema']) {
            assert.throws(
                build([
                    {
                        name: 'odd',
                        inputSchema: schema(() => ({value: {}}), converted),
                        handler: () => text(''),
                    },
                ]),
                {
                    name: 'TypeError',
                    message: `createMcpStdioServer: tools[0] ("odd") "inputSchema" (a Standard Schema, vendor "hand-made") converted to ${typeof converted}, not a JSON Schema object; give a schema that carries the Standard JSON Schema converter (\`~standard.jsonSchema\`): zod >= 4.2 and arktype have it natively; for valibot wrap the schema with toStandardJsonSchema from '@valibot/to-json-schema'`,
                },
            );
        }
    });

    test("the converted schemas must keep each enabled revision's rule", () => {
        assert.throws(build([{name: 'scalar', inputSchema: z.string(), handler: () => text('')}]), {
            name: 'TypeError',
            message:
                'createMcpStdioServer: tools[0] ("scalar") "inputSchema" converts to a JSON Schema without "type": ' +
                '"object" ("string"); a tool\'s input must be an object schema in every revision: give an object ' +
                'schema, such as z.object({...}), v.object({...}) or type({...})',
        });
        const number = {
            name: 'n',
            inputSchema: z.object({}),
            outputSchema: z.number(),
            handler: () => text(''),
        };
        assert.throws(build([number], ['2026-07-28', '2025-11-25']), {
            message:
                'createMcpStdioServer: tools[0] ("n") "outputSchema" converts to a JSON Schema without "type": ' +
                '"object" ("number"); while a revision before 2026-07-28 is enabled, a tool\'s output must be an ' +
                'object schema: give an object schema, such as z.object({...}), v.object({...}) or type({...})',
        });
        assert.doesNotThrow(build([number], ['2026-07-28']));
    });

    test('a raw JSON Schema tool is served with its own handler, unwrapped', () => {
        const handler: ToolHandler = () => text('raw');
        const catalog = buildCatalog({
            serverInfo: SERVER_INFO,
            tools: [{name: 'raw', inputSchema: {type: 'object'}, outputSchema: {type: 'object'}, handler}],
        });
        assert.equal(catalog.tools.get('raw'), handler);
        assert.equal(
            catalog.toolsJson,
            '[{"name":"raw","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]',
        );
    });
});
