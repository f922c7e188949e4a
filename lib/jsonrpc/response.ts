/**
 * Reading a JSON-RPC response: the client's side of `classify`. `classify` tells a response from a
 * request and stops there, because the server has nothing to match a response against; a client
 * needs the response's outcome, checked exactly. Pure functions, no I/O.
 */

import {describe} from '../util/describe.js';
import type {JsonObject, RequestId} from './records.js';
import {isObject, isRequestId} from './records.js';

/** The `error` member of an error response, checked. `data` is present only when it was sent. */
export interface ResponseError {
    code: number;
    message: string;
    data?: unknown;
}

export type Response =
    | {kind: 'result'; id: RequestId; result: unknown}
    /** `id` is undefined when the peer could not read the request's id (`"id": null` or no id). */
    | {kind: 'error'; id: RequestId | undefined; error: ResponseError}
    /** Not a valid response; `id` is kept when it is a valid one, so the request can be failed. */
    | {kind: 'malformed'; id: RequestId | undefined; problem: string};

/**
 * Reads a message that has no `method` member as a response. Never throws. The checks follow
 * JSON-RPC 2.0: `jsonrpc` is `"2.0"`; exactly one of `result` and `error`; a result has a valid
 * id; an error's `code` is an integer and its `message` a string.
 */
export function readResponse(message: JsonObject): Response {
    const rawId = message.id;
    const id = isRequestId(rawId) ? rawId : undefined;
    if (message.jsonrpc !== '2.0') {
        return malformed(id, 'its "jsonrpc" member is not exactly "2.0"');
    }
    const hasResult = Object.hasOwn(message, 'result');
    const hasError = Object.hasOwn(message, 'error');
    if (hasResult && hasError) {
        return malformed(id, 'it has both "result" and "error"');
    }
    if (!hasResult && !hasError) {
        return malformed(id, 'it has neither "result" nor "error"');
    }
    if (rawId !== undefined && rawId !== null && id === undefined) {
        return malformed(
            undefined,
            `its id is ${describe(rawId)}, which is neither a string nor a safe integer`,
        );
    }
    if (hasResult) {
        if (id === undefined) return malformed(undefined, 'it is a result without an id');
        return {kind: 'result', id, result: message.result};
    }
    const error = message.error;
    if (!isObject(error) || !Number.isSafeInteger(error.code) || typeof error.message !== 'string') {
        return malformed(id, 'its "error" is not an object with an integer "code" and a string "message"');
    }
    const checked: ResponseError = {code: error.code as number, message: error.message};
    if (Object.hasOwn(error, 'data')) checked.data = error.data;
    return {kind: 'error', id, error: checked};
}

function malformed(id: RequestId | undefined, problem: string): Response {
    return {kind: 'malformed', id, problem};
}
