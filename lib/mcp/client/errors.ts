/**
 * The errors a client call rejects with. Every class extends `McpClientError`, so one check tells a
 * client failure from anything else; an aborted call is the exception, since it rejects with its
 * signal's own reason.
 *
 * Telling them apart: `instanceof` fails when an application holds two copies of this package (two
 * versions in `node_modules`, or a bundle beside the installed package), since each copy has its
 * own classes. So every class has a stable `name` (`'McpRemoteError'`, …) and the static type guard
 * `is`: `McpRemoteError.is(error)` is true for an `McpRemoteError` from any copy, and
 * `McpClientError.is(error)` for any of these errors. It reads a brand each class puts on its
 * prototype under a `Symbol.for(…)` key, which every copy in the process shares.
 *
 * None of these errors says the server stopped working on a request. A timeout, an abort or a
 * closed session ends the wait on this side only: the client sends `notifications/cancelled`, which
 * the server may act on, ignore, or never receive.
 */
import {BrandedError, brand} from '../../util/branded-error.js';

/** The base class of the client's own errors; `McpClientError.is(error)` recognizes any of them. */
export class McpClientError extends BrandedError {}

/**
 * The server answered a request with a JSON-RPC error. `code`, `message` and `data` are the
 * server's, verbatim (untrusted text: show it, never run it); `method` is the request it answered.
 * `McpRemoteError.is(error)` recognizes one from any copy of this package.
 */
export class McpRemoteError extends McpClientError {
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
 * `McpTimeoutError.is(error)` recognizes one from any copy of this package.
 */
export class McpTimeoutError extends McpClientError {
    readonly method: string;
    /** The bound that ran out, in milliseconds. */
    readonly timeoutMs: number;
    /**
     * Which option set that bound: `'timeoutMs'` (the wait for an answer, which progress restarts
     * under `resetTimeoutOnProgress`) or `'maxTotalTimeoutMs'` (the whole call, progress or not).
     */
    readonly bound: 'timeoutMs' | 'maxTotalTimeoutMs';

    constructor(method: string, timeoutMs: number, bound: 'timeoutMs' | 'maxTotalTimeoutMs' = 'timeoutMs') {
        super(
            bound === 'timeoutMs'
                ? `The MCP server did not answer ${method} within ${timeoutMs} ms; the client stopped waiting ` +
                      'and sent notifications/cancelled, but the server may still be working on it. ' +
                      'Raise timeoutMs if the operation needs longer.'
                : `The MCP server did not finish ${method} within its maximum of ${timeoutMs} ms, progress ` +
                      'notwithstanding; the client stopped waiting and sent notifications/cancelled, but the ' +
                      'server may still be working on it. Raise maxTotalTimeoutMs if the operation needs longer.',
        );
        this.method = method;
        this.timeoutMs = timeoutMs;
        this.bound = bound;
    }
}

/**
 * The connection is unusable or over: the server could not be started, exited, closed its output,
 * stopped reading its input, or the client was closed. `cause` carries the underlying failure when
 * there is one.
 * `McpConnectionError.is(error)` recognizes one from any copy of this package.
 */
export class McpConnectionError extends McpClientError {}

/**
 * The server broke the protocol: a response without `result` or `error`, a result of the wrong
 * shape, a repeated list cursor or a duplicate tool name fail their request, as does an HTTP answer
 * of the wrong content type or a body that is not JSON. A violation that cannot be tied to one
 * request (a line that is not JSON or is over the size limit, an answer to a request the client
 * never sent) ends the whole session with it only under `strict`.
 * `McpProtocolViolationError.is(error)` recognizes one from any copy of this package.
 */
export class McpProtocolViolationError extends McpClientError {}

/**
 * A tool reported a failure (`isError: true`), raised by `readToolResult`. `result` is the
 * `CallToolResult` exactly as the server sent it.
 * `McpToolError.is(error)` recognizes one from any copy of this package.
 */
export class McpToolError extends McpClientError {
    readonly result: unknown;

    constructor(message: string, result: unknown) {
        super(message);
        this.result = result;
    }
}

/**
 * An HTTP exchange with the MCP endpoint failed: the server refused it (`status` is its HTTP
 * status), or no answer came at all (`status` is `undefined` and `cause` says why). A client call
 * that fails this way rejects with an `McpConnectionError` whose `cause` is this error.
 * `McpHttpError.is(error)` recognizes one from any copy of this package.
 */
export class McpHttpError extends McpClientError {
    /** The HTTP method of the failed exchange: `POST`, `GET` or `DELETE`. */
    readonly method: string;
    /** The HTTP status, or `undefined` when no response arrived. */
    readonly status: number | undefined;
    /** The start of the response body (at most 500 characters), whitespace collapsed. */
    readonly body: string;
    /** A 404 to a request that carried a session id: the server ended the session. */
    readonly sessionExpired: boolean;

    constructor(
        message: string,
        details: {method: string; status?: number; body?: string; sessionExpired?: boolean; cause?: unknown},
    ) {
        super(message, details.cause === undefined ? undefined : {cause: details.cause});
        this.method = details.method;
        this.status = details.status;
        this.body = details.body ?? '';
        this.sessionExpired = details.sessionExpired ?? false;
    }
}

/** A transport's problem as the protocol violation a session ends with. */
export function asViolation(problem: Error): McpClientError {
    if (problem instanceof McpProtocolViolationError) return problem;
    return new McpProtocolViolationError(problem.message, {cause: problem});
}

/** A transport's loss as the connection error a session ends with. */
export function asConnectionError(error: Error): McpClientError {
    if (error instanceof McpConnectionError) return error;
    return new McpConnectionError(`The connection to the MCP server was lost: ${error.message}`, {
        cause: error,
    });
}

for (const [errorClass, name] of [
    [McpClientError, 'McpClientError'],
    [McpRemoteError, 'McpRemoteError'],
    [McpTimeoutError, 'McpTimeoutError'],
    [McpConnectionError, 'McpConnectionError'],
    [McpProtocolViolationError, 'McpProtocolViolationError'],
    [McpToolError, 'McpToolError'],
    [McpHttpError, 'McpHttpError'],
] as const) {
    brand(errorClass, 'arcane-os/mcp/client', name);
}
