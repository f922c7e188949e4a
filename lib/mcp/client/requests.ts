/**
 * Correlation: the client's requests and the server's answers to them, over any transport.
 *
 * Ids are integers counting up from 1, unique for the session. Each request is settled exactly
 * once: by its answer, its timeout, its signal, a failed send, or the end of the session; whatever
 * settles it clears its timer and removes its abort listener, so nothing outlives it. A request
 * given up by timeout or abort is told to the server with `notifications/cancelled` and its id is
 * remembered, so that a late answer is dropped rather than taken for a stray one.
 *
 * What the server sends is checked as it arrives. A problem that belongs to one request (an error
 * shape, a malformed answer with a known id, a bad progress notification) fails that request only.
 * A problem that cannot be tied to one (an answer to an id never sent, an invalid message) goes to
 * `onStray`, which decides whether it ends the session.
 */

import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {classify, isObject, isResponse} from '../../jsonrpc/records.js';
import {readResponse} from '../../jsonrpc/response.js';
import type {McpClientError} from './errors.js';
import {McpConnectionError, McpProtocolViolationError, McpRemoteError, McpTimeoutError} from './errors.js';
import {handlerFailure, replyTo, sendFailure, strayAnswer, withProgressToken} from './messages.js';
import type {ClientTransport, SendOptions} from './transport.js';

/** One `notifications/progress` for a call, as the server sent it. */
export interface Progress {
    /** The amount done so far; the server should make it grow with each notification. */
    progress: number;
    /** The amount in all, when the server knows it. */
    total?: number;
    /** A human-readable status line (untrusted text). */
    message?: string;
}

/** How `Requests#request` sends one request: the caller's options, checked, and what the operation adds. */
export interface RequestTerms {
    signal?: AbortSignal | undefined;
    /**
     * Milliseconds to wait, as the caller set it; `Infinity` waits as long as the session lives.
     * The timeout error names this figure.
     */
    timeoutMs: number;
    /** Of `timeoutMs`, the part an earlier request of the same operation already used. Default 0. */
    elapsedMs?: number;
    /** Asks the server for progress (a `_meta.progressToken`) and receives it. */
    onProgress?: ((progress: Progress) => void) | undefined;
    /**
     * Each progress notification starts `timeoutMs` over (and a progress token is sent even
     * without `onProgress`), up to `maxTotalMs` from the start of the request.
     */
    resetOnProgress?: boolean;
    /** The whole request's bound, whatever progress arrives. Default: none. */
    maxTotalMs?: number;
    /** `initialize` must not be cancelled: it is simply abandoned with the session. */
    cancellable: boolean;
    /** A request that is not cancelled but may be given up: its late answer is dropped. */
    dropLateAnswer?: boolean;
}

/** A request as the era sends it: its params with the era's additions, and its HTTP headers. */
export type Decorate = (
    method: string,
    params: JsonObject,
) => {params: JsonObject; headers: Record<string, string> | undefined};

/** Answers a request from the server; `undefined` when the client has no handler for its method. */
export type AnswerServer = (
    method: string,
    params: JsonObject | undefined,
) => Promise<JsonObject> | undefined;

/** Runs one operation's request, once or in rounds; `once` sends a single request with `params`. */
export type Rounds = (
    method: string,
    params: JsonObject,
    once: (params: JsonObject) => Promise<unknown>,
) => Promise<unknown>;

interface Pending {
    readonly id: number;
    readonly method: string;
    readonly resolve: (result: unknown) => void;
    readonly reject: (error: unknown) => void;
    /** Aborted when the request is given up, so an HTTP exchange carrying it is dropped too. */
    readonly exchange: AbortController | undefined;
    readonly terms: RequestTerms;
    timer: ReturnType<typeof setTimeout> | undefined;
    /** The hard bound of a request whose timeout progress extends. */
    maxTimer: ReturnType<typeof setTimeout> | undefined;
    onAbort: (() => void) | undefined;
}

/** Told of a message that belongs to no request; `value` is the message as parsed. */
export type OnStray = (
    kind: 'not-json-rpc' | 'unmatched-response',
    error: McpProtocolViolationError,
    value: unknown,
) => void;

export class Requests {
    readonly #transport: ClientTransport;
    /** Whether requests carry an abort controller for their exchange (stdio has none to abort). */
    readonly #exchanges: boolean;
    readonly #onFatal: (error: McpClientError) => void;
    readonly #onStray: OnStray;
    readonly #pending = new Map<RequestId, Pending>();
    /** Ids given up by timeout or abort whose answer may still arrive. */
    readonly #abandoned = new Set<RequestId>();
    #lastId = 0;
    /** Set once the session is over: every later request fails with it. */
    #over: McpClientError | undefined;
    /** Told of every notification besides progress, which belongs to its request. */
    onNotification: ((method: string, params: JsonObject | undefined) => void) | undefined;
    /** The era's additions to every request (the modern envelope); none in the legacy era. */
    decorate: Decorate | undefined;
    /** Answers the server's requests; without it every one but `ping` is refused. */
    answerServer: AnswerServer | undefined;
    /** Runs requests that may come back asking for input (the modern era's rounds). */
    rounds: Rounds | undefined;
    /** Cancelling by closing the request's exchange alone, with no `notifications/cancelled`. */
    cancelByClosing = false;

    constructor(transport: ClientTransport, onFatal: (error: McpClientError) => void, onStray: OnStray) {
        this.#transport = transport;
        this.#exchanges = transport.exchanges !== false;
        this.#onFatal = onFatal;
        this.#onStray = onStray;
    }

    /** Sends one request (in rounds where the era has them) and resolves with its `result`, unchecked. */
    request(method: string, params: JsonObject, terms: RequestTerms): Promise<unknown> {
        const rounds = this.rounds;
        if (rounds === undefined) return this.#once(method, params, terms);
        return rounds(method, params, (sent) => this.#once(method, sent, terms));
    }

    #once(method: string, params: JsonObject, terms: RequestTerms): Promise<unknown> {
        const over = this.#over;
        if (over !== undefined) {
            return Promise.reject(
                new McpConnectionError(`Cannot send ${method}: ${over.message}`, {cause: over}),
            );
        }
        const signal = terms.signal;
        if (signal?.aborted) return Promise.reject(signal.reason);
        const id = ++this.#lastId;
        return new Promise((resolve, reject) => {
            const pending: Pending = {
                id,
                method,
                resolve,
                reject,
                exchange: this.#exchanges ? new AbortController() : undefined,
                terms,
                timer: undefined,
                maxTimer: undefined,
                onAbort: undefined,
            };
            this.#pending.set(id, pending);
            this.#arm(pending, terms.timeoutMs - (terms.elapsedMs ?? 0));
            const maxTotalMs = terms.maxTotalMs;
            if (maxTotalMs !== undefined && maxTotalMs !== Number.POSITIVE_INFINITY) {
                pending.maxTimer = setTimeout(() => {
                    const reason = `The client reached the call's maximum of ${maxTotalMs} ms`;
                    const error = new McpTimeoutError(method, maxTotalMs, 'maxTotalTimeoutMs');
                    this.#abandon(pending, error, reason);
                }, maxTotalMs);
            }
            if (signal !== undefined) {
                pending.onAbort = () =>
                    this.#abandon(pending, signal.reason, 'The client aborted the request');
                signal.addEventListener('abort', pending.onAbort, {once: true});
            }
            const wantsProgress = terms.onProgress !== undefined || terms.resetOnProgress === true;
            const tokened = wantsProgress ? withProgressToken(params, id) : params;
            const decorated = this.decorate?.(method, tokened);
            const message = {jsonrpc: '2.0', id, method, params: decorated?.params ?? tokened};
            const options: SendOptions = {requestId: id};
            if (pending.exchange !== undefined) options.signal = pending.exchange.signal;
            if (decorated?.headers !== undefined) options.headers = decorated.headers;
            this.#send(message, options).then(undefined, (error: unknown) => {
                // After the request was given up, its aborted exchange failing is expected.
                if (this.#pending.get(id) !== pending) return;
                this.#retire(pending);
                reject(sendFailure(`send ${method} to the MCP server`, error));
            });
        });
    }

    /** Sends a notification (without `params` when none are given). A failure to send it ends the session. */
    notify(method: string, params?: JsonObject): void {
        if (this.#over !== undefined) return;
        const message = params === undefined ? {jsonrpc: '2.0', method} : {jsonrpc: '2.0', method, params};
        this.#send(message).then(undefined, (error: unknown) => {
            this.fail(sendFailure(`send ${method} to the MCP server`, error));
        });
    }

    /** One parsed message from the server. */
    receive(value: unknown): void {
        if (this.#over !== undefined) return;
        if (isObject(value) && isResponse(value)) {
            this.#answer(value);
            return;
        }
        const incoming = classify(value);
        if (incoming.kind === 'request') {
            const {id, method, params} = incoming;
            const answering = method === 'ping' ? undefined : this.answerServer?.(method, params);
            const reply =
                answering === undefined
                    ? Promise.resolve(replyTo(id, method))
                    : answering.then(
                          (result) => ({jsonrpc: '2.0', id, result}),
                          (error: unknown) => handlerFailure(id, method, error),
                      );
            reply
                .then((message) => (this.#over === undefined ? this.#send(message) : undefined))
                .then(undefined, (error: unknown) => {
                    this.fail(sendFailure(`answer the server's ${method}`, error));
                });
        } else if (incoming.kind === 'notification') {
            if (incoming.method === 'notifications/progress') this.#progress(incoming.params);
            else this.onNotification?.(incoming.method, incoming.params);
        } else if (incoming.kind === 'invalid') {
            const error = new McpProtocolViolationError(
                `The MCP server sent an invalid message: ${incoming.message}`,
            );
            this.#onStray('not-json-rpc', error, value);
        }
        // 'response' cannot occur here: every response went to `#answer` above.
    }

    /**
     * Ends the session: every pending request rejects with `error`, later ones fail, and `onFatal`
     * is told once. Does nothing once the session is over.
     */
    fail(error: McpClientError): void {
        if (this.#over !== undefined) return;
        this.#over = error;
        for (const pending of this.#drainPending()) pending.reject(error);
        this.#onFatal(error);
    }

    /**
     * Ends the session because the caller closed it: pending requests reject with a connection
     * error naming their method, and the cancellable ones are cancelled on the wire first.
     */
    close(): void {
        if (this.#over !== undefined) return;
        const pending = this.#drainPending();
        for (const request of pending) {
            if (request.terms.cancellable && !this.cancelByClosing)
                this.#cancel(request.id, 'The client is closing');
        }
        this.#over = new McpConnectionError('The MCP client was closed');
        for (const request of pending) {
            const error = new McpConnectionError(
                `The MCP client was closed before the server answered ${request.method}`,
            );
            // An HTTP exchange of a request given up ends now; its cancellation is on its way.
            request.exchange?.abort(error);
            request.reject(error);
        }
    }

    #answer(message: JsonObject): void {
        const response = readResponse(message);
        const pending = response.id === undefined ? undefined : this.#pending.get(response.id);
        if (pending === undefined) {
            if (response.id !== undefined && this.#abandoned.delete(response.id)) return;
            const error = new McpProtocolViolationError(strayAnswer(response.id, message, response));
            const isResponse = Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error');
            this.#onStray(isResponse ? 'unmatched-response' : 'not-json-rpc', error, message);
            return;
        }
        this.#retire(pending);
        if (response.kind === 'result') {
            pending.resolve(response.result);
        } else if (response.kind === 'error') {
            pending.reject(new McpRemoteError(pending.method, response.error));
        } else {
            pending.reject(
                new McpProtocolViolationError(
                    `The MCP server's answer to ${pending.method} is not a valid JSON-RPC response: ${response.problem}`,
                ),
            );
        }
    }

    #progress(params: JsonObject | undefined): void {
        const token = params?.progressToken;
        const pending = typeof token === 'number' ? this.#pending.get(token) : undefined;
        // Progress for a request that has ended, or that asked for none, is simply late or spare.
        const terms = pending?.terms;
        if (pending === undefined || terms === undefined || params === undefined) return;
        const {onProgress, resetOnProgress} = terms;
        if (onProgress === undefined && resetOnProgress !== true) return;
        const {progress, total, message} = params;
        if (
            typeof progress !== 'number' ||
            (total !== undefined && typeof total !== 'number') ||
            (message !== undefined && typeof message !== 'string')
        ) {
            const error = new McpProtocolViolationError(
                `The MCP server sent a progress notification for ${pending.method} whose "progress" is not a number, ` +
                    'or whose "total" or "message" has the wrong type',
            );
            this.#abandon(pending, error, 'The server sent a malformed progress notification');
            return;
        }
        if (resetOnProgress === true) this.#arm(pending, terms.timeoutMs);
        if (onProgress === undefined) return;
        const update: Progress = {progress};
        if (total !== undefined) update.total = total;
        if (message !== undefined) update.message = message;
        try {
            onProgress(update);
        } catch (error) {
            this.#abandon(pending, error, "The client's progress callback failed");
        }
    }

    /** (Re)starts the request's timeout: `ms` from now, or none when its timeout is `Infinity`. */
    #arm(pending: Pending, ms: number): void {
        if (pending.timer !== undefined) clearTimeout(pending.timer);
        const {timeoutMs} = pending.terms;
        if (timeoutMs === Number.POSITIVE_INFINITY) return;
        pending.timer = setTimeout(
            () => {
                const reason = `The client timed out after ${timeoutMs} ms`;
                this.#abandon(pending, new McpTimeoutError(pending.method, timeoutMs), reason);
            },
            Math.max(1, Math.ceil(ms)),
        );
    }

    /** Gives a request up: cancels it on the wire, then rejects it with `error`. */
    #abandon(pending: Pending, error: unknown, reason: string): void {
        if (this.#pending.get(pending.id) !== pending) return;
        this.#retire(pending);
        if (pending.terms.cancellable) {
            this.#abandoned.add(pending.id);
            if (!this.cancelByClosing) this.#cancel(pending.id, reason);
        } else if (pending.terms.dropLateAnswer === true) {
            this.#abandoned.add(pending.id);
        }
        pending.exchange?.abort(error);
        pending.reject(error);
    }

    #cancel(requestId: number, reason: string): void {
        this.notify('notifications/cancelled', {requestId, reason});
    }

    /** The transport's send, with a synchronous throw turned into a rejection like any other. */
    #send(message: JsonObject, options?: SendOptions): Promise<void> {
        try {
            return this.#transport.send(message, options);
        } catch (error) {
            return Promise.reject(error);
        }
    }

    #retire(pending: Pending): void {
        this.#pending.delete(pending.id);
        if (pending.timer !== undefined) clearTimeout(pending.timer);
        if (pending.maxTimer !== undefined) clearTimeout(pending.maxTimer);
        if (pending.onAbort !== undefined) {
            pending.terms.signal?.removeEventListener('abort', pending.onAbort);
        }
    }

    #drainPending(): Pending[] {
        const pending = [...this.#pending.values()];
        for (const request of pending) this.#retire(request);
        this.#abandoned.clear();
        return pending;
    }
}
