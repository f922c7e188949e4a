/**
 * The messages the client builds besides its requests, and the words for what it refuses: small
 * pure functions `requests.ts` uses, kept apart so the correlation logic reads on its own.
 */
import {JsonRpcErrorCode} from '../../jsonrpc/codes.js';
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import type {Response} from '../../jsonrpc/response.js';
import {messageOf} from '../../util/message.js';
import {McpConnectionError, McpProtocolViolationError} from './errors.js';

/** `params` with `_meta.progressToken` set to the request's id, other `_meta` entries kept. */
export function withProgressToken(params: JsonObject, id: RequestId): JsonObject {
    return {...params, _meta: {...(isObject(params._meta) ? params._meta : {}), progressToken: id}};
}

/**
 * The answer to a request from the server. A server may ping at any time; this client declares no
 * capability, so any other request is refused.
 */
export function replyTo(id: RequestId, method: string): JsonObject {
    if (method === 'ping') return {jsonrpc: '2.0', id, result: {}};
    return {
        jsonrpc: '2.0',
        id,
        error: {code: JsonRpcErrorCode.MethodNotFound, message: `This client does not serve ${method}`},
    };
}

/**
 * The error answer to a server request whose handler threw or rejected: `-32603` with what it
 * threw, so the server learns the request failed rather than waiting for an answer.
 */
export function handlerFailure(id: RequestId, method: string, error: unknown): JsonObject {
    return {
        jsonrpc: '2.0',
        id,
        error: {
            code: JsonRpcErrorCode.InternalError,
            message: `The client's handler for ${method} failed: ${messageOf(error)}`,
        },
    };
}

/**
 * Why a request failed in its transport: the server's answer broke the protocol (a malformed
 * body, the wrong content type), or else the transport could not carry it.
 */
export function requestFailure(
    method: string,
    error: unknown,
): McpConnectionError | McpProtocolViolationError {
    if (!(error instanceof McpProtocolViolationError))
        return sendFailure(`send ${method} to the MCP server`, error);
    return new McpProtocolViolationError(
        `The MCP server's answer to ${method} broke the protocol: ${error.message}`,
        {
            cause: error,
        },
    );
}

/** A transport refused to carry a message. `what` completes "Could not …". */
export function sendFailure(what: string, error: unknown): McpConnectionError {
    return new McpConnectionError(`Could not ${what}: ${messageOf(error)}`, {cause: error});
}

/** Why a response that matches no pending request is refused. */
export function strayAnswer(id: RequestId | undefined, message: JsonObject, response: Response): string {
    if (response.kind === 'error' && id === undefined) {
        return (
            `The MCP server sent an error without a request id (code ${response.error.code}: ` +
            `${JSON.stringify(response.error.message.slice(0, 200))}); it could not read a message this client sent`
        );
    }
    if (id === undefined) {
        const problem = response.kind === 'malformed' ? response.problem : 'it has no id';
        return `The MCP server sent a response that cannot be matched to a request: ${problem}`;
    }
    const kind = Object.hasOwn(message, 'error') ? 'an error' : 'an answer';
    return `The MCP server sent ${kind} for request id ${JSON.stringify(id)}, which this client never sent or already settled`;
}
