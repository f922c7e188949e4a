/**
 * The Streamable HTTP transport's GET streams: resuming an answer stream that ended or broke before
 * its answer, and the optional standalone stream for messages the server sends on its own.
 *
 * Both reconnect by GET, with `Last-Event-ID` once the server has handed out an event id; no POST
 * is ever sent again, so no request is replayed. The wait before each attempt is the server's
 * `retry` when it sent one (at most `reconnect.maxDelayMs`), otherwise `reconnect.initialDelayMs`
 * doubled after each failed attempt up to `reconnect.maxDelayMs`. An attempt the server accepts
 * resets the count; after `reconnect.maxAttempts` failures in a row the stream is given up.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import {isObject, isResponse} from '../../jsonrpc/records.js';
import {messageOf} from '../../util/message.js';
import {McpHttpError, McpProtocolViolationError} from './errors.js';
import type {StreamSink} from './http-body.js';
import {readEvents} from './http-body.js';
import type {HttpSettings} from './http-options.js';
import type {TransportHandlers} from './transport.js';

/** What the streams need from the transport (`http.ts`). */
export interface Endpoint {
    readonly settings: HttpSettings;
    readonly handlers: TransportHandlers;
    fetch(method: string, signal: AbortSignal, body?: string, lastEventId?: string): Promise<Response>;
    check(response: Response, method: string): Promise<void>;
    wait(ms: number, signal: AbortSignal): Promise<void>;
}

interface Backoff {
    /** The server's last `retry`, in milliseconds. */
    retryMs: number | undefined;
    /** Failed attempts in a row. */
    failures: number;
}

/** A JSON-RPC response (not a request) to the request `id`. */
export function isAnswer(message: unknown, id: RequestId): boolean {
    return isObject(message) && message.id === id && isResponse(message);
}

/** The media type of a response, lower-cased, without parameters. */
export function mediaType(response: Response): string {
    return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Reads an answer stream until the answer to `id` has been passed on, resuming it as often as it
 * takes. Rejects when the stream cannot be resumed, or with the abort's reason.
 */
export async function followAnswer(
    endpoint: Endpoint,
    response: Response,
    id: RequestId,
    signal: AbortSignal,
    what: string,
): Promise<void> {
    const state: Backoff = {retryMs: undefined, failures: 0};
    let answered = false;
    let lastEventId = '';
    const sink: StreamSink = {
        message(value) {
            endpoint.handlers.message(value);
            if (isAnswer(value, id)) answered = true;
        },
        stray: (problem) => endpoint.handlers.stray(problem),
        retry: (ms) => {
            state.retryMs = ms;
        },
    };
    let current = response;
    for (;;) {
        const read = await readEvents(current, endpoint.settings.maxMessageBytes, what, sink, () => answered);
        if (answered) return;
        if (signal.aborted) throw signal.reason;
        if (read.lastEventId !== '') lastEventId = read.lastEventId;
        const how = read.outcome === 'broke' ? `broke off (${messageOf(read.error)})` : 'ended';
        if (lastEventId === '') {
            throw new Error(
                `${what}: the SSE stream ${how} before the answer, with no event id to resume it from`,
                {
                    cause: read.error,
                },
            );
        }
        const next = await openStream(endpoint, lastEventId, state, signal, what, true);
        if (next === undefined) {
            throw new Error(
                `${what}: the SSE stream ${how} before the answer, and the server does not resume ` +
                    'streams (its GET answered HTTP 405)',
                {cause: read.error},
            );
        }
        current = next;
    }
}

/**
 * The standalone GET stream, open until `lifetime` aborts: every message on it goes to
 * `handlers.message`. A 405 means the server offers none, and listening stops quietly; a stream
 * given up after `reconnect.maxAttempts` failures is reported through `handlers.malformed`.
 */
export async function listen(endpoint: Endpoint, lifetime: AbortSignal): Promise<void> {
    const what = `The standalone GET stream of ${endpoint.settings.url.href}`;
    const state: Backoff = {retryMs: undefined, failures: 0};
    const sink: StreamSink = {
        message: (value) => endpoint.handlers.message(value),
        stray: (problem) => endpoint.handlers.stray(problem),
        retry: (ms) => {
            state.retryMs = ms;
        },
    };
    let lastEventId: string | undefined;
    let wait = false;
    try {
        for (;;) {
            const response = await openStream(endpoint, lastEventId, state, lifetime, what, wait);
            if (response === undefined) return;
            const read = await readEvents(
                response,
                endpoint.settings.maxMessageBytes,
                what,
                sink,
                () => false,
            );
            if (lifetime.aborted) return;
            if (read.lastEventId !== '') lastEventId = read.lastEventId;
            wait = true;
        }
    } catch (error) {
        // Closing the transport ends the stream on purpose; anything else is reported.
        if (lifetime.aborted) return;
        endpoint.handlers.malformed(
            new Error(`${what} was given up, so messages the server sends on its own will not arrive`, {
                cause: error,
            }),
        );
    }
}

/**
 * Opens a GET stream, retrying failures as the backoff allows. Resolves with an accepted stream,
 * or `undefined` when the server answers 405. Rejects with the abort's reason, the session's end,
 * or the last failure once `reconnect.maxAttempts` is reached.
 */
async function openStream(
    endpoint: Endpoint,
    lastEventId: string | undefined,
    state: Backoff,
    signal: AbortSignal,
    what: string,
    wait: boolean,
): Promise<Response | undefined> {
    const settings = endpoint.settings;
    for (let attempt = 0; ; attempt += 1) {
        if (wait || attempt > 0) await endpoint.wait(delay(settings, state), signal);
        try {
            const response = await endpoint.fetch('GET', signal, undefined, lastEventId);
            if (response.status === 405) {
                await response.body?.cancel();
                return undefined;
            }
            await endpoint.check(response, 'GET');
            const type = mediaType(response);
            if (type !== 'text/event-stream') {
                await response.body?.cancel();
                throw new McpProtocolViolationError(
                    `GET ${settings.url.href} answered with content-type ${JSON.stringify(type)}, not text/event-stream`,
                );
            }
            state.failures = 0;
            return response;
        } catch (error) {
            if (signal.aborted || (error instanceof McpHttpError && error.sessionExpired)) throw error;
            state.failures += 1;
            if (state.failures >= settings.maxAttempts) {
                throw new McpHttpError(
                    `${what}: ${messageOf(error)} (reconnection given up after ${state.failures} failed attempts)`,
                    {
                        method: 'GET',
                        status: error instanceof McpHttpError ? error.status : undefined,
                        cause: error,
                    },
                );
            }
        }
    }
}

function delay(settings: HttpSettings, state: Backoff): number {
    if (state.retryMs !== undefined) return Math.min(state.retryMs, settings.maxDelayMs);
    return Math.min(settings.initialDelayMs * 2 ** state.failures, settings.maxDelayMs);
}
