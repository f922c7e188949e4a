/**
 * `defineTool`: a tool whose handler is typed from its schemas. With a Standard Schema as
 * `inputSchema` the handler receives the schema's output type (what validation gives, defaults and
 * transforms applied); with raw JSON Schema, a `JsonObject`. With a Standard Schema as
 * `outputSchema`, `structuredContent` must have the schema's input type.
 */
import type {StandardInput, StandardOutput, StandardSchemaV1} from './standard-schema.js';
import type {
    CallToolResult,
    ContentBlock,
    HandlerContext,
    JsonObject,
    McpSchemaTool,
    ObjectSchema,
    ToolFields,
} from './types.js';

/** What a tool's `inputSchema` may be: an object-valued Standard Schema, or raw JSON Schema. */
export type ToolInputSchema = StandardSchemaV1<unknown, {[key: string]: unknown}> | ObjectSchema;

/** What a tool's `outputSchema` may be. */
export type ToolOutputSchema = StandardSchemaV1 | ObjectSchema | JsonObject;

/** The handler's arguments for an input schema. */
export type ToolArguments<Schema> = Schema extends StandardSchemaV1 ? StandardOutput<Schema> : JsonObject;

/** A successful result of a tool with an output Standard Schema: its `structuredContent` is checked. */
export interface StructuredToolResult<Structured> {
    content: ContentBlock[];
    structuredContent: Structured;
    isError?: false;
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** A tool error result: never validated against the output schema. */
export interface ToolErrorResult extends CallToolResult {
    isError: true;
}

/** What the handler returns for an output schema (or none). */
export type TypedToolResult<Schema> = Schema extends StandardSchemaV1
    ? StructuredToolResult<StandardInput<Schema>> | ToolErrorResult
    : CallToolResult;

/** A tool whose handler's types follow from its schemas. */
export interface TypedTool<Input extends ToolInputSchema, Output extends ToolOutputSchema | undefined>
    extends ToolFields {
    inputSchema: Input;
    outputSchema?: Output;
    handler: (
        args: ToolArguments<Input>,
        context: HandlerContext<'tools/call'>,
    ) => TypedToolResult<NoInfer<Output>> | PromiseLike<TypedToolResult<NoInfer<Output>>>;
}

/**
 * Returns `tool` as an `McpSchemaTool`, its handler typed from its schemas: no casts in the
 * application's code. Checks nothing at run time; the server checks every tool when created.
 *
 * @example
 * ```ts
 * const add = defineTool({
 *     name: 'add',
 *     inputSchema: z.object({a: z.number(), b: z.number()}),
 *     outputSchema: z.object({sum: z.number()}),
 *     handler: ({a, b}) => ({content: [{type: 'text', text: String(a + b)}], structuredContent: {sum: a + b}}),
 * });
 * ```
 */
export function defineTool<
    Input extends ToolInputSchema,
    Output extends ToolOutputSchema | undefined = undefined,
>(tool: TypedTool<Input, Output>): McpSchemaTool {
    // The handler's parameter is narrower than `ToolHandler`'s; the server hands it exactly that.
    return tool as unknown as McpSchemaTool;
}
