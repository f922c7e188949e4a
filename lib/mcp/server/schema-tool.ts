/**
 * Tools whose `inputSchema` or `outputSchema` is a Standard Schema: the JSON Schema they advertise,
 * converted once at construction, and a handler wrapped to validate around the application's own.
 * A tool with raw JSON Schema never reaches the wrapper: its handler is served as given.
 */
import {isObject} from '../../jsonrpc/records.js';
import {ServerFault} from './fault.js';
import type {StandardIssue, StandardResult, StandardSchemaV1} from './standard-schema.js';
import {
    convertStandardSchema,
    formatIssues,
    formatPath,
    isStandardSchema,
    isThenable,
    validateArguments,
    validateThen,
} from './standard-schema.js';
import type {CallToolResult, HandlerContext, JsonObject, ToolHandler} from './types.js';

/** The schema fields of a tool's descriptor copy, which `servedTool` may replace. */
interface SchemaFields {
    inputSchema?: unknown;
    outputSchema?: unknown;
}

/**
 * Replaces each Standard Schema of `descriptor` (the catalog's own copy) by its JSON Schema and
 * returns the handler to serve: `handler` itself when neither schema is a Standard Schema.
 * Throws a `TypeError` naming the tool for a schema that cannot be converted or whose JSON Schema
 * breaks the rule of an enabled revision. `legacy`: a revision before 2026-07-28 is enabled.
 */
export function servedTool(
    label: string,
    name: string,
    descriptor: SchemaFields,
    handler: ToolHandler,
    legacy: boolean,
): ToolHandler {
    const input = descriptor.inputSchema;
    const output = descriptor.outputSchema;
    const typedInput = isStandardSchema(input) ? input : undefined;
    const typedOutput = isStandardSchema(output) ? output : undefined;
    if (typedInput === undefined && typedOutput === undefined) return handler;
    if (typedInput !== undefined) {
        descriptor.inputSchema = advertised(label, 'inputSchema', typedInput, 'input', true);
    }
    if (typedOutput !== undefined) {
        descriptor.outputSchema = advertised(label, 'outputSchema', typedOutput, 'output', legacy);
    }
    return wrap(name, handler, typedInput, typedOutput);
}

function advertised(
    label: string,
    field: string,
    schema: StandardSchemaV1,
    side: 'input' | 'output',
    objectOnly: boolean,
): Record<string, unknown> {
    const where = `createMcpStdioServer: ${label} "${field}"`;
    const converted = convertStandardSchema(schema, side, where);
    if (objectOnly && converted.type !== 'object') {
        const rule =
            field === 'inputSchema'
                ? "a tool's input must be an object schema in every revision"
                : "while a revision before 2026-07-28 is enabled, a tool's output must be an object schema";
        throw new TypeError(
            `${where} converts to a JSON Schema without "type": "object" (${JSON.stringify(converted.type)}); ` +
                `${rule}: give an object schema, such as z.object({...}), v.object({...}) or type({...})`,
        );
    }
    return converted;
}

function wrap(
    name: string,
    handler: ToolHandler,
    input: StandardSchemaV1 | undefined,
    output: StandardSchemaV1 | undefined,
): ToolHandler {
    const run: ToolHandler =
        output === undefined
            ? handler
            : (args, context) => {
                  const result = handler(args, context);
                  if (!isThenable(result)) return checkOutput(output, result);
                  return Promise.resolve(result).then((settled) => checkOutput(output, settled));
              };
    if (input === undefined) return run;
    const next = (result: StandardResult<unknown>, context: HandlerContext<'tools/call'>) =>
        proceed(name, run, result, context);
    return (args, context) => validateArguments(input, 'its inputSchema', args, context, next);
}

function proceed(
    name: string,
    run: ToolHandler,
    result: StandardResult<unknown>,
    context: HandlerContext<'tools/call'>,
): ReturnType<ToolHandler> {
    if (result.issues !== undefined) {
        // A tool execution error, not a protocol one, so the model sees what to correct.
        const text = `Invalid arguments for tool ${JSON.stringify(name)}:\n${formatIssues(result.issues)}`;
        return {content: [{type: 'text', text}], isError: true};
    }
    return run(result.value as JsonObject, context);
}

/**
 * Validates a result's `structuredContent` and returns the result carrying the validated value;
 * an error result, or a value that is not a result at all (left to the outcome's own check), as
 * it is. A mismatch is the server's own bug, a `ServerFault`.
 */
function checkOutput(
    schema: StandardSchemaV1,
    result: CallToolResult,
): CallToolResult | Promise<CallToolResult> {
    if (!isObject(result) || result.isError === true) return result;
    if (result.structuredContent === undefined) {
        throw new ServerFault('its result has no structuredContent, which its outputSchema requires', result);
    }
    let checked: CallToolResult | Promise<CallToolResult>;
    try {
        checked = validateThen(schema, result.structuredContent, (validated) => settle(result, validated));
    } catch (error) {
        if (error instanceof ServerFault) throw error;
        throw new ServerFault('the validate of its outputSchema threw', error);
    }
    if (!isThenable(checked)) return checked;
    return checked.then(undefined, (error: unknown) => {
        if (error instanceof ServerFault) throw error;
        throw new ServerFault('the validate of its outputSchema rejected', error);
    });
}

function settle(result: CallToolResult, validated: StandardResult<unknown>): CallToolResult {
    if (validated.issues !== undefined) {
        throw new ServerFault(
            'its structuredContent does not match its outputSchema',
            issueList(validated.issues),
        );
    }
    return {...result, structuredContent: validated.value};
}

/** The issues as the diagnostic shows them: each path and message, nothing else a library adds. */
function issueList(issues: readonly StandardIssue[]): {path: string; message: string}[] {
    return issues.map((issue) => ({path: formatPath(issue.path), message: issue.message}));
}
