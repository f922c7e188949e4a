/** Shared by the Standard Schema tool tests: a hand-made schema and raw-wire shorthands. */
import type {McpSchemaTool, McpStdioServerOptions, StandardSchemaV1} from '../../lib/mcp/stdio/index.js';
import type {Harness} from './streams.js';
import {answer, finish, harness} from './streams.js';

/** Ends the input and waits for the server to close. */
export {answer, finish as end};

export const SERVER_INFO = {name: 'edges', version: '1.0.0'};
export const PREFIX = '[arcane-os/mcp/stdio] ';
const OBJECT = {$schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object'};

export function serve(tools: McpSchemaTool[], extra: Partial<McpStdioServerOptions> = {}): Harness {
    return harness({serverInfo: SERVER_INFO, tools, ...extra});
}

/** A hand-made Standard Schema: `validate` as given, a fixed JSON Schema on both sides. */
export function schema(validate: (value: unknown) => unknown, converted: unknown = OBJECT): StandardSchemaV1 {
    return {
        '~standard': {
            version: 1,
            vendor: 'hand-made',
            validate: validate as StandardSchemaV1['~standard']['validate'],
            jsonSchema: {
                input: () => converted as Record<string, unknown>,
                output: () => converted as Record<string, unknown>,
            },
        },
    };
}
export function call(id: number, name: string, args: object = {}): object {
    return {jsonrpc: '2.0', id, method: 'tools/call', params: {name, arguments: args}};
}
/** The -32603 answer of a failed tool call, as the server words it. */
export function internalError(id: number, name: string, problem: string): string {
    return (
        `{"jsonrpc":"2.0","id":${id},"error":{"code":-32603,"message":"Internal error in tools/call of tool ` +
        `\\"${name}\\" (request id ${id}): ${problem}; the server's diagnostics have the details"}}`
    );
}
