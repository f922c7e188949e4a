/**
 * What the client session needs from a transport, and nothing more: send one JSON-RPC message, hear
 * every message the server sends, learn when the connection is gone, and close it. The stdio
 * transport (`stdio.ts`) and the Streamable HTTP transport (`http.ts`) implement it; the session
 * (`session.ts`) never knows which one it has.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';

/** What a transport found wrong in what it read, outside any request. */
export type StrayKind = 'not-utf8' | 'not-json' | 'oversized';

/** A problem found while reading that belongs to no request. */
export interface StrayProblem {
    readonly kind: StrayKind;
    /** What a strict session ends with: the message says what was wrong. */
    readonly error: Error;
    /** The offending line or event data as read (bad bytes as U+FFFD); empty when it was not kept. */
    readonly text: string;
}

export interface TransportHandlers {
    /** One parsed JSON value the server sent: a response, a notification or a request. */
    message(value: unknown): void;
    /**
     * A line or SSE event that is not UTF-8, not JSON, or over the size limit. It was skipped and
     * the transport goes on reading; the session decides whether that ends it (`strict`).
     */
    stray(problem: StrayProblem): void;
    /**
     * The server broke the transport beyond repair while the connection stays up (a `GET` stream
     * given up after its reconnections). The session ends with it: every pending request rejects
     * with it and the session closes the transport. The transport itself only reports.
     */
    malformed(problem: Error): void;
    /**
     * The connection is gone and no message will follow: the child exited or its pipes broke, or
     * the HTTP endpoint became unusable. `error` says why; it is `undefined` only after `close()`.
     * Called at most once.
     */
    closed(error: Error | undefined): void;
}

export interface SendOptions {
    /**
     * The id of the request this message is, when it is a request. HTTP uses it to know which
     * answer ends the exchange.
     */
    requestId?: RequestId;
    /** Aborts the HTTP exchange that carries this message. stdio ignores it. */
    signal?: AbortSignal;
    /** Headers of the HTTP exchange that carries this message (the modern era's). stdio ignores them. */
    headers?: Record<string, string>;
}

export interface ClientTransport {
    /** Connects (stdio: spawns the child). Rejects, with nothing left running, when it cannot. */
    start(handlers: TransportHandlers): Promise<void>;
    /**
     * Sends one whole message. stdio resolves once the line is queued, in order, for the child's
     * stdin (a write that fails later ends the connection through `closed`). HTTP resolves once the
     * exchange is over: for a request, after its answer was passed to `handlers.message`; it
     * rejects when the POST fails, is refused, or its body ends without that answer.
     */
    send(message: JsonObject, options?: SendOptions): Promise<void>;
    /** False when `send` never reads `SendOptions.signal`: requests then need no abort controller. */
    readonly exchanges?: boolean;
    /** Told once, after a successful `initialize`: the negotiated revision. */
    negotiated(protocolVersion: string): void;
    /**
     * Told when the session probes or speaks the modern era (`true`), and when a probe fell back
     * to the legacy one (`false`). Only HTTP has something to change (no session, no `GET` stream,
     * JSON-RPC errors read from refused exchanges); stdio has no such method.
     */
    modern?(on: boolean): void;
    /**
     * Ends the connection and everything it started (stdio: the child, by the documented
     * escalation; HTTP: open streams, and the session by DELETE when one was issued). Idempotent:
     * every call returns the same promise, which never rejects.
     */
    close(): Promise<void>;
}
