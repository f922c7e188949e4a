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
import {DEFAULT_MAX_INPUT_ROUNDS} from './answering.js';
import type {McpClient, SessionSettings} from './client-types.js';
import type {Negotiated} from './era.js';
import {DEFAULT_DISCOVER_TIMEOUT_MS} from './era.js';
import type {McpClientError} from './errors.js';
import {asConnectionError, asViolation} from './errors.js';
import {establish} from './establish.js';
import type {ModernEnvelope} from './modern-meta.js';
import {deliver} from './notifications.js';
import type {CallToolOptions, RequestOptions} from './options.js';
import {checkRequestOptions} from './options.js';
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
    #negotiated: Negotiated | undefined;
    #envelope: ModernEnvelope | undefined;
    #closing: Promise<void> | undefined;

    constructor(transport: ClientTransport, settings: SessionSettings) {
        this.#transport = transport;
        this.#settings = settings;
        this.#requests = new Requests(
            transport,
            () => {
                void this.close();
            },
            (kind, error, value) => this.#stray(kind, error, () => JSON.stringify(value)),
        );
        const callbacks = settings.notifications;
        if (callbacks !== undefined) {
            this.#requests.onNotification = (method, params) => deliver(callbacks, method, params);
        }
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
        return callTool(this.#requests, this.#settings.callTimeoutMs, name, args, options);
    }

    readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
        return readResource(this.#requests, this.#settings.callTimeoutMs, uri, options);
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
        return surface.subscription(this.#requests, this.#settings.callTimeoutMs, true, uri, options);
    }

    unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
        return surface.subscription(this.#requests, this.#settings.callTimeoutMs, false, uri, options);
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
        this.#requests.close();
        await this.#transport.close();
    }
}
