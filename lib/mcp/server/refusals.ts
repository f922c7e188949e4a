/**
 * The answers to input the session cannot serve as asked: a line that is not JSON, a record over
 * the size limit, a response from the client, an id still in use, a method this server does not
 * serve, a request before `initialize`.
 * Each is answered (or reported) with what was wrong and how to fix it; all are off the hot path.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import {errorRecord} from '../../jsonrpc/records.js';
import {CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY} from '../protocol/meta.js';
import {formatDiagnostic} from './diagnostics.js';
import {ErrorCode} from './errors.js';
import {fail} from './failures.js';
import type {SessionOutput} from './output.js';

/** An input line that `JSON.parse` rejected with `error`. */
export function refuseUnparsable(output: SessionOutput, text: string, error: unknown): void {
    output.send(errorRecord(undefined, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`));
    output.diagnose(
        formatDiagnostic(`Answered -32700: this input line is not valid JSON: ${JSON.stringify(text)}`),
    );
}

/** A record of `bytes` over `limit` (`maxMessageBytes`), discarded. */
export function refuseOversized(output: SessionOutput, bytes: number, limit: number): void {
    const message = `The record of ${bytes} bytes exceeds the limit of ${limit} bytes (maxMessageBytes) and was discarded`;
    output.send(errorRecord(undefined, ErrorCode.InvalidRequest, message));
    output.diagnose(formatDiagnostic(`${message}; raise maxMessageBytes to accept larger records`));
}

/** A JSON-RPC response from the client: there is nothing it could answer. */
export function ignoreResponse(output: SessionOutput, id: RequestId | undefined): void {
    output.diagnose(
        formatDiagnostic(
            `Ignored a JSON-RPC response from the client (id ${JSON.stringify(id)}): ` +
                'this server sends no requests',
        ),
    );
}

/** A request whose id a request in progress still uses. */
export function refuseIdInUse(output: SessionOutput, id: RequestId): void {
    fail(
        output,
        id,
        ErrorCode.InvalidRequest,
        `Request id ${JSON.stringify(id)} is already in use by a request in progress; use a new id for each request`,
    );
}

/** A legacy request that needs `initialize` first; `modernServed` adds the per-request alternative. */
export function refuseUninitialized(
    output: SessionOutput,
    id: RequestId,
    method: string,
    modernServed: boolean,
): void {
    const modernHint = modernServed
        ? ', or send it with the 2026-07-28 per-request "params._meta" ' +
          `(${JSON.stringify(PROTOCOL_VERSION_KEY)} and ${JSON.stringify(CLIENT_CAPABILITIES_KEY)})`
        : '';
    fail(
        output,
        id,
        ErrorCode.NotInitialized,
        `Server not initialized: send "initialize" and wait for its result before "${method}"${modernHint}`,
    );
}

/** A request for a method the era it is served in does not have. */
export function refuseUnknownMethod(output: SessionOutput, id: RequestId, method: string): void {
    fail(output, id, ErrorCode.MethodNotFound, `Method not found: ${JSON.stringify(method)}`);
}
