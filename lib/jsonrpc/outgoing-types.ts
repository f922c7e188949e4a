/**
 * The shapes `outgoing.ts` works with: a request's terms, the entry it waits in, and what a side
 * supplies to write its records and name its errors. Types only.
 */
import type {JsonObject, RequestId} from './records.js';

/** The error object of a JSON-RPC error response, as the peer sent it. */
export interface RemoteErrorObject {
    readonly code: number;
    readonly message: string;
    readonly data?: unknown;
}

export interface OutgoingTerms {
    /** Milliseconds to wait for the answer before giving up (and telling the peer so); `Infinity`: no bound. */
    readonly timeoutMs: number;
    /** Aborting it gives up the request, tells the peer, and rejects with its reason. */
    readonly signal?: AbortSignal | undefined;
    /** The peer's request this one is made for, handed to the writer with its records. */
    readonly related?: RequestId | undefined;
    /** Of `timeoutMs`, the part an earlier request of the same operation already used. Default 0. */
    readonly elapsedMs?: number | undefined;
    /** The whole request's bound, which `restartTimer` does not extend. Default: none. */
    readonly maxTotalMs?: number | undefined;
    /** `false`: a request given up is not cancelled on the wire (it is simply abandoned). Default true. */
    readonly cancellable?: boolean | undefined;
    /** A request that is not cancelled but may be given up still has its late answer dropped. */
    readonly dropLateAnswer?: boolean | undefined;
}

/** A request waiting for its answer, as its writer sees it. */
export interface WaitingRequest<T extends OutgoingTerms = OutgoingTerms> {
    readonly id: RequestId;
    readonly method: string;
    readonly terms: T;
    /** Aborted with the request's error when it is given up (see `OutgoingOptions.exchanges`). */
    readonly exchange: AbortController | undefined;
}

/** The `reason` the peer is told in `notifications/cancelled` when a request is given up. */
export interface CancelReasons {
    timeout(timeoutMs: number): string;
    maxTotal(maxTotalMs: number): string;
    abort(reason: unknown): string;
}

/** The errors a request rejects with, in the owner's own classes. */
export interface OutgoingErrors {
    /** The peer did not answer within the request's `timeoutMs`, or its `maxTotalMs` (`bound`). */
    timedOut(method: string, timeoutMs: number, bound: 'timeoutMs' | 'maxTotalTimeoutMs'): Error;
    /** The peer answered with a JSON-RPC error. */
    remoteError(method: string, error: RemoteErrorObject): Error;
    /** The peer's answer is not a valid response. */
    invalidResponse(method: string, problem: string): Error;
}

/** A side that writes whole lines: requests and cancellations are serialized here. */
export interface OutgoingEvents extends OutgoingErrors {
    /** Writes one whole record, line feed included; `related` is the request's `related` term. */
    send(record: string, related: RequestId | undefined): void;
    /** Default: "No answer within … ms", "No answer within its maximum of … ms", the abort reason. */
    readonly reasons?: CancelReasons | undefined;
}

/** A side whose transport takes message objects writes its own records. */
export interface OutgoingWriter<T extends OutgoingTerms = OutgoingTerms> extends OutgoingErrors {
    /**
     * Writes the request. A synchronous throw rejects it with what was thrown; a later failure is
     * reported with `OutgoingRequests#fail`.
     */
    writeRequest(request: WaitingRequest<T>, params: JsonObject): void;
    /** Tells the peer the request was given up. */
    writeCancel(request: WaitingRequest<T>, reason: string): void;
    readonly reasons: CancelReasons;
}
