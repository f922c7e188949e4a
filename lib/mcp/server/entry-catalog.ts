/**
 * The tools and resources options as captured entries: each checked, keyed by its name or uri,
 * its handler kept apart and its descriptor serialized once, exactly as authored less `handler`.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {checkHandler, keyedEntries} from './option-entries.js';
import {servedTool} from './schema-tool.js';
import {toJson} from './settings.js';
import type {McpResource, McpSchemaTool, ResourceHandler, ToolHandler} from './types.js';

export interface Captured<Handler> {
    handlers: Map<string, Handler>;
    descriptors: string[];
}

/** What tells one catalog option's entries apart: tools by `name`, resources by `uri`. */
interface EntryKind<Handler> {
    readonly option: 'tools' | 'resources';
    readonly key: 'name' | 'uri';
    /** Ends "createMcpStdioServer: tools[0] ("x") repeats …". */
    readonly repeated: string;
    /**
     * Checks the rest of one entry (its handler included), in the order its errors are reported,
     * and returns the handler to serve it with.
     */
    check(label: string, key: string, descriptor: JsonObject, handler: unknown): Handler;
}

/**
 * `legacy`: a revision before 2026-07-28 is served, whose clients reject an `outputSchema` without
 * `"type": "object"`; 2026-07-28 allows any JSON Schema object there. `inputSchema` needs
 * `"type": "object"` in every revision.
 */
export function captureTools(tools: unknown, legacy: boolean): Captured<ToolHandler> {
    return capture<ToolHandler>(tools, {
        option: 'tools',
        key: 'name',
        repeated: 'repeats a tool name; each tool name must be unique',
        check(label, name, descriptor, handler) {
            checkHandler<ToolHandler>(label, handler);
            const served = servedTool(label, name, descriptor, handler, legacy);
            objectSchema(label, 'inputSchema', descriptor.inputSchema, true);
            if (legacy) objectSchema(label, 'outputSchema', descriptor.outputSchema, false);
            else anySchema(label, descriptor.outputSchema);
            return served;
        },
    });
}

export function captureResources(resources: unknown): Captured<ResourceHandler> {
    return capture<ResourceHandler>(resources, {
        option: 'resources',
        key: 'uri',
        repeated: 'repeats a resource uri; each uri must be unique',
        check(label, _uri, descriptor, handler) {
            if (typeof descriptor.name !== 'string') {
                throw new TypeError(
                    `createMcpStdioServer: ${label} needs a "name" string, got ${describe(descriptor.name)}`,
                );
            }
            checkHandler<ResourceHandler>(label, handler);
            return handler;
        },
    });
}

function capture<Handler>(value: unknown, kind: EntryKind<Handler>): Captured<Handler> {
    const captured: Captured<Handler> = {handlers: new Map(), descriptors: []};
    for (const {entry, key, label} of keyedEntries<McpSchemaTool | McpResource>(
        kind.option,
        value,
        kind.key,
    )) {
        const {handler, ...descriptor} = entry;
        const served = kind.check(label, key, descriptor as JsonObject, handler);
        if (captured.handlers.has(key)) {
            throw new TypeError(`createMcpStdioServer: ${label} ${kind.repeated}`);
        }
        captured.handlers.set(key, served);
        captured.descriptors.push(toJson(descriptor, label));
    }
    return captured;
}

function objectSchema(label: string, field: string, schema: unknown, required: boolean): void {
    if (schema === undefined && !required) return;
    if (!isObject(schema) || schema.type !== 'object') {
        throw new TypeError(
            `createMcpStdioServer: ${label} needs "${field}" to be a JSON Schema object with "type": "object", ` +
                `got ${describe(schema)}`,
        );
    }
}

function anySchema(label: string, schema: unknown): void {
    if (schema === undefined || isObject(schema)) return;
    throw new TypeError(
        `createMcpStdioServer: ${label} needs "outputSchema" to be a JSON Schema object, got ${describe(schema)}`,
    );
}
