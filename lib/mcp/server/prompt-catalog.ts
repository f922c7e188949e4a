/**
 * The `prompts` option, captured once: each prompt's handler, argument rules and completers, and its
 * descriptor serialized exactly as authored less `handler` and `complete`.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {captureCompleters} from './completers.js';
import type {Completer, McpPrompt, PromptArgument, PromptHandler} from './feature-types.js';
import {checkHandler, keyedEntries} from './option-entries.js';
import {schemaArguments, validatedPrompt} from './schema-prompt.js';
import {toJson} from './settings.js';
import {isStandardSchema} from './standard-schema.js';

export interface PromptEntry {
    readonly name: string;
    readonly handler: PromptHandler;
    /** The declared argument names, in order. */
    readonly arguments: readonly string[];
    /** The arguments a `prompts/get` must give. */
    readonly required: readonly string[];
    readonly complete: ReadonlyMap<string, Completer>;
}

export interface CapturedPrompts {
    readonly entries: ReadonlyMap<string, PromptEntry>;
    /** The `prompts/list` array. */
    readonly json: string;
    /** Some prompt has a completer. */
    readonly completes: boolean;
}

export function capturePrompts(prompts: unknown): CapturedPrompts {
    const captured = new Map<string, PromptEntry>();
    const descriptors: string[] = [];
    let completes = false;
    for (const {entry, key: name, label} of keyedEntries<McpPrompt>('prompts', prompts, 'name')) {
        const {handler, complete, ...descriptor} = entry;
        checkHandler<PromptHandler>(label, handler);
        if (captured.has(name)) {
            throw new TypeError(
                `createMcpStdioServer: ${label} repeats a prompt name; each prompt name must be unique`,
            );
        }
        const schema = isStandardSchema(descriptor.arguments) ? descriptor.arguments : undefined;
        // A schema is advertised as the argument list it stands for, computed once here.
        if (schema !== undefined) descriptor.arguments = schemaArguments(label, schema);
        const {names, required} = captureArguments(label, descriptor.arguments);
        const completers = captureCompleters(label, complete, names, 'argument');
        if (completers.size > 0) completes = true;
        const served = schema === undefined ? handler : validatedPrompt(name, schema, handler);
        captured.set(name, {name, handler: served, arguments: names, required, complete: completers});
        descriptors.push(toJson(descriptor, label));
    }
    return {entries: captured, json: `[${descriptors.join(',')}]`, completes};
}

function captureArguments(label: string, value: unknown): {names: string[]; required: string[]} {
    const names: string[] = [];
    const required: string[] = [];
    if (value === undefined) return {names, required};
    if (!Array.isArray(value)) {
        throw new TypeError(
            `createMcpStdioServer: ${label} needs "arguments" to be an array of {name, description?, required?}, ` +
                `got ${describe(value)}`,
        );
    }
    for (const [index, argument] of Array.from(value as unknown[] as PromptArgument[]).entries()) {
        const at = `${label} arguments[${index}]`;
        if (!isObject(argument) || typeof argument.name !== 'string' || argument.name === '') {
            throw new TypeError(
                `createMcpStdioServer: ${at} must be an object with a non-empty "name" string, got ${describe(argument)}`,
            );
        }
        if (argument.required !== undefined && typeof argument.required !== 'boolean') {
            throw new TypeError(
                `createMcpStdioServer: ${at} needs "required", when given, to be a boolean, got ${describe(argument.required)}`,
            );
        }
        if (names.includes(argument.name)) {
            throw new TypeError(
                `createMcpStdioServer: ${at} repeats the argument name ${JSON.stringify(argument.name)}`,
            );
        }
        names.push(argument.name);
        if (argument.required === true) required.push(argument.name);
    }
    return {names, required};
}
