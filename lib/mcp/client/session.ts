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
import type * as Features from '../protocol/features.js';
import type * as Protocol from '../protocol/types.js';
import {DEFAULT_MAX_INPUT_ROUNDS} from './answering.js';
import type {McpClient, SessionSettings} from './client-types.js';
import type {Negotiated} from './era.js';
import {DEFAULT_DISCOVER_TIMEOUT_MS} from './era.js';
import type {McpClientError} from './errors.js';
import {asConnectionError, asViolation} from './errors.js';
import {establish} from './establish.js';
import {Listens} from './listen.js';
import type {ListenFilter} from './listen-filter.js';
import type {McpSubscription} from './listen-handle.js';
import {ResourceListens} from './listen-resources.js';
import type {ModernEnvelope} from './modern-meta.js';
import type {CallToolOptions, RequestOptions} from './options.js';
import {checkRequestOptions} from './options.js';
import type {ListKey} from './paging.js';
import {listAll} from './paging.js';
import {Requests} from './requests.js';
import type {McpProtocolErrorKind} from './stray.js';
import {excerpt, tell} from './stray.js';
import * as surface from './surface.js';
import {callTool, readResource} from './tool-calls.js';
import type {ClientTransport} from './transport.js';

export type {McpClient, SessionSettings} from './client-types.js';
export {MCP_CLIENT_PROTOCOL_VERSIONS} from './handshake.js';

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

    get serverInfo(): Protocol.Implementation {
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

    listTools(options?: RequestOptions): Promise<Protocol.ToolDescriptor[]> {
        const listing = this.#list('client.listTools', 'tools/list', 'tools', options);
        const envelope = this.#envelope;
        if (envelope === undefined) return listing as Promise<Protocol.ToolDescriptor[]>;
        return listing.then((tools) => envelope.admitTools(tools as Protocol.ToolDescriptor[]));
    }

    listResources(options?: RequestOptions): Promise<Protocol.ResourceDescriptor[]> {
        const listing = this.#list('client.listResources', 'resources/list', 'resources', options);
        return listing as Promise<Protocol.ResourceDescriptor[]>;
    }

    callTool(name: string, args?: JsonObject, options?: CallToolOptions): Promise<Protocol.CallToolResult> {
        return callTool(this.#requests, this.#settings.callTimeoutMs, name, args, options);
    }

    readResource(uri: string, options?: RequestOptions): Promise<Protocol.ReadResourceResult> {
        return readResource(this.#requests, this.#settings.callTimeoutMs, uri, options);
    }

    listResourceTemplates(options?: RequestOptions): Promise<Features.ResourceTemplateDescriptor[]> {
        const where = 'client.listResourceTemplates';
        const listing = this.#list(where, 'resources/templates/list', 'resourceTemplates', options);
        return listing as Promise<Features.ResourceTemplateDescriptor[]>;
    }

    listPrompts(options?: RequestOptions): Promise<Features.PromptDescriptor[]> {
        const listing = this.#list('client.listPrompts', 'prompts/list', 'prompts', options);
        return listing as Promise<Features.PromptDescriptor[]>;
    }

    getPrompt(
        name: string,
        args?: Record<string, string>,
        options?: RequestOptions,
    ): Promise<Features.GetPromptResult> {
        return surface.getPrompt(this.#requests, this.#settings.callTimeoutMs, name, args, options);
    }

    complete(params: Features.CompleteParams, options?: RequestOptions): Promise<Features.CompleteResult> {
        return surface.complete(this.#requests, this.#settings.callTimeoutMs, params, options);
    }

    ping(options?: RequestOptions): Promise<void> {
        return surface.ping(this.#requests, this.#settings.callTimeoutMs, options);
    }

    setLoggingLevel(level: Features.LoggingLevel, options?: RequestOptions): Promise<void> {
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

    /** Every page of a paginated list, with the list timeout unless the caller gives one. */
    #list(
        where: string,
        method: string,
        key: ListKey,
        options: RequestOptions | undefined,
    ): Promise<unknown[]> {
        const checked = checkRequestOptions(where, options, this.#settings.listTimeoutMs, false);
        return listAll(this.#requests, method, key, checked);
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
