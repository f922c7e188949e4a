/** The error codes JSON-RPC 2.0 itself defines; protocols built on it add their own beside them. */
export const JsonRpcErrorCode = Object.freeze({
    /** The line was not valid JSON. */
    ParseError: -32700,
    /** The JSON was not a valid request: a batch, a bad `jsonrpc`, `id` or `method`, a reused id. */
    InvalidRequest: -32600,
    /** The method is not served. */
    MethodNotFound: -32601,
    /** The params are malformed. */
    InvalidParams: -32602,
    /** The receiver failed while handling the request. */
    InternalError: -32603,
} as const);
