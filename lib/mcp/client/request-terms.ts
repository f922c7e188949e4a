/**
 * The shapes of the client's requests: how one is sent (its terms), what the era adds to it, and
 * the hooks the session plugs into the correlation. Types only.
 */
import type {OutgoingTerms} from '../../jsonrpc/outgoing-types.js';
import type {JsonObject} from '../../jsonrpc/records.js';
import type {McpProtocolViolationError} from './errors.js';

/** One `notifications/progress` for a call, as the server sent it. */
export interface Progress {
    /** The amount done so far; the server should make it grow with each notification. */
    progress: number;
    /** The amount in all, when the server knows it. */
    total?: number;
    /** A human-readable status line (untrusted text). */
    message?: string;
}

/** How `Requests#request` sends one request: the caller's options, checked, and what the operation adds. */
export interface RequestTerms extends OutgoingTerms {
    signal?: AbortSignal | undefined;
    /**
     * Milliseconds to wait, as the caller set it; `Infinity` waits as long as the session lives.
     * The timeout error names this figure.
     */
    timeoutMs: number;
    /** Of `timeoutMs`, the part an earlier request of the same operation already used. Default 0. */
    elapsedMs?: number;
    /** Asks the server for progress (a `_meta.progressToken`) and receives it. */
    onProgress?: ((progress: Progress) => void) | undefined;
    /**
     * Each progress notification starts `timeoutMs` over (and a progress token is sent even
     * without `onProgress`), up to `maxTotalMs` from the start of the request.
     */
    resetOnProgress?: boolean;
    /** The whole request's bound, whatever progress arrives. Default: none. */
    maxTotalMs?: number;
    /** `initialize` must not be cancelled: it is simply abandoned with the session. */
    cancellable: boolean;
    /** A request that is not cancelled but may be given up: its late answer is dropped. */
    dropLateAnswer?: boolean;
    /** Told the request's id before it is sent (a listen request's id names its subscription). */
    onId?: (id: number) => void;
}

/** A request as the era sends it: its params with the era's additions, and its HTTP headers. */
export type Decorate = (
    method: string,
    params: JsonObject,
) => {params: JsonObject; headers: Record<string, string> | undefined};

/** Answers a request from the server; `undefined` when the client has no handler for its method. */
export type AnswerServer = (
    method: string,
    params: JsonObject | undefined,
) => Promise<JsonObject> | undefined;

/** Runs one operation's request, once or in rounds; `once` sends a single request with `params`. */
export type Rounds = (
    method: string,
    params: JsonObject,
    once: (params: JsonObject) => Promise<unknown>,
) => Promise<unknown>;

/** Told of a message that belongs to no request; `value` is the message as parsed. */
export type OnStray = (
    kind: 'not-json-rpc' | 'unmatched-response',
    error: McpProtocolViolationError,
    value: unknown,
) => void;
