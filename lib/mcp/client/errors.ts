/**
 * The errors a client call rejects with. Every class extends `McpClientError`, so one `instanceof`
 * check tells a client failure from anything else; an aborted call is the exception, since it
 * rejects with its signal's own reason.
 *
 * None of these errors says the server stopped working on a request. A timeout, an abort or a
 * closed session ends the wait on this side only: the client sends `notifications/cancelled`, which
 * the server may act on, ignore, or never receive.
 */

/** The base class of the client's own errors. */
export class McpClientError extends Error {
    override name = 'McpClientError';
}

/**
 * The server answered a request with a JSON-RPC error. `code`, `message` and `data` are the
 * server's, verbatim (untrusted text: show it, never run it); `method` is the request it answered.
 */
export class McpRemoteError extends McpClientError {
    override name = 'McpRemoteError';
    readonly code: number;
    readonly method: string;
    // `declare`: an error the server sent without data has no `data` member at all.
    declare readonly data?: unknown;

    /** `error` is the response's `error` member; `data` is kept only when the server sent one. */
    constructor(method: string, error: {code: number; message: string; data?: unknown}) {
        super(error.message);
        this.method = method;
        this.code = error.code;
        if (Object.hasOwn(error, 'data')) this.data = error.data;
    }
}

/**
 * No answer came within the request's timeout. The client stopped waiting and sent
 * `notifications/cancelled`; the server may still be running the request.
 */
export class McpTimeoutError extends McpClientError {
    override name = 'McpTimeoutError';
    readonly method: string;
    readonly timeoutMs: number;

    constructor(method: string, timeoutMs: number) {
        super(
            `The MCP server did not answer ${method} within ${timeoutMs} ms; the client stopped waiting ` +
                'and sent notifications/cancelled, but the server may still be working on it. ' +
                'Raise timeoutMs if the operation needs longer.',
        );
        this.method = method;
        this.timeoutMs = timeoutMs;
    }
}

/**
 * The connection is unusable or over: the server could not be started, exited, closed its output,
 * stopped reading its input, or the client was closed. `cause` carries the underlying failure when
 * there is one.
 */
export class McpConnectionError extends McpClientError {
    override name = 'McpConnectionError';
}

/**
 * The server broke the protocol: a response without `result` or `error`, a result of the wrong
 * shape, a repeated list cursor or a duplicate tool name fail their request. A violation that
 * cannot be tied to one request (a line that is not JSON or is over the size limit, an answer to a
 * request the client never sent) ends the whole session with it only under `strict`.
 */
export class McpProtocolViolationError extends McpClientError {
    override name = 'McpProtocolViolationError';
}

/**
 * A tool reported a failure (`isError: true`), raised by `readToolResult`. `result` is the
 * `CallToolResult` exactly as the server sent it.
 */
export class McpToolError extends McpClientError {
    override name = 'McpToolError';
    readonly result: unknown;

    constructor(message: string, result: unknown) {
        super(message);
        this.result = result;
    }
}
