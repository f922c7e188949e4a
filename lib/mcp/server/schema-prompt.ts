/**
 * Prompts whose `arguments` is a Standard Schema of string fields: the argument list derived once
 * from its JSON Schema, and a handler wrapped to validate the call's arguments first.
 */
import {isObject} from '../../jsonrpc/records.js';
import {ErrorCode, McpProtocolError} from './errors.js';
import type {PromptArgument, PromptHandler} from './feature-types.js';
import type {StandardResult, StandardSchemaV1} from './standard-schema.js';
import {convertStandardSchema, formatIssues, validateArguments} from './standard-schema.js';

/** The argument list a schema stands for, in the order of its properties. */
export function schemaArguments(label: string, schema: StandardSchemaV1): PromptArgument[] {
    const where = `createMcpStdioServer: ${label} "arguments"`;
    const converted = convertStandardSchema(schema, 'input', where);
    const properties = converted.properties ?? {};
    if (converted.type !== 'object' || !isObject(properties)) {
        throw new TypeError(
            `${where} converts to a JSON Schema that is not an object schema with "properties"; ` +
                'give an object of string fields, such as z.object({code: z.string()})',
        );
    }
    const required = Array.isArray(converted.required) ? converted.required : [];
    return Object.entries(properties).map(([name, property]) => {
        if (!isStringSchema(property)) {
            throw new TypeError(
                `${where} has the field ${JSON.stringify(name)} whose JSON Schema is not a string ` +
                    `(${JSON.stringify(property)}); prompt arguments are strings on the wire`,
            );
        }
        const argument: PromptArgument = {name};
        if (typeof property.title === 'string') argument.title = property.title;
        if (typeof property.description === 'string') argument.description = property.description;
        argument.required = required.includes(name);
        return argument;
    });
}

function isStringSchema(property: unknown): property is Record<string, unknown> {
    if (!isObject(property)) return false;
    if (property.type !== undefined) return property.type === 'string';
    if (Array.isArray(property.enum)) return property.enum.every((value) => typeof value === 'string');
    return typeof property.const === 'string';
}

/**
 * The handler to serve: arguments that fail the schema are `-32602` naming each issue; valid
 * ones reach `handler` as the schema's output value (defaults and transforms applied).
 */
export function validatedPrompt(
    name: string,
    schema: StandardSchemaV1,
    handler: PromptHandler,
): PromptHandler {
    const next = (result: StandardResult<unknown>, context: Parameters<PromptHandler>[1]) =>
        proceed(name, handler, result, context);
    return (args, context) => validateArguments(schema, 'its arguments schema', args, context, next);
}

function proceed(
    name: string,
    handler: PromptHandler,
    result: StandardResult<unknown>,
    context: Parameters<PromptHandler>[1],
): ReturnType<PromptHandler> {
    if (result.issues !== undefined) {
        throw new McpProtocolError(
            ErrorCode.InvalidParams,
            `Invalid arguments for prompt ${JSON.stringify(name)}:\n${formatIssues(result.issues)}`,
        );
    }
    return handler(result.value as Parameters<PromptHandler>[0], context);
}
