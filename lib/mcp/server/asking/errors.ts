/**
 * The errors a handler's question can reject with, besides its own signal's reason. Both are
 * branded: `McpAskError.is(error)` recognizes one from any copy of this package, where
 * `instanceof` sees only its own copy's class.
 */
import {BrandedError, brand} from '../../../util/branded-error.js';

/**
 * Why a question was not answered, in `code`:
 * - `'unsupported-capability'`: the client did not declare the capability (nothing was sent);
 * - `'unsupported-method'`: this request cannot ask (2026-07-28 asks only from `tools/call`,
 *   `prompts/get` and `resources/read`);
 * - `'timeout'`: the client did not answer within the timeout (it was told with
 *   `notifications/cancelled`);
 * - `'session-closed'`: the session ended while the question was open;
 * - `'input-required'`: 2026-07-28 only, the reason the handler's signal aborts with once the
 *   request was answered `input_required`: the handler runs again when the client retries;
 * - `'invalid-response'`: the client's answer is not a valid response;
 * - `'request-answered'`: the handler asked after its request was answered (ask before returning).
 */
export type AskErrorCode =
    | 'unsupported-capability'
    | 'unsupported-method'
    | 'timeout'
    | 'session-closed'
    | 'input-required'
    | 'invalid-response'
    | 'request-answered';

/** The client answered a question with a JSON-RPC error: its `code`, `message` and `data`. */
export class McpAnswerError extends BrandedError {
    readonly code: number;
    /** The question's method: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
    readonly method: string;
    declare readonly data?: unknown;

    constructor(method: string, code: number, message: string, data?: unknown) {
        super(`The client answered ${method} with error ${code}: ${message}`);
        this.code = code;
        this.method = method;
        if (data !== undefined) this.data = data;
    }
}

/** A question was not answered, for the reason `code` names. */
export class McpAskError extends BrandedError {
    readonly code: AskErrorCode;

    constructor(code: AskErrorCode, message: string) {
        super(message);
        this.code = code;
    }
}

brand(McpAskError, 'arcane-os/mcp/server', 'McpAskError');
brand(McpAnswerError, 'arcane-os/mcp/server', 'McpAnswerError');
