/**
 * Errors the adapter puts on the wire, and the one error class an application throws to choose a
 * JSON-RPC failure itself.
 */

/** The JSON-RPC error codes this adapter answers with. */
export const ErrorCode = Object.freeze({
    /** The line was not valid JSON. */
    ParseError: -32700,
    /** The JSON was not a valid request: a batch, a bad `jsonrpc`, `id` or `method`, a reused id. */
    InvalidRequest: -32600,
    /** The method is not part of this profile. */
    MethodNotFound: -32601,
    /** The params are malformed, a list request carried a cursor, or the tool is unknown. */
    InvalidParams: -32602,
    /** A handler or the adapter failed, or a result was malformed or not serializable. */
    InternalError: -32603,
    /** An ordinary request arrived before a successful `initialize`. */
    NotInitialized: -32000,
    /** `resources/read` named a URI that is not in the catalog. */
    ResourceNotFound: -32002,
} as const);

/**
 * An explicit JSON-RPC failure. Thrown from a handler, it is answered as exactly this error:
 * `{code, message}` plus `data` when it was given.
 */
export class McpProtocolError extends Error {
    override name = 'McpProtocolError';
    readonly code: number;
    // `declare`: no class field is emitted, so an error without data has no `data` member at all.
    declare readonly data?: unknown;

    constructor(code: number, message: string, data?: unknown) {
        if (!Number.isSafeInteger(code)) {
            throw new TypeError(`McpProtocolError code must be a JSON-RPC integer, got ${describe(code)}`);
        }
        if (typeof message !== 'string') {
            throw new TypeError(`McpProtocolError message must be a string, got ${describe(message)}`);
        }
        super(message);
        this.code = code;
        if (data !== undefined) {
            this.data = data;
        }
    }
}

/** A short, human description of a value, for error messages. */
export function describe(value: unknown): string {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'an array';
    switch (typeof value) {
        case 'string':
            return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
        case 'number':
        case 'bigint':
        case 'boolean':
            return `${typeof value} ${String(value)}`;
        case 'undefined':
            return 'undefined';
        case 'function':
            return 'a function';
        case 'symbol':
            return 'a symbol';
        default:
            return 'an object';
    }
}
