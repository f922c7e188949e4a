/**
 * The line form of outgoing requests, for a side that writes whole records (the server asking its
 * client): the records themselves, the words it tells the peer, and its reading of an answer.
 */
import type {
    CancelReasons,
    OutgoingEvents,
    OutgoingTerms,
    OutgoingWriter,
    RemoteErrorObject,
    WaitingRequest,
} from './outgoing-types.js';
import type {JsonObject} from './records.js';
import {isObject} from './records.js';
import type {Response, ResponseError} from './response.js';

const LINE_REASONS: CancelReasons = {
    timeout: (timeoutMs) => `No answer within ${timeoutMs} ms`,
    maxTotal: (maxTotalMs) => `No answer within its maximum of ${maxTotalMs} ms`,
    abort: (reason) => {
        if (reason instanceof Error) return reason.message;
        return typeof reason === 'string' ? reason : 'The request was aborted';
    },
};

export class LineWriter<T extends OutgoingTerms> implements OutgoingWriter<T> {
    readonly #events: OutgoingEvents;
    readonly reasons: CancelReasons;

    constructor(events: OutgoingEvents) {
        this.#events = events;
        this.reasons = events.reasons ?? LINE_REASONS;
    }

    /** Throws, writing nothing, when `params` cannot be serialized. */
    writeRequest(request: WaitingRequest<T>, params: JsonObject): void {
        const record = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},"params":${JSON.stringify(params)}}\n`;
        this.#events.send(record, request.terms.related);
    }

    writeCancel(request: WaitingRequest<T>, reason: string): void {
        this.#events.send(
            `{"jsonrpc":"2.0","method":"notifications/cancelled","params":${JSON.stringify({requestId: request.id, reason})}}\n`,
            request.terms.related,
        );
    }

    timedOut(method: string, timeoutMs: number, bound: 'timeoutMs' | 'maxTotalTimeoutMs'): Error {
        return this.#events.timedOut(method, timeoutMs, bound);
    }

    remoteError(method: string, error: RemoteErrorObject): Error {
        return this.#events.remoteError(method, error);
    }

    invalidResponse(method: string, problem: string): Error {
        return this.#events.invalidResponse(method, problem);
    }
}

/**
 * Reads a response whose envelope the caller already checked (`classify` did: `"jsonrpc": "2.0"`,
 * a `result` or an `error`): an `error` member makes it an error, whose shape is checked here.
 */
export function readAnswer(message: JsonObject): Response {
    const raw = message.id;
    if (typeof raw !== 'string' && typeof raw !== 'number') {
        return {kind: 'malformed', id: undefined, problem: 'its id is neither a string nor a number'};
    }
    const id = raw;
    if (!Object.hasOwn(message, 'error')) return {kind: 'result', id, result: message.result};
    const error = message.error;
    if (isObject(error) && Number.isSafeInteger(error.code) && typeof error.message === 'string') {
        // Handed on as the peer sent it.
        return {kind: 'error', id, error: error as unknown as ResponseError};
    }
    return {
        kind: 'malformed',
        id,
        problem: 'its "error" is not an object with an integer "code" and a "message" string',
    };
}
