/**
 * Answering a request with a JSON-RPC error: a chosen code, or `-32603` with the detail in a
 * diagnostic. Shared by the session, its methods and the answers to handler outcomes.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import {errorRecord} from '../../jsonrpc/records.js';
import {formatDiagnostic} from './diagnostics.js';
import {ErrorCode} from './errors.js';
import type {SessionOutput} from './output.js';

/** What the `-32603` answer names: the request and what it was. */
export interface FailedRequest {
    readonly requestId: RequestId;
    /** "tools/call of tool "x" (request id 1)", say. */
    describe(): string;
}

/** Answers `id` with the error `code`, `message` and, when given, `data`. */
export function fail(
    output: SessionOutput,
    id: RequestId,
    code: number,
    message: string,
    data?: unknown,
): void {
    output.send(errorRecord(id, code, message, data));
}

/** Answers `-32603` and reports `problem` with its `detail` in a diagnostic. */
export function failInternal(
    output: SessionOutput,
    request: FailedRequest,
    problem: string,
    detail: unknown,
): void {
    output.diagnose(
        formatDiagnostic(`The ${request.describe()} failed: ${problem}; answered -32603`, detail),
    );
    fail(
        output,
        request.requestId,
        ErrorCode.InternalError,
        `Internal error in ${request.describe()}: ${problem}; the server's diagnostics have the details`,
    );
}
