/**
 * The shapes of a connected client: `McpClient`, what its methods promise, and `SessionSettings`,
 * the checked transport-independent options a session runs with. Types only.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import type {
    CompleteParams,
    CompleteResult,
    GetPromptResult,
    LoggingLevel,
    PromptDescriptor,
    ResourceTemplateDescriptor,
} from '../protocol/features.js';
import type {
    CallToolResult,
    Implementation,
    ReadResourceResult,
    ResourceDescriptor,
    ToolDescriptor,
} from '../protocol/types.js';
import type {ServerRequestHandlers} from './answering.js';
import type {VersionNegotiation} from './era.js';
import type {ListenFilter} from './listen-filter.js';
import type {McpSubscription} from './listen-handle.js';
import type {NotificationOptions} from './notifications.js';
import type {CallToolOptions, RequestOptions} from './options.js';
import type {McpProtocolErrorEvent} from './stray.js';

/** A connected client. Every method rejects once the session is over. */
export interface McpClient {
    /**
     * The server's identity, as it sent it: `serverInfo` of `initialize`, or in the modern era the
     * `io.modelcontextprotocol/serverInfo` of its `server/discover` result; a modern server that
     * names none there (the field is only recommended) gets `{name: '', version: ''}`.
     */
    readonly serverInfo: Implementation;
    /** The era negotiated: `'legacy'` (by `initialize`) or `'modern'` (2026-07-28, by `server/discover`). */
    readonly era: 'legacy' | 'modern';
    /** The negotiated revision: one of `MCP_CLIENT_PROTOCOL_VERSIONS`, or `'2026-07-28'`. */
    readonly protocolVersion: string;
    /**
     * In the modern era, the `server/discover` result exactly as it arrived (caching hints
     * `ttlMs` and `cacheScope` included); `undefined` in the legacy era.
     */
    readonly discovery: JsonObject | undefined;
    /** The server's `capabilities`, as it sent them. */
    readonly capabilities: JsonObject;
    /** The server's `instructions`, or `undefined` when it sent none. */
    readonly instructions: string | undefined;
    /** Every tool, following `nextCursor` through every page. */
    listTools(options?: RequestOptions): Promise<ToolDescriptor[]>;
    /** Calls a tool; resolves with the `CallToolResult` exactly as sent, `isError` results included. */
    callTool(name: string, args?: JsonObject, options?: CallToolOptions): Promise<CallToolResult>;
    /** Every resource, following `nextCursor` through every page. */
    listResources(options?: RequestOptions): Promise<ResourceDescriptor[]>;
    /** Reads one resource; resolves with the `ReadResourceResult` exactly as sent. */
    readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult>;
    /** Every resource template, following `nextCursor` through every page. */
    listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplateDescriptor[]>;
    /** Every prompt, following `nextCursor` through every page; names are unique. */
    listPrompts(options?: RequestOptions): Promise<PromptDescriptor[]>;
    /** Gets one prompt with its arguments (strings); resolves with the `GetPromptResult` exactly as sent. */
    getPrompt(
        name: string,
        args?: Record<string, string>,
        options?: RequestOptions,
    ): Promise<GetPromptResult>;
    /** Asks for suggestions for a prompt argument or template variable; resolves with the result as sent. */
    complete(params: CompleteParams, options?: RequestOptions): Promise<CompleteResult>;
    /** Sends `ping`; resolves once the server answers. */
    ping(options?: RequestOptions): Promise<void>;
    /** Asks the server for log messages at `level` and above (`notifications/message`, see `onLog`). */
    setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void>;
    /** Asks to be told when the resource changes (`notifications/resources/updated`, see `onResourceUpdated`). */
    subscribeResource(uri: string, options?: RequestOptions): Promise<void>;
    /** Withdraws a `subscribeResource`. */
    unsubscribeResource(uri: string, options?: RequestOptions): Promise<void>;
    /** 2026-07-28: opens a `subscriptions/listen` subscription; resolves once it is acknowledged. */
    listen(filter: ListenFilter, options?: RequestOptions): Promise<McpSubscription>;
    /** Ends the session and the transport. Idempotent: every call returns the same promise. */
    close(): Promise<void>;
}

export interface SessionSettings {
    clientInfo: Implementation;
    protocolVersion: string;
    initializeTimeoutMs: number;
    listTimeoutMs: number;
    callTimeoutMs: number;
    signal: AbortSignal | undefined;
    /** A problem that belongs to no request ends the session. */
    strict: boolean;
    onProtocolError: ((event: McpProtocolErrorEvent) => void) | undefined;
    /** The notification callbacks, checked. Default: none. */
    notifications?: NotificationOptions;
    /** The era to negotiate. Default: `'legacy'`. */
    versionNegotiation?: VersionNegotiation;
    /** The wait for the `'auto'` probe. Default: `DEFAULT_DISCOVER_TIMEOUT_MS`. */
    discoverTimeoutMs?: number;
    /** The handlers for the server's requests, checked. Default: none. */
    handlers?: ServerRequestHandlers;
    /** The bound on the modern era's input rounds. Default: `DEFAULT_MAX_INPUT_ROUNDS`. */
    maxInputRounds?: number;
}
