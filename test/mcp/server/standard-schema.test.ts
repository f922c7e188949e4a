/**
 * Tools with Standard Schemas on the raw wire, for zod 4, valibot (with toStandardJsonSchema) and
 * arktype: the advertised JSON Schema, a validation failure as an `isError` result, a transform
 * and a default reaching the handler, an output mismatch as -32603 with its diagnostic; in both eras.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {toStandardJsonSchema} from '@valibot/to-json-schema';
import {type} from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import type {McpSchemaTool} from '../../../lib/mcp/stdio/index.js';
import {defineTool} from '../../../lib/mcp/stdio/index.js';
import type {Harness} from '../../helpers/streams.js';
import {harness} from '../../helpers/streams.js';

const SERVER_INFO = {name: 'schema-test', version: '1.0.0'};
const MODERN_META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
};
const IDENTITY = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"schema-test","version":"1.0.0"}}';

/** What the handler of each vendor's tool was given, in order. */
const seen: Record<string, unknown[]> = {zod: [], valibot: [], arktype: []};

/** `word` arrives as its length (a transform), `times` defaults to 2; the word "oops" answers a wrong total. */
function measured(vendor: string, args: {word: number; times: number}) {
    seen[vendor]?.push(args);
    const total = args.word * args.times;
    return {
        content: [{type: 'text' as const, text: String(total)}],
        structuredContent: {total: args.word === 4 ? 'four' : total} as {total: number},
    };
}

interface Case {
    vendor: string;
    tool: McpSchemaTool;
    /** `tools/list`'s `inputSchema` and `outputSchema`, exactly. */
    advertised: string;
    /** The `isError` text for `{word: 3, times: 1.5}`. */
    invalid: string;
    /** The diagnostic's detail for the output mismatch. */
    mismatch: string;
}

const SCHEMA = '"$schema":"https://json-schema.org/draft/2020-12/schema"';

const cases: Case[] = [
    {
        vendor: 'zod',
        tool: defineTool({
            name: 'measure',
            inputSchema: z.object({
                word: z.string().transform((word) => word.length),
                times: z.number().int().default(2),
            }),
            outputSchema: z.object({total: z.number()}),
            handler: (args) => measured('zod', args),
        }),
        advertised:
            `"inputSchema":{${SCHEMA},"type":"object","properties":{"word":{"type":"string"},` +
            '"times":{"default":2,"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},' +
            `"required":["word"]},"outputSchema":{${SCHEMA},"type":"object",` +
            '"properties":{"total":{"type":"number"}},"required":["total"],"additionalProperties":false}',
        invalid:
            'Invalid arguments for tool "measure":\n- word: Invalid input: expected string, received number\n' +
            '- times: Invalid input: expected int, received number',
        mismatch: "[ { path: 'total', message: 'Invalid input: expected number, received string' } ]",
    },
    {
        vendor: 'valibot',
        tool: defineTool({
            name: 'measure',
            inputSchema: toStandardJsonSchema(
                v.object({
                    word: v.pipe(
                        v.string(),
                        v.transform((word) => word.length),
                    ),
                    times: v.optional(v.pipe(v.number(), v.integer()), 2),
                }),
            ),
            outputSchema: toStandardJsonSchema(v.object({total: v.number()})),
            handler: (args) => measured('valibot', args),
        }),
        advertised:
            '"inputSchema":{"type":"object","properties":{"word":{"type":"string"},' +
            `"times":{"type":"integer","default":2}},"required":["word"],${SCHEMA}},` +
            '"outputSchema":{"type":"object","properties":{"total":{"type":"number"}},' +
            `"required":["total"],${SCHEMA}}`,
        invalid:
            'Invalid arguments for tool "measure":\n- word: Invalid type: Expected string but received 3\n' +
            '- times: Invalid integer: Received 1.5',
        mismatch: `[ { path: 'total', message: 'Invalid type: Expected number but received "four"' } ]`,
    },
    {
        vendor: 'arktype',
        tool: defineTool({
            name: 'measure',
            inputSchema: type({
                word: type('string').pipe((word) => word.length),
                times: 'number.integer = 2',
            }),
            outputSchema: type({total: 'number'}),
            handler: (args) => measured('arktype', args),
        }),
        advertised:
            `"inputSchema":{${SCHEMA},"type":"object","properties":{"word":{"type":"string"},` +
            `"times":{"type":"integer"}},"required":["word"]},"outputSchema":{${SCHEMA},"type":"object",` +
            '"properties":{"total":{"type":"number"}},"required":["total"]}',
        invalid:
            'Invalid arguments for tool "measure":\n- word: word must be a string (was a number)\n' +
            '- times: times must be an integer (was 1.5)',
        mismatch: "[ { path: 'total', message: 'total must be a number (was a string)' } ]",
    },
];

/** Sends one message and returns its answer's raw line. */
async function answer(h: Harness, message: object): Promise<string> {
    const before = h.output.lineCount;
    h.send(message);
    await h.output.waitForLines(before + 1);
    return h.output.text.split('\n')[before] as string;
}

function callMeasure(id: number, args: object, modern = false): object {
    const params = modern
        ? {name: 'measure', arguments: args, _meta: MODERN_META}
        : {name: 'measure', arguments: args};
    return {jsonrpc: '2.0', id, method: 'tools/call', params};
}

async function end(h: Harness): Promise<void> {
    h.input.push(null);
    await h.server.closed;
}

for (const {vendor, tool, advertised, invalid, mismatch} of cases) {
    describe(`${vendor} on the wire (2025-11-25)`, () => {
        test('tools/list advertises the converted JSON Schemas', async () => {
            const h = harness({serverInfo: SERVER_INFO, tools: [tool]});
            await h.initialize();
            assert.equal(
                await answer(h, {jsonrpc: '2.0', id: 1, method: 'tools/list'}),
                `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"measure",${advertised}}]}}`,
            );
            await end(h);
        });

        test('invalid arguments are an isError result naming each path; the handler is not called', async () => {
            const h = harness({serverInfo: SERVER_INFO, tools: [tool]});
            await h.initialize();
            const before = seen[vendor]?.length;
            assert.equal(
                await answer(h, callMeasure(2, {word: 3, times: 1.5})),
                `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":${JSON.stringify(invalid)}}],"isError":true}}`,
            );
            assert.equal(seen[vendor]?.length, before);
            assert.equal(h.errors.text, '');
            await end(h);
        });

        test('the handler receives the validated value: transform and default applied', async () => {
            const h = harness({serverInfo: SERVER_INFO, tools: [tool]});
            await h.initialize();
            assert.equal(
                await answer(h, callMeasure(3, {word: 'abc'})),
                '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"6"}],"structuredContent":{"total":6}}}',
            );
            assert.deepEqual(seen[vendor]?.at(-1), {word: 3, times: 2});
            await end(h);
        });

        test('structuredContent that breaks the output schema is -32603 with a diagnostic of the issues', async () => {
            const h = harness({serverInfo: SERVER_INFO, tools: [tool]});
            await h.initialize();
            assert.equal(
                await answer(h, callMeasure(4, {word: 'oops', times: 1})),
                '{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error in tools/call of tool ' +
                    '\\"measure\\" (request id 4): its structuredContent does not match its outputSchema; ' +
                    'the server\'s diagnostics have the details"}}',
            );
            assert.equal(
                h.errors.text,
                '[arcane-os/mcp/stdio] The tools/call of tool "measure" (request id 4) failed: its structuredContent ' +
                    `does not match its outputSchema; answered -32603\n${mismatch}\n`,
            );
            await end(h);
        });
    });

    describe(`${vendor} on the wire (2026-07-28)`, () => {
        test('validated, transformed and checked the same way, answered in the era', async () => {
            const h = harness({serverInfo: SERVER_INFO, tools: [tool], protocolVersions: ['2026-07-28']});
            assert.equal(
                await answer(h, callMeasure(5, {word: 3, times: 1.5}, true)),
                `{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete",${IDENTITY},` +
                    `"content":[{"type":"text","text":${JSON.stringify(invalid)}}],"isError":true}}`,
            );
            assert.equal(
                await answer(h, callMeasure(6, {word: 'abcd!', times: 3}, true)),
                `{"jsonrpc":"2.0","id":6,"result":{"resultType":"complete",${IDENTITY},` +
                    '"content":[{"type":"text","text":"15"}],"structuredContent":{"total":15}}}',
            );
            assert.deepEqual(seen[vendor]?.at(-1), {word: 5, times: 3});
            const failed = await answer(h, callMeasure(7, {word: 'oops'}, true));
            assert.equal(JSON.parse(failed).error.code, -32603);
            assert.match(h.errors.text, /does not match its outputSchema; answered -32603\n/);
            await end(h);
        });
    });
}
