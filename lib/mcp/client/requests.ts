/**
 * Correlation: the client's requests and the server's answers to them, over any transport.
 *
 * The pending requests themselves (ids counting up from 1, timeouts, aborts, cancellation, the
 * answers routed back) are `OutgoingRequests`, the same registry the server asks its client with;
 * this file is the client's side of it: how a request is written to the transport, the client's
 * error classes, and what else the server sends (its requests, notifications, progress). A request
 * given up by timeout or abort is told to the server with `notifications/cancelled` and its id is
 * remembered, so that a late answer is dropped rather than taken for a stray one.
 *
 * What the server sends is checked as it arrives. A problem that belongs to one request (an error
 * shape, a malformed answer with a known id, a bad progress notification) fails that request only.
 * A problem that cannot be tied to one (an answer to an id never sent, an invalid message) goes to
 * `onStray`, which decides whether it ends the session.
 */

import {OutgoingRequests} from '../../jsonrpc/outgoing.js';
import type {CancelReasons, OutgoingWriter, WaitingRequest} from '../../jsonrpc/outgoing-types.js';
import type {JsonObject} from '../../jsonrpc/records.js';
import {classify, isObject, isResponse} from '../../jsonrpc/records.js';
import {readResponse} from '../../jsonrpc/response.js';
import type {McpClientError} from './errors.js';
import {McpConnectionError, McpProtocolViolationError, McpRemoteError, McpTimeoutError} from './errors.js';
import {
    handlerFailure,
    replyTo,
    requestFailure,
    sendFailure,
    strayAnswer,
    withProgressToken,
} from './messages.js';
import {receiveProgress} from './progress.js';
import type {AnswerServer, Decorate, OnStray, RequestTerms, Rounds} from './request-terms.js';
import type {ClientTransport, SendOptions} from './transport.js';

const REASONS: CancelReasons = {
    timeout: (timeoutMs) => `The client timed out after ${timeoutMs} ms`,
    maxTotal: (maxTotalMs) => `The client reached the call's maximum of ${maxTotalMs} ms`,
    abort: () => 'The client aborted the request',
};

export class Requests {
    readonly #transport: ClientTransport;
    readonly #onFatal: (error: McpClientError) => void;
    readonly #onStray: OnStray;
    readonly #outgoing: OutgoingRequests<RequestTerms>;
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
        this.#onFatal = onFatal;
        this.#onStray = onStray;
        const writer: OutgoingWriter<RequestTerms> = {
            writeRequest: (request, params) => this.#write(request, params),
            writeCancel: (request, reason) => {
                if (!this.cancelByClosing)
                    this.#post('notifications/cancelled', {requestId: request.id, reason});
            },
            timedOut: (method, timeoutMs, bound) => new McpTimeoutError(method, timeoutMs, bound),
            remoteError: (method, error) => new McpRemoteError(method, error),
            invalidResponse: (method, problem) =>
                new McpProtocolViolationError(
                    `The MCP server's answer to ${method} is not a valid JSON-RPC response: ${problem}`,
                ),
            reasons: REASONS,
        };
        // Only a transport whose send reads the signal (HTTP) needs a controller per request.
        const exchanges = transport.exchanges !== false;
        this.#outgoing = new OutgoingRequests({exchanges, dropLateAnswers: true}, writer);
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
        return this.#outgoing.request(method, params, terms);
    }

    /** Writes a request the registry holds: its progress token, the era's additions, its exchange. */
    #write(request: WaitingRequest<RequestTerms>, params: JsonObject): void {
        const {id, method, terms} = request;
        terms.onId?.(id as number);
        const wantsProgress = terms.onProgress !== undefined || terms.resetOnProgress === true;
        const tokened = wantsProgress ? withProgressToken(params, id) : params;
        const decorated = this.decorate?.(method, tokened);
        const message = {jsonrpc: '2.0', id, method, params: decorated?.params ?? tokened};
        const options: SendOptions = {requestId: id};
        if (request.exchange !== undefined) options.signal = request.exchange.signal;
        if (decorated?.headers !== undefined) options.headers = decorated.headers;
        this.#send(message, options).then(undefined, (error: unknown) => {
            // After the request was given up, its aborted exchange failing is expected: `fail` ignores it.
            this.#outgoing.fail(request, requestFailure(method, error));
        });
    }

    /** Sends a notification (without `params` when none are given). A failure to send it ends the session. */
    notify(method: string, params?: JsonObject): void {
        if (this.#over !== undefined) return;
        this.#post(method, params);
    }

    #post(method: string, params: JsonObject | undefined): void {
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
            if (incoming.method === 'notifications/progress')
                receiveProgress(this.#outgoing, incoming.params);
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
        this.#outgoing.rejectAll(error);
        this.#onFatal(error);
    }

    /**
     * Ends the session because the caller closed it: pending requests reject with a connection
     * error naming their method, and the cancellable ones are cancelled on the wire first.
     */
    close(): void {
        if (this.#over !== undefined) return;
        const closed = new McpConnectionError('The MCP client was closed');
        this.#over = closed;
        // An HTTP exchange of a request given up ends with its rejection; its cancellation is on its way.
        this.#outgoing.cancelAll(
            'The client is closing',
            (request) =>
                new McpConnectionError(
                    `The MCP client was closed before the server answered ${request.method}`,
                ),
            closed,
        );
    }

    #answer(message: JsonObject): void {
        const response = readResponse(message);
        if (this.#outgoing.settle(response)) return;
        const error = new McpProtocolViolationError(strayAnswer(response.id, message, response));
        const isResponse = Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error');
        this.#onStray(isResponse ? 'unmatched-response' : 'not-json-rpc', error, message);
    }

    /** The transport's send, with a synchronous throw turned into a rejection like any other. */
    #send(message: JsonObject, options?: SendOptions): Promise<void> {
        try {
            return this.#transport.send(message, options);
        } catch (error) {
            return Promise.reject(error);
        }
    }
}
