/**
 * JSON-RPC 2.0 records: classifying a parsed message and encoding responses. Pure functions, no I/O;
 * shared by the server and the client.
 */
import {JsonRpcErrorCode as ErrorCode} from './codes.js';

/** A request id: a string or a safe integer. `1` and `"1"` are different ids. */
export type RequestId = string | number;

/** A JSON object as it crosses the wire. */
export type JsonObject = {[key: string]: unknown};

export type Incoming =
    | {kind: 'request'; id: RequestId; method: string; params: JsonObject | undefined}
    | {kind: 'notification'; method: string; params: JsonObject | undefined}
    /** A response or error from the client: this server sends no requests, so it has nothing to match. */
    | {kind: 'response'; id: RequestId | undefined}
    | {kind: 'invalid'; id: RequestId | undefined; code: number; message: string};

export function isObject(value: unknown): value is JsonObject {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A string, or an integer that JSON.parse kept exact: a larger integer has already been rounded,
 * so answering it would name a request the client never sent.
 */
export function isRequestId(value: unknown): value is RequestId {
    return typeof value === 'string' || Number.isSafeInteger(value);
}

/**
 * A message without a `method` member is a response, well-formed or not: the one test of it that
 * `classify`, the client's correlation and its HTTP answer streams share.
 */
export function isResponse(message: JsonObject): boolean {
    return !Object.hasOwn(message, 'method');
}

/**
 * Classifies one parsed JSON value, for the server and the client alike. Never throws. A
 * well-formed request or notification, by far the most common record, passes each check once.
 */
export function classify(message: unknown): Incoming {
    if (!isObject(message)) {
        return invalid(
            undefined,
            Array.isArray(message)
                ? 'JSON-RPC batches are not supported: send each request as its own line'
                : 'A JSON-RPC message must be a JSON object',
        );
    }
    const hasId = Object.hasOwn(message, 'id');
    const rawId = message.id;
    const id = hasId && isRequestId(rawId) ? rawId : undefined;
    if (message.jsonrpc !== '2.0') {
        return invalid(id, 'The "jsonrpc" member must be exactly "2.0"');
    }
    if (isResponse(message)) {
        if (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error')) {
            return {kind: 'response', id};
        }
        return invalid(id, 'A JSON-RPC request must have a "method" string');
    }
    const method = message.method;
    if (typeof method !== 'string') {
        return invalid(id, 'The "method" member must be a string');
    }
    if (hasId && id === undefined) {
        return invalid(
            undefined,
            'A request id must be a string or an integer of at most 2^53 - 1 in magnitude',
        );
    }
    const params = message.params;
    if (params !== undefined && !isObject(params)) {
        if (id === undefined) return {kind: 'notification', method, params: undefined};
        return {
            kind: 'invalid',
            id,
            code: ErrorCode.InvalidParams,
            message: `The "params" of ${method} must be a JSON object`,
        };
    }
    if (id === undefined) return {kind: 'notification', method, params};
    return {kind: 'request', id, method, params};
}

function invalid(id: RequestId | undefined, message: string): Incoming {
    return {kind: 'invalid', id, code: ErrorCode.InvalidRequest, message};
}

function encodeId(id: RequestId): string {
    return typeof id === 'number' ? String(id) : JSON.stringify(id);
}

/** A success response; `resultJson` is the already serialized result. */
export function resultRecord(id: RequestId, resultJson: string): string {
    return `{"jsonrpc":"2.0","id":${encodeId(id)},"result":${resultJson}}\n`;
}

/**
 * An error response. The `id` member is omitted when the request's id could not be read: the
 * official SDK client rejects `"id": null`. Throws when `data` cannot be serialized.
 */
export function errorRecord(
    id: RequestId | undefined,
    code: number,
    message: string,
    data?: unknown,
): string {
    const error = data === undefined ? {code, message} : {code, message, data};
    const body = JSON.stringify(error);
    if (id === undefined) return `{"jsonrpc":"2.0","error":${body}}\n`;
    return `{"jsonrpc":"2.0","id":${encodeId(id)},"error":${body}}\n`;
}
