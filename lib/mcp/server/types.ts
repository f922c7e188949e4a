/**
 * The server's public types: what an application writes (tools, resources, handlers) and what it
 * calls (the server). The wire shapes they use are in `../protocol/types.ts`, shared with the
 * client and re-exported here.
 */
import type {Readable, Writable} from 'node:stream';
import type {LoggingLevel} from '../protocol/features.js';
import type {
    CallToolResult,
    Implementation,
    JsonObject,
    ObjectSchema,
    ReadResourceParams,
    ReadResourceResult,
    RequestId,
    ResourceDescriptor,
    ToolDescriptor,
    ToolFields,
} from '../protocol/types.js';
import type {AskingContext} from './asking/types.js';
import type {StandardSchemaV1} from './standard-schema.js';

export type * from '../protocol/types.js';

/** What `context.reportProgress` takes: one `notifications/progress`, without its token. */
export interface ProgressUpdate {
    /** How far the work has come: a finite number greater than the last one reported for this request. */
    progress: number;
    /** What `progress` counts up to, when known: a finite number. */
    total?: number;
    /** A short human-readable note on the current step. */
    message?: string;
}

/** The requests whose handlers get a context. */
export type HandlerMethod = 'tools/call' | 'resources/read' | 'prompts/get' | 'completion/complete';

/** The syslog severities of `notifications/message`, least severe first. */
export type {LoggingLevel};

/**
 * What every handler receives besides its input: a frozen plain object whose properties all work
 * when destructured.
 *
 * @example
 * ```ts
 * const handler: ToolHandler = async ({files}, {signal, reportProgress}) => {
 *     const names = files as string[];
 *     for (const [done, name] of names.entries()) {
 *         await convert(name, {signal});
 *         reportProgress({progress: done + 1, total: names.length, message: `Converted ${name}`});
 *     }
 *     return {content: [{type: 'text', text: `Converted ${names.length} files.`}]};
 * };
 * ```
 */
export interface HandlerContext<Method extends HandlerMethod = HandlerMethod> extends AskingContext {
    /** This request's own signal: aborted by `server.cancel`, `notifications/cancelled`, or the session failing or closing with `cancelPending`. */
    readonly signal: AbortSignal;
    /**
     * Queues a `notifications/progress` for this request and returns `true` when the client asked
     * for progress (a string or integer `params._meta.progressToken`, `0` included, in every
     * revision) and the request is still running. Returns `false`, sending nothing, when it did not
     * ask, and once the handler has settled or the request was answered or cancelled, so the same
     * code serves every client.
     *
     * Every notification of a request is written before its response and never after it or after a
     * cancellation. While one still waits to be written (the client reads slowly, or other output
     * goes first), a newer report replaces it, so reporting in a tight loop costs no memory and
     * the client sees the latest progress; one still waiting when the request is answered or
     * cancelled is dropped.
     *
     * Throws at the call site, whether or not the client asked: a `TypeError` for an argument that
     * is not an object, an unknown field, or a `progress`, `total` or `message` of the wrong type;
     * a `RangeError` for a `progress` or `total` that is not finite, or a `progress` not greater
     * than the last one this request reported.
     */
    readonly reportProgress: (update: ProgressUpdate) => boolean;
    /**
     * Queues a `notifications/message` and returns `true` when the server has the `logging` option,
     * the client asked for log messages (`logging/setLevel`, or this 2026-07-28 request's
     * `_meta["io.modelcontextprotocol/logLevel"]`) at `level` or below, and the request is still
     * running; otherwise sends nothing and returns `false`. Ordered like progress: before the
     * response, never after it, and nothing still waiting is written after a cancellation.
     *
     * Throws at the call site, whether or not the client asked: a `TypeError` for a level that is
     * not a string or a `logger` that is not a string, a `RangeError` for a string that is not one of
     * the eight levels. `data` is serialized only for a message that is sent (so nobody pays for it
     * otherwise); one that cannot be serialized as JSON is then a `TypeError`.
     */
    readonly log: (level: LoggingLevel, data: unknown, logger?: string) => boolean;
    /** The request's id exactly as the client sent it (numeric 0 included). */
    readonly requestId: RequestId;
    readonly method: Method;
    /** The complete request params object. */
    readonly params: JsonObject;
    /**
     * The client's `clientInfo` from `initialize`; under 2026-07-28, this request's
     * `_meta["io.modelcontextprotocol/clientInfo"]`, or `{name: '', version: ''}` when it has none.
     */
    readonly clientInfo: Implementation;
    /**
     * The client's `capabilities` from `initialize`; under 2026-07-28, this request's
     * `_meta["io.modelcontextprotocol/clientCapabilities"]`.
     */
    readonly clientCapabilities: JsonObject;
    /** The revision answered to `initialize`, or the one this 2026-07-28 request names. */
    readonly protocolVersion: string;
    /**
     * The HTTP request that carried this call, when it came through `arcane-os/mcp/http` (the POST
     * of this request, in either era): read its headers to decide per call, a bearer token or a
     * tenant header, say. Absent over stdio.
     */
    readonly http?: HttpRequestInfo;
}

/** What a handler sees of the HTTP request that carried its call (`context.http`). */
export interface HttpRequestInfo {
    /** The request's headers, as the fetch handler received them. */
    readonly headers: Headers;
}

export type ToolHandler = (
    args: JsonObject,
    context: HandlerContext<'tools/call'>,
) => CallToolResult | PromiseLike<CallToolResult>;

export type ResourceHandler = (
    params: ReadResourceParams,
    context: HandlerContext<'resources/read'>,
) => ReadResourceResult | PromiseLike<ReadResourceResult>;

export interface McpTool extends ToolDescriptor {
    handler: ToolHandler;
}

/**
 * A tool whose schemas may also be Standard Schemas carrying their JSON Schema converter:
 * advertised converted and enforced on every call. `defineTool` types its handler from them.
 */
export interface McpSchemaTool extends ToolFields {
    inputSchema: ObjectSchema | StandardSchemaV1;
    outputSchema?: ObjectSchema | JsonObject | StandardSchemaV1;
    handler: ToolHandler;
}

export interface McpResource extends ResourceDescriptor {
    handler: ResourceHandler;
}

export interface StartOptions {
    /** Where requests come from. Default: `process.stdin`. */
    input?: Readable;
    /** Where JSON-RPC records go, and nothing else. Default: `process.stdout`. */
    output?: Writable;
    /** Where diagnostics go. Must not be `output`. Default: `process.stderr`. */
    error?: Writable;
}

export interface CloseOptions {
    /** Abort every pending handler instead of waiting for it. Default: `false`. */
    cancelPending?: boolean;
}

export interface McpStdioServer {
    /** Attaches to the streams and starts reading. Call exactly once. Returns this server. */
    start(options?: StartOptions): McpStdioServer;
    /** Signals the active handler of `requestId`; true only when one was signalled. */
    cancel(requestId: RequestId, reason?: unknown): boolean;
    /**
     * Tells every client subscribed to `uri` that the resource changed
     * (`notifications/resources/updated`); returns how many notifications were sent (0 before
     * `start()`, after the session closed, or with no subscriber). Needs the `subscriptions` option.
     */
    notifyResourceUpdated(uri: string): number;
    /** Resolves when accepted handlers, diagnostics and output writes have settled. */
    drain(): Promise<void>;
    /** Stops reading, drains (or cancels with `cancelPending`), detaches; resolves when `closed` settles. */
    close(options?: CloseOptions): Promise<void>;
    /** Resolves after a normal close or EOF; rejects with an `AggregateError` after a transport or diagnostic failure. */
    readonly closed: Promise<void>;
}
