/**
 * Options as data: validated once, copied once, serialized once.
 *
 * Every descriptor is copied through JSON at construction, so later changes to the caller's
 * objects have no effect and a value that cannot cross the wire fails here, naming its entry,
 * rather than in the middle of a session. The `tools/list` and `resources/list` results are
 * serialized once, exactly as authored with only `handler` left out.
 */

import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {McpResource, McpStdioServerOptions, McpTool, ResourceHandler, ToolHandler} from './types.js';

/** The revision this adapter answers by default. */
export const MCP_PROTOCOL_VERSION = '2025-11-25';

/** Every revision the adapter can answer, newest first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
    '2025-11-25',
    '2025-06-18',
    '2025-03-26',
    '2024-11-05',
]);

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_OUTPUT_HIGH_WATER_MARK = 16 * 1024 * 1024;

export interface Catalog {
    readonly tools: ReadonlyMap<string, ToolHandler>;
    readonly resources: ReadonlyMap<string, ResourceHandler>;
    /** `{"tools":[…]}` */
    readonly toolsListJson: string;
    /** `{"resources":[…]}` */
    readonly resourcesListJson: string;
    readonly protocolVersions: readonly string[];
    readonly maxMessageBytes: number;
    readonly outputHighWaterMark: number;
    /** The `initialize` result for one negotiated revision. */
    initializeResult(protocolVersion: string): string;
}

const OPTION_NAMES = new Set([
    'serverInfo',
    'instructions',
    'tools',
    'resources',
    'protocolVersions',
    'maxMessageBytes',
    'outputHighWaterMark',
]);

export function buildCatalog(options: McpStdioServerOptions): Catalog {
    if (!isObject(options)) {
        throw new TypeError(
            `createMcpStdioServer(options) needs an options object, got ${describe(options)}`,
        );
    }
    for (const key of Object.keys(options)) {
        if (!OPTION_NAMES.has(key)) {
            throw new TypeError(
                `createMcpStdioServer: unknown option "${key}"; the options are ${[...OPTION_NAMES].join(', ')}`,
            );
        }
    }
    const serverInfo = options.serverInfo;
    if (
        !isObject(serverInfo) ||
        typeof serverInfo.name !== 'string' ||
        typeof serverInfo.version !== 'string'
    ) {
        throw new TypeError(
            'createMcpStdioServer: serverInfo must be an object with "name" and "version" strings, ' +
                `got ${describe(serverInfo)}`,
        );
    }
    const instructions = options.instructions;
    if (instructions !== undefined && typeof instructions !== 'string') {
        throw new TypeError(
            `createMcpStdioServer: instructions must be a string, got ${describe(instructions)}`,
        );
    }
    const tools = captureTools(options.tools);
    const resources = captureResources(options.resources);
    const protocolVersions = captureVersions(options.protocolVersions);
    const maxMessageBytes = positiveInteger(
        'maxMessageBytes',
        options.maxMessageBytes,
        DEFAULT_MAX_MESSAGE_BYTES,
    );
    const outputHighWaterMark = positiveInteger(
        'outputHighWaterMark',
        options.outputHighWaterMark,
        DEFAULT_OUTPUT_HIGH_WATER_MARK,
    );

    const capabilities: JsonObject = {};
    if (tools.handlers.size > 0) capabilities.tools = {};
    if (resources.handlers.size > 0) capabilities.resources = {};
    const serverInfoJson = toJson(serverInfo, 'serverInfo');
    const tail =
        `,"capabilities":${JSON.stringify(capabilities)},"serverInfo":${serverInfoJson}` +
        (instructions === undefined ? '}' : `,"instructions":${JSON.stringify(instructions)}}`);
    const initializeResults = new Map(
        protocolVersions.map((version) => [version, `{"protocolVersion":${JSON.stringify(version)}${tail}`]),
    );

    return {
        tools: tools.handlers,
        resources: resources.handlers,
        toolsListJson: `{"tools":[${tools.descriptors.join(',')}]}`,
        resourcesListJson: `{"resources":[${resources.descriptors.join(',')}]}`,
        protocolVersions,
        maxMessageBytes,
        outputHighWaterMark,
        initializeResult: (version) => initializeResults.get(version) as string,
    };
}

interface Captured<Handler> {
    handlers: Map<string, Handler>;
    descriptors: string[];
}

function captureTools(tools: unknown): Captured<ToolHandler> {
    const captured: Captured<ToolHandler> = {handlers: new Map(), descriptors: []};
    for (const [index, entry] of entries<McpTool>('tools', tools)) {
        const at = `tools[${index}]`;
        if (!isObject(entry))
            throw new TypeError(`createMcpStdioServer: ${at} must be an object, got ${describe(entry)}`);
        const {handler, ...descriptor} = entry;
        if (typeof descriptor.name !== 'string' || descriptor.name === '') {
            throw new TypeError(
                `createMcpStdioServer: ${at} needs a non-empty "name" string, got ${describe(descriptor.name)}`,
            );
        }
        const name = descriptor.name;
        const label = `${at} (${JSON.stringify(name)})`;
        if (typeof handler !== 'function') {
            throw new TypeError(
                `createMcpStdioServer: ${label} needs a "handler" function, got ${describe(handler)}`,
            );
        }
        objectSchema(label, 'inputSchema', descriptor.inputSchema, true);
        objectSchema(label, 'outputSchema', descriptor.outputSchema, false);
        if (captured.handlers.has(name)) {
            throw new TypeError(
                `createMcpStdioServer: ${label} repeats a tool name; each tool name must be unique`,
            );
        }
        captured.handlers.set(name, handler);
        captured.descriptors.push(toJson(descriptor, label));
    }
    return captured;
}

function captureResources(resources: unknown): Captured<ResourceHandler> {
    const captured: Captured<ResourceHandler> = {handlers: new Map(), descriptors: []};
    for (const [index, entry] of entries<McpResource>('resources', resources)) {
        const at = `resources[${index}]`;
        if (!isObject(entry))
            throw new TypeError(`createMcpStdioServer: ${at} must be an object, got ${describe(entry)}`);
        const {handler, ...descriptor} = entry;
        if (typeof descriptor.uri !== 'string' || descriptor.uri === '') {
            throw new TypeError(
                `createMcpStdioServer: ${at} needs a non-empty "uri" string, got ${describe(descriptor.uri)}`,
            );
        }
        const uri = descriptor.uri;
        const label = `${at} (${JSON.stringify(uri)})`;
        if (typeof descriptor.name !== 'string') {
            throw new TypeError(
                `createMcpStdioServer: ${label} needs a "name" string, got ${describe(descriptor.name)}`,
            );
        }
        if (typeof handler !== 'function') {
            throw new TypeError(
                `createMcpStdioServer: ${label} needs a "handler" function, got ${describe(handler)}`,
            );
        }
        if (captured.handlers.has(uri)) {
            throw new TypeError(
                `createMcpStdioServer: ${label} repeats a resource uri; each uri must be unique`,
            );
        }
        captured.handlers.set(uri, handler);
        captured.descriptors.push(toJson(descriptor, label));
    }
    return captured;
}

function entries<Entry>(option: string, value: unknown): [number, Entry][] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
        throw new TypeError(`createMcpStdioServer: ${option} must be an array, got ${describe(value)}`);
    }
    // Array.from visits holes too (as undefined), so a sparse array is reported by its index.
    return Array.from(value, (entry, index) => [index, entry as Entry]);
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

function captureVersions(value: unknown): readonly string[] {
    if (value === undefined) return [MCP_PROTOCOL_VERSION];
    if (!Array.isArray(value) || value.length === 0) {
        throw new TypeError(
            `createMcpStdioServer: protocolVersions must be a non-empty array of revisions, got ${describe(value)}`,
        );
    }
    const seen = new Set<string>();
    for (const version of value) {
        if (typeof version !== 'string' || !MCP_PROTOCOL_VERSIONS.includes(version)) {
            throw new RangeError(
                `createMcpStdioServer: protocolVersions has ${describe(version)}; ` +
                    `the revisions this adapter serves are ${MCP_PROTOCOL_VERSIONS.join(', ')}`,
            );
        }
        if (seen.has(version)) {
            throw new RangeError(`createMcpStdioServer: protocolVersions lists "${version}" twice`);
        }
        seen.add(version);
    }
    return Object.freeze([...seen]);
}

function positiveInteger(option: string, value: unknown, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number') {
        throw new TypeError(`createMcpStdioServer: ${option} must be a number, got ${describe(value)}`);
    }
    if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`createMcpStdioServer: ${option} must be a positive integer, got ${value}`);
    }
    return value;
}

function toJson(value: unknown, label: string): string {
    let json: string | undefined;
    try {
        json = JSON.stringify(value);
    } catch (error) {
        throw new TypeError(
            `createMcpStdioServer: ${label} cannot be serialized as JSON (${(error as Error).message}); ` +
                'supply JSON-serializable protocol values',
            {cause: error},
        );
    }
    if (json === undefined) {
        // A toJSON method returned undefined: there is nothing to put on the wire.
        throw new TypeError(
            `createMcpStdioServer: ${label} cannot be serialized as JSON (it serialized to nothing); ` +
                'supply JSON-serializable protocol values',
        );
    }
    return json;
}
