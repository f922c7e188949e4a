/** The public types of `arcane-os/mcp/http`: the handler's options and the handler itself. */
import type {McpStdioServerOptions} from '../server/options.js';
import type {CloseOptions} from '../server/types.js';

/** Why a legacy session ended, as `onSessionEnd` reports it. */
export type SessionEndReason = 'deleted' | 'expired' | 'closed';

export interface SessionEndInfo {
    readonly sessionId: string;
    readonly reason: SessionEndReason;
}

/**
 * The catalog options of `createMcpStdioServer` (tools, resources, `protocolVersions`, caching
 * hints, `maxMessageBytes` as the largest request body accepted) plus the HTTP ones.
 */
export interface McpHttpHandlerOptions extends Omit<McpStdioServerOptions, 'outputHighWaterMark'> {
    /**
     * The `Origin` values a request may carry (`https://app.example.com`, scheme and host and port
     * as the browser sends them), or `'any'`. A request without `Origin` (not from a browser) is
     * not checked. Default: loopback origins only (`http(s)://localhost`, `127.0.0.1`, `[::1]`, any
     * port), which blocks DNS rebinding against a server on this machine.
     */
    allowedOrigins?: readonly string[] | 'any';
    /**
     * The host names (without port) the request URL may name, or `'any'`. Default: `localhost`,
     * `127.0.0.1` and `::1` only; set the names clients use when serving beyond this machine.
     */
    allowedHosts?: readonly string[] | 'any';
    /** A legacy session with no request in flight ends after this long. Default 30 minutes. */
    sessionIdleTimeoutMs?: number;
    /**
     * At most this many legacy sessions at once. Beyond it `initialize` is refused `503` with
     * `Retry-After` (the seconds until the first idle session expires); no session is ended to make
     * room, so other clients cannot take a session away. Default 1000.
     */
    maxSessions?: number;
    /** Told when a legacy session ends, with why. */
    onSessionEnd?: (info: SessionEndInfo) => void;
    /**
     * Receives each diagnostic record (a handler that threw, a malformed result), one JSON line.
     * Default: written to `process.stderr`.
     */
    onDiagnostic?: (text: string) => void;
}

export type HttpCloseOptions = CloseOptions;

/** A Web-standard fetch handler serving one catalog to any number of clients in both eras. */
export interface McpHttpHandler {
    /** Answers one HTTP request. Never rejects: every failure is an HTTP answer. */
    fetch(request: Request): Promise<Response>;
    /**
     * Sends `notifications/resources/updated` for `uri` to every subscriber: each legacy session
     * subscribed to it (on its GET stream; one without an open GET stream is not told) and each open
     * 2026-07-28 `subscriptions/listen` stream granted it (tagged with its subscription id). Returns
     * how many were told; 0 once `close()` was called. Throws a `TypeError` when `uri` is not a
     * string or the handler was created without `subscriptions: true`.
     */
    notifyResourceUpdated(uri: string): number;
    /**
     * Resolves once no handler is running and every answer has been written. Open listen streams
     * are not waited for: they last until their client closes them or `close()` answers them.
     */
    drain(): Promise<void>;
    /**
     * Refuses new requests (`503`) and answers every open `subscriptions/listen` stream (a graceful
     * end), cancels running handlers when `cancelPending` is true, waits for the rest to be
     * answered, then ends every session and stream; resolves when `closed` does.
     */
    close(options?: HttpCloseOptions): Promise<void>;
    /** Resolves once the handler is closed. */
    readonly closed: Promise<void>;
    /** Legacy sessions currently open. */
    readonly sessionCount: number;
}
