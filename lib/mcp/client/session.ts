/**
 * The client session: the handshake, the operations, and the end of the session, over whichever
 * transport `connect.ts` chose.
 *
 * Everything the server sends is untrusted data: results are checked for the shape the client
 * relies on and are otherwise returned exactly as they arrived; nothing in them is run, fetched or
 * followed. A problem that belongs to no request is told to `onProtocolError` and skipped, or,
 * under `strict`, ends the session.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {checkString} from '../../util/options.js';
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
import {DEFAULT_MAX_INPUT_ROUNDS} from './answering.js';
import type {Negotiated, VersionNegotiation} from './era.js';
import {DEFAULT_DISCOVER_TIMEOUT_MS} from './era.js';
import type {McpClientError} from './errors.js';
import {asConnectionError, asViolation, McpProtocolViolationError} from './errors.js';
import {establish} from './establish.js';
import type {McpSubscription} from './listen.js';
import {Listens} from './listen.js';
import type {ListenFilter} from './listen-filter.js';
import {ResourceListens} from './listen-resources.js';
import type {ModernEnvelope} from './modern-meta.js';
import type {NotificationOptions} from './notifications.js';
import type {CallToolOptions, RequestOptions} from './options.js';
import {checkRequestOptions} from './options.js';
import {listAll} from './paging.js';
import {Requests} from './requests.js';
import type {McpProtocolErrorEvent, McpProtocolErrorKind} from './stray.js';
import {excerpt, tell} from './stray.js';
import * as surface from './surface.js';
import type {ClientTransport} from './transport.js';

export {MCP_CLIENT_PROTOCOL_VERSIONS} from './handshake.js';

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

/**
 * Starts the transport and runs the handshake. On any failure the transport is closed before the
 * promise rejects, so nothing is left running.
 */
export async function openSession(transport: ClientTransport, settings: SessionSettings): Promise<McpClient> {
    const session = new Session(transport, settings);
    await session.open();
    return session;
}

class Session implements McpClient {
    readonly #transport: ClientTransport;
    readonly #settings: SessionSettings;
    readonly #requests: Requests;
    readonly #listens: Listens;
    readonly #resourceListens: ResourceListens;
    #negotiated: Negotiated | undefined;
    #envelope: ModernEnvelope | undefined;
    #closing: Promise<void> | undefined;

    constructor(transport: ClientTransport, settings: SessionSettings) {
        this.#transport = transport;
        this.#settings = settings;
        this.#requests = new Requests(
            transport,
            (error) => {
                this.#listens.fail(error);
                void this.close();
            },
            (kind, error, value) => this.#stray(kind, error, () => JSON.stringify(value)),
        );
        const callbacks = settings.notifications ?? {};
        this.#listens = new Listens(this.#requests, () => this.era, settings.callTimeoutMs, callbacks);
        this.#resourceListens = new ResourceListens(this.#listens);
        this.#requests.onNotification = (method, params) => this.#listens.route(method, params);
    }

    get serverInfo(): Implementation {
        return (this.#negotiated as Negotiated).serverInfo;
    }

    get era(): 'legacy' | 'modern' {
        return (this.#negotiated as Negotiated).era;
    }

    get protocolVersion(): string {
        return (this.#negotiated as Negotiated).protocolVersion;
    }

    get discovery(): JsonObject | undefined {
        return (this.#negotiated as Negotiated).discovery;
    }

    get capabilities(): JsonObject {
        return (this.#negotiated as Negotiated).capabilities;
    }

    get instructions(): string | undefined {
        return (this.#negotiated as Negotiated).instructions;
    }

    async open(): Promise<void> {
        const {signal} = this.#settings;
        const requests = this.#requests;
        await this.#transport.start({
            message: (value) => requests.receive(value),
            stray: (problem) => this.#stray(problem.kind, asViolation(problem.error), () => problem.text),
            malformed: (problem) => requests.fail(asViolation(problem)),
            closed: (error) => {
                if (error !== undefined) requests.fail(asConnectionError(error));
            },
        });
        try {
            const settings = this.#settings;
            const established = await establish(requests, this.#transport, {
                clientInfo: settings.clientInfo,
                protocolVersion: settings.protocolVersion,
                initializeTimeoutMs: settings.initializeTimeoutMs,
                signal,
                versionNegotiation: settings.versionNegotiation ?? 'legacy',
                discoverTimeoutMs: settings.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS,
                handlers: settings.handlers ?? {},
                maxInputRounds: settings.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
            });
            this.#negotiated = established.negotiated;
            this.#envelope = established.envelope;
        } catch (error) {
            await this.close();
            throw error;
        }
    }

    listTools(options?: RequestOptions): Promise<ToolDescriptor[]> {
        const checked = checkRequestOptions('client.listTools', options, this.#settings.listTimeoutMs, false);
        const listing = listAll(this.#requests, 'tools/list', 'tools', checked) as Promise<ToolDescriptor[]>;
        const envelope = this.#envelope;
        return envelope === undefined ? listing : listing.then((tools) => envelope.admitTools(tools));
    }

    listResources(options?: RequestOptions): Promise<ResourceDescriptor[]> {
        const checked = checkRequestOptions(
            'client.listResources',
            options,
            this.#settings.listTimeoutMs,
            false,
        );
        return listAll(this.#requests, 'resources/list', 'resources', checked) as Promise<
            ResourceDescriptor[]
        >;
    }

    callTool(name: string, args?: JsonObject, options?: CallToolOptions): Promise<CallToolResult> {
        checkString('client.callTool', 'the tool name', name);
        if (args !== undefined && !isObject(args)) {
            throw new TypeError(
                `client.callTool: args must be an object of arguments, got ${describe(args)}`,
            );
        }
        checkSerializable(args);
        const checked = checkRequestOptions('client.callTool', options, this.#settings.callTimeoutMs, true);
        const params = {name, arguments: args ?? {}};
        return this.#requests
            .request('tools/call', params, {...checked, cancellable: true})
            .then((result) => {
                if (!isObject(result) || !Array.isArray(result.content)) {
                    throw new McpProtocolViolationError(
                        `The MCP server's tools/call result for ${JSON.stringify(name)} is not an object with a "content" array`,
                    );
                }
                return result as CallToolResult;
            });
    }

    readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
        checkString('client.readResource', 'the uri', uri);
        const checked = checkRequestOptions(
            'client.readResource',
            options,
            this.#settings.callTimeoutMs,
            false,
        );
        return this.#requests
            .request('resources/read', {uri}, {...checked, cancellable: true})
            .then((result) => {
                if (!isObject(result) || !Array.isArray(result.contents)) {
                    throw new McpProtocolViolationError(
                        `The MCP server's resources/read result for ${JSON.stringify(uri)} is not an object with a "contents" array`,
                    );
                }
                return result as ReadResourceResult;
            });
    }

    listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplateDescriptor[]> {
        const where = 'client.listResourceTemplates';
        const checked = checkRequestOptions(where, options, this.#settings.listTimeoutMs, false);
        const listing = listAll(this.#requests, 'resources/templates/list', 'resourceTemplates', checked);
        return listing as Promise<ResourceTemplateDescriptor[]>;
    }

    listPrompts(options?: RequestOptions): Promise<PromptDescriptor[]> {
        const checked = checkRequestOptions(
            'client.listPrompts',
            options,
            this.#settings.listTimeoutMs,
            false,
        );
        return listAll(this.#requests, 'prompts/list', 'prompts', checked) as Promise<PromptDescriptor[]>;
    }

    getPrompt(
        name: string,
        args?: Record<string, string>,
        options?: RequestOptions,
    ): Promise<GetPromptResult> {
        return surface.getPrompt(this.#requests, this.#settings.callTimeoutMs, name, args, options);
    }

    complete(params: CompleteParams, options?: RequestOptions): Promise<CompleteResult> {
        return surface.complete(this.#requests, this.#settings.callTimeoutMs, params, options);
    }

    ping(options?: RequestOptions): Promise<void> {
        return surface.ping(this.#requests, this.#settings.callTimeoutMs, options);
    }

    setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
        return surface.setLoggingLevel(this.#requests, this.#settings.callTimeoutMs, level, options);
    }

    subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
        if (this.era === 'modern') return this.#resourceListens.subscribe(uri, options);
        return surface.subscription(this.#requests, this.#settings.callTimeoutMs, true, uri, options);
    }

    unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
        if (this.era === 'modern') return this.#resourceListens.unsubscribe(uri, options);
        return surface.subscription(this.#requests, this.#settings.callTimeoutMs, false, uri, options);
    }

    listen(filter: ListenFilter, options?: RequestOptions): Promise<McpSubscription> {
        return this.#listens.listen(filter, options);
    }

    close(): Promise<void> {
        this.#closing ??= this.#shutdown();
        return this.#closing;
    }

    /** A problem that belongs to no request: told, then skipped or, under `strict`, fatal. */
    #stray(kind: McpProtocolErrorKind, error: McpClientError, text: () => string): void {
        if (this.#closing !== undefined) return;
        const {onProtocolError, strict} = this.#settings;
        if (onProtocolError !== undefined) {
            tell(onProtocolError, Object.freeze({kind, message: error.message, text: excerpt(text())}));
        }
        if (strict) this.#requests.fail(error);
    }

    async #shutdown(): Promise<void> {
        this.#listens.closeAll();
        this.#requests.close();
        await this.#transport.close();
    }
}

function checkSerializable(args: JsonObject | undefined): void {
    try {
        if (args !== undefined) JSON.stringify(args);
    } catch (error) {
        throw new TypeError(
            `client.callTool: args cannot be serialized as JSON (${(error as Error).message}); pass JSON values only`,
            {cause: error},
        );
    }
}
