/**
 * The MCP wire shapes that the server and the client share: identities, descriptors, content
 * blocks and results. They follow the MCP 2025-11-25 schema; every object keeps an index signature
 * because unknown protocol fields pass through untouched, in both directions.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';

/** `JsonObject`: a JSON object as it crosses the wire. `RequestId`: a string or a safe integer. */
export type {JsonObject, RequestId};

/** `serverInfo`, and the client's `clientInfo`. */
export interface Implementation {
    name: string;
    version: string;
    title?: string;
    [key: string]: unknown;
}

export interface Icon {
    src: string;
    mimeType?: string;
    sizes?: string[];
    theme?: 'light' | 'dark';
    [key: string]: unknown;
}

export interface ToolAnnotations {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
    [key: string]: unknown;
}

/** A JSON Schema object whose `type` is `"object"`, as MCP requires for tool schemas. */
export interface ObjectSchema {
    type: 'object';
    [key: string]: unknown;
}

/** A tool's fields besides its schemas. */
export interface ToolFields {
    name: string;
    title?: string;
    description?: string;
    annotations?: ToolAnnotations;
    icons?: Icon[];
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** A tool as `tools/list` shows it. */
export interface ToolDescriptor extends ToolFields {
    inputSchema: ObjectSchema;
    /**
     * Needs `"type": "object"` while any revision before 2026-07-28 is enabled (their clients
     * reject anything else); with 2026-07-28 alone, any JSON Schema object.
     */
    outputSchema?: ObjectSchema | JsonObject;
}

/** A resource as `resources/list` shows it. */
export interface ResourceDescriptor {
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
    size?: number;
    annotations?: JsonObject;
    icons?: Icon[];
    _meta?: JsonObject;
    [key: string]: unknown;
}

export interface TextContent {
    type: 'text';
    text: string;
    [key: string]: unknown;
}

export interface ImageContent {
    type: 'image';
    data: string;
    mimeType: string;
    [key: string]: unknown;
}

export interface AudioContent {
    type: 'audio';
    data: string;
    mimeType: string;
    [key: string]: unknown;
}

export interface ResourceLink extends ResourceDescriptor {
    type: 'resource_link';
}

export interface TextResourceContents {
    uri: string;
    mimeType?: string;
    text: string;
    _meta?: JsonObject;
    [key: string]: unknown;
}

export interface BlobResourceContents {
    uri: string;
    mimeType?: string;
    /** Base64-encoded bytes. */
    blob: string;
    _meta?: JsonObject;
    [key: string]: unknown;
}

export interface EmbeddedResource {
    type: 'resource';
    resource: TextResourceContents | BlobResourceContents;
    [key: string]: unknown;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** What a tool handler returns: an explicit MCP `CallToolResult`. */
export interface CallToolResult {
    content: ContentBlock[];
    /** Any JSON value under 2026-07-28; earlier revisions define a JSON object (their clients reject others). */
    structuredContent?: unknown;
    isError?: boolean;
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** What a resource handler returns: an explicit MCP `ReadResourceResult`. */
export interface ReadResourceResult {
    contents: (TextResourceContents | BlobResourceContents)[];
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** The complete `resources/read` params, as the client sent them. */
export interface ReadResourceParams {
    uri: string;
    _meta?: JsonObject;
    [key: string]: unknown;
}
