/**
 * Errors the adapter puts on the wire, and the one error class an application throws to choose a
 * JSON-RPC failure itself.
 */
import {JsonRpcErrorCode} from '../../jsonrpc/codes.js';
import {describe} from '../../util/describe.js';

/** The JSON-RPC error codes this adapter answers with. */
export const ErrorCode = Object.freeze({
    /**
     * JSON-RPC's own: -32700 the line was not valid JSON; -32600 not a valid request (a batch, a bad
     * `jsonrpc`, `id` or `method`, a reused id); -32601 a method this profile does not serve; -32602
     * malformed params, a list request with a cursor, or an unknown tool; -32603 a handler or the
     * adapter failed, or a result was malformed or not serializable.
     */
    ...JsonRpcErrorCode,
    /** An ordinary request arrived before a successful `initialize`. */
    NotInitialized: -32000,
    /** `resources/read` named a URI that is not in the catalog (revisions before 2026-07-28). */
    ResourceNotFound: -32002,
    /**
     * A 2026-07-28 request named a protocol revision this server does not serve, or a modern-only
     * server received `initialize`; `data` is `{supported, requested}`.
     */
    UnsupportedProtocolVersion: -32022,
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
