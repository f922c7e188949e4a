/**
 * The Streamable HTTP transport: each message the client sends is its own POST to the endpoint,
 * made with Node's built-in `fetch`; the answer comes back as a JSON body or an SSE stream.
 *
 * - The `Mcp-Session-Id` the server returns with `initialize` is sent with every later request, and
 *   `MCP-Protocol-Version` with every request once the revision is negotiated.
 * - Each exchange has its own abort controller, tied to the caller's `SendOptions.signal` and to
 *   the transport's lifetime: aborting one request ends its exchange and nothing else.
 * - An SSE answer stream that ends or breaks before the answer is resumed by GET with
 *   `Last-Event-ID` when the server gave event ids (`http-streams.ts`); without ids it fails.
 * - A 404 to a request carrying a session id means the server ended the session: the transport
 *   reports itself closed with that error, since no later request can succeed.
 * - `close()` lets notifications in flight (the closing session's cancellations) finish within
 *   `closeTimeoutMs`, aborts every exchange, stream and wait, then ends the session by DELETE when
 *   one was issued (405 means the server keeps sessions until they expire, which is fine).
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {messageOf} from '../../util/message.js';
import {MODERN_PROTOCOL_VERSION} from '../protocol/versions.js';
import {McpHttpError} from './errors.js';
import {readAnswer} from './http-answer.js';
import {modernRefusal, refusal} from './http-body.js';
import {abortableWait, linkExchange} from './http-exchange.js';
import type {HttpSettings, HttpTransportOptions} from './http-options.js';
import {httpSettings} from './http-options.js';
import {deleteSession, issuedSessionId} from './http-session.js';
import {type Endpoint, listen} from './http-streams.js';
import type {ClientTransport, SendOptions, TransportHandlers} from './transport.js';

const POST_ACCEPT = 'application/json, text/event-stream';

export class HttpTransport implements ClientTransport, Endpoint {
    readonly settings: HttpSettings;
    #handlers: TransportHandlers | undefined;
    #sessionId: string | undefined;
    #protocolVersion: string | undefined;
    /** The modern era: no session, per-request headers, JSON-RPC errors in refused exchanges. */
    #modern = false;
    /** Aborted when the transport closes or fails: every exchange, stream and wait listens to it. */
    readonly #lifetime = new AbortController();
    #failure: Error | undefined;
    #closing: Promise<void> | undefined;
    #reportedClosed = false;
    #listening = false;
    /** Settles when the POST of `notifications/initialized` is over: later messages wait for it. */
    #initialized: Promise<void> | undefined;
    /** Notifications being POSTed (a closing session's cancellations): `close()` lets them finish. */
    readonly #notifying = new Set<Promise<unknown>>();

    /** Checks the options; throws `TypeError`/`RangeError` naming what to fix. */
    constructor(options: HttpTransportOptions, caller = 'connectMcpClient') {
        this.settings = httpSettings(options, caller);
    }

    /** The session id the server issued, if any. */
    get sessionId(): string | undefined {
        return this.#sessionId;
    }

    get handlers(): TransportHandlers {
        if (this.#handlers === undefined) throw new Error('HttpTransport: start() was not called');
        return this.#handlers;
    }

    /** HTTP opens nothing before the first POST. */
    async start(handlers: TransportHandlers): Promise<void> {
        if (this.#handlers !== undefined) throw new Error('HttpTransport: start() was already called');
        this.#handlers = handlers;
    }

    negotiated(protocolVersion: string): void {
        this.#protocolVersion = protocolVersion;
    }

    modern(on: boolean): void {
        this.#modern = on;
        this.#protocolVersion = on ? MODERN_PROTOCOL_VERSION : undefined;
    }

    send(message: JsonObject, options: SendOptions = {}): Promise<void> {
        const sending = this.#send(message, options);
        if (options.requestId === undefined) {
            const done = sending.catch(() => undefined);
            this.#notifying.add(done);
            void done.then(() => this.#notifying.delete(done));
        }
        return sending;
    }

    async #send(message: JsonObject, options: SendOptions): Promise<void> {
        const handlers = this.handlers;
        const {requestId, signal, headers} = options;
        if (this.#lifetime.signal.aborted) throw this.#stoppedError();
        signal?.throwIfAborted();
        if (message.method === 'notifications/initialized') {
            const posted = this.#post(message, requestId, signal, handlers);
            this.#initialized = posted.catch(() => undefined);
            return posted;
        }
        if (this.#initialized !== undefined) await this.#initialized;
        return this.#post(message, requestId, signal, handlers, headers);
    }

    close(): Promise<void> {
        this.#closing ??= this.#shutdown();
        return this.#closing;
    }

    async #post(
        message: JsonObject,
        requestId: RequestId | undefined,
        signal: AbortSignal | undefined,
        handlers: TransportHandlers,
        headers?: Record<string, string>,
    ): Promise<void> {
        const exchange = linkExchange(signal, this.#lifetime.signal);
        try {
            const body = JSON.stringify(message);
            const response = await this.fetch('POST', exchange.signal, body, undefined, headers);
            if (message.method === 'initialize') {
                const issued = await issuedSessionId(response, this.settings.url.href);
                if (issued !== undefined) this.#sessionId = issued;
            }
            if (this.#modern && requestId !== undefined && !response.ok) {
                const error = await modernRefusal(response, this.settings.maxMessageBytes);
                if (error !== undefined) {
                    handlers.message({...error, id: requestId});
                    return;
                }
            }
            await this.check(response, 'POST');
            if (requestId === undefined) {
                await response.body?.cancel();
                if (message.method === 'notifications/initialized') this.#startListening();
                return;
            }
            await readAnswer(this, response, requestId, exchange.signal);
        } catch (error) {
            throw this.#explain(error, signal);
        } finally {
            exchange.unlink();
        }
    }

    /** A request to the endpoint with the transport's headers; a network failure becomes `McpHttpError`. */
    async fetch(
        method: string,
        signal: AbortSignal,
        body?: string,
        lastEventId?: string,
        extra?: Record<string, string>,
    ): Promise<Response> {
        const headers = new Headers(this.settings.headers as [string, string][]);
        for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
        if (method === 'POST') {
            headers.set('accept', POST_ACCEPT);
            headers.set('content-type', 'application/json');
        } else if (method === 'GET') {
            headers.set('accept', 'text/event-stream');
        }
        if (this.#sessionId !== undefined) headers.set('mcp-session-id', this.#sessionId);
        if (this.#protocolVersion !== undefined) headers.set('mcp-protocol-version', this.#protocolVersion);
        if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
        try {
            return await fetch(this.settings.url, {method, headers, body, signal, redirect: 'manual'});
        } catch (error) {
            if (signal.aborted) throw signal.reason;
            throw new McpHttpError(`${method} ${this.settings.url.href} failed: ${reason(error)}`, {
                method,
                cause: error,
            });
        }
    }

    /**
     * Throws `McpHttpError` for a response that is not a 2xx; a 404 to a request that carried the
     * session id also ends the transport, as the session is gone.
     */
    async check(response: Response, method: string): Promise<void> {
        if (response.ok) return;
        const error = await refusal(response, method, this.settings.url.href, this.#sessionId);
        if (error.sessionExpired) this.#fail(error);
        throw error;
    }

    /** The error a failed exchange rejects with: the abort's own reason, or why the transport ended. */
    #explain(error: unknown, signal: AbortSignal | undefined): unknown {
        if (signal?.aborted) return signal.reason;
        if (this.#lifetime.signal.aborted) return this.#stoppedError();
        return error;
    }

    /** The endpoint is unusable: end everything and report it. */
    #fail(error: Error): void {
        if (this.#lifetime.signal.aborted) return;
        this.#failure = error;
        this.#sessionId = undefined;
        this.#lifetime.abort(error);
        this.#reportClosed(error);
    }

    /** Waits `ms`, or rejects with the abort's reason. The timer is cleared on abort. */
    wait(ms: number, signal: AbortSignal): Promise<void> {
        return abortableWait(ms, signal);
    }

    #startListening(): void {
        if (!this.settings.listen || this.#listening) return;
        this.#listening = true;
        void listen(this, this.#lifetime.signal);
    }

    async #shutdown(): Promise<void> {
        // Cancellations sent as the session closes reach the server before everything is aborted.
        if (this.#notifying.size > 0 && !this.#lifetime.signal.aborted) {
            const sent = new AbortController();
            void Promise.all(this.#notifying).then(() => sent.abort());
            await this.wait(this.settings.closeTimeoutMs, sent.signal).catch(() => undefined);
        }
        if (!this.#lifetime.signal.aborted) this.#lifetime.abort(this.#stoppedError());
        const sessionId = this.#sessionId;
        if (sessionId !== undefined && this.#handlers !== undefined) {
            await deleteSession(this, sessionId);
        }
        this.#sessionId = undefined;
        this.#reportClosed(undefined);
    }

    #reportClosed(error: Error | undefined): void {
        if (this.#reportedClosed || this.#handlers === undefined) return;
        this.#reportedClosed = true;
        this.#handlers.closed(error);
    }

    #stoppedError(): Error {
        return this.#failure ?? new Error('The MCP client transport is closed');
    }
}

function reason(error: unknown): string {
    const cause = error instanceof Error ? error.cause : undefined;
    return messageOf(cause instanceof Error ? cause : error);
}
