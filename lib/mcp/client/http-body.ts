/**
 * Reading what a Streamable HTTP server answers: a bounded JSON body, an SSE stream event by event,
 * and a short excerpt of an error body.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {McpHttpError, McpProtocolViolationError} from './errors.js';
import {SseParser} from './sse.js';
import type {StrayProblem} from './transport.js';

/** The most characters of a refused response's body that an `McpHttpError` carries. */
export const ERROR_BODY_CHARS = 500;

/**
 * The error for a response that is not a 2xx: its status, an excerpt of its body and a hint. A 404
 * to a request that carried `sessionId` means the server ended the session.
 */
export async function refusal(
    response: Response,
    method: string,
    url: string,
    sessionId: string | undefined,
): Promise<McpHttpError> {
    const code = response.status;
    const status = `${code}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
    const body = await bodyExcerpt(response);
    if (code === 404 && sessionId !== undefined) {
        return new McpHttpError(
            `The MCP session ${sessionId} has ended: the server answered ${method} ${url} with HTTP ${status}. ` +
                'It expired or was deleted; connect again to start a new session.',
            {method, status: code, body, sessionExpired: true},
        );
    }
    let hint = '';
    if (code >= 300 && code < 400) {
        const location = response.headers.get('location');
        hint = location === null ? '' : ` (a redirect to ${location}: give that URL as url instead)`;
    } else if (code === 401 || code === 403) {
        hint = ' (check the credentials passed in headers)';
    }
    return new McpHttpError(
        `${method} ${url} answered HTTP ${status}${hint}${body === '' ? '' : `: ${body}`}`,
        {
            method,
            status: code,
            body,
        },
    );
}

/** Reads at most {@link ERROR_BODY_CHARS} characters of a body, then lets the rest go. */
export async function bodyExcerpt(response: Response): Promise<string> {
    const body = response.body;
    if (body === null) return '';
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let broke = false;
    try {
        while (text.length < ERROR_BODY_CHARS * 4) {
            const {done, value} = await reader.read();
            if (done) break;
            text += decoder.decode(value, {stream: true});
        }
    } catch (cause) {
        broke = true;
        text += ` [the body broke off: ${String(cause)}]`;
    }
    if (!broke) await reader.cancel();
    reader.releaseLock();
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > ERROR_BODY_CHARS ? `${flat.slice(0, ERROR_BODY_CHARS)}…` : flat;
}

/**
 * Reads a whole JSON body of at most `maxBytes` bytes; a body over it, not UTF-8 or not JSON is an
 * `McpProtocolViolationError`. A body that breaks off rejects with the network's error.
 */
export async function readJson(response: Response, maxBytes: number, what: string): Promise<unknown> {
    const body = response.body;
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    if (body !== null) {
        const reader = body.getReader();
        for (;;) {
            const {done, value} = await reader.read();
            if (done) break;
            bytes += value.length;
            if (bytes > maxBytes) {
                await reader.cancel();
                throw new McpProtocolViolationError(
                    `${what}: the JSON body is larger than maxMessageBytes (${maxBytes} bytes); ` +
                        'raise maxMessageBytes if the server is trusted to send that much',
                );
            }
            chunks.push(value);
        }
    }
    let text: string;
    try {
        text = new TextDecoder('utf-8', {fatal: true}).decode(Buffer.concat(chunks, bytes));
    } catch (cause) {
        throw new McpProtocolViolationError(`${what}: the JSON body is not valid UTF-8`, {cause});
    }
    try {
        return JSON.parse(text);
    } catch (cause) {
        throw new McpProtocolViolationError(`${what}: the body is not JSON: ${excerpt(text)}`, {cause});
    }
}

export interface StreamSink {
    /** One JSON value an event carried. */
    message(value: unknown): void;
    /** An event whose data is not JSON, or one over the size limit: skipped, reading goes on. */
    stray(problem: StrayProblem): void;
    /** The server's `retry` field. */
    retry(milliseconds: number): void;
}

export interface StreamRead {
    /** The stream's last event id when it stopped: what a resumption sends as `Last-Event-ID`. */
    lastEventId: string;
    /** `stopped`: `stop()` asked for it; `ended`: the body ended; `broke`: reading it failed. */
    outcome: 'stopped' | 'ended' | 'broke';
    /** Why reading failed, when it broke. */
    error?: unknown;
}

/**
 * Reads an SSE body to its end, or until `stop()` returns true after an event. Events of type
 * `message` with data are parsed as JSON; events with empty data (the priming event a server sends
 * to hand out an id) and events of other types carry no message. Never rejects: a body that breaks
 * (or is aborted) resolves as `broke`.
 */
export async function readEvents(
    response: Response,
    maxEventBytes: number,
    what: string,
    sink: StreamSink,
    stop: () => boolean,
): Promise<StreamRead> {
    let stopped = false;
    const parser = new SseParser(
        {
            event(event) {
                if (stopped || event.type !== 'message' || event.data === '') return;
                let value: unknown;
                try {
                    value = JSON.parse(event.data);
                } catch (cause) {
                    sink.stray({
                        kind: 'not-json',
                        error: new McpProtocolViolationError(
                            `${what}: an SSE event is not JSON: ${excerpt(event.data)}`,
                            {
                                cause,
                            },
                        ),
                        text: event.data,
                    });
                    return;
                }
                sink.message(value);
                if (stop()) stopped = true;
            },
            retry: (milliseconds) => sink.retry(milliseconds),
            oversized(bytes) {
                sink.stray({
                    kind: 'oversized',
                    error: new McpProtocolViolationError(
                        `${what}: an SSE event reached ${bytes} bytes, over maxMessageBytes ` +
                            `(${maxEventBytes} bytes); it was dropped`,
                    ),
                    text: '',
                });
            },
        },
        maxEventBytes,
    );
    const body = response.body;
    if (body === null) return {lastEventId: '', outcome: 'ended'};
    const reader = body.getReader();
    let read: StreamRead;
    try {
        for (;;) {
            const {done, value} = await reader.read();
            if (done) break;
            parser.push(value);
            if (stopped) break;
        }
        if (stopped) await reader.cancel();
        parser.end();
        read = {lastEventId: parser.lastEventId, outcome: stopped ? 'stopped' : 'ended'};
    } catch (error) {
        parser.end();
        read = {lastEventId: parser.lastEventId, outcome: 'broke', error};
    }
    reader.releaseLock();
    return read;
}

function excerpt(text: string): string {
    return text.length > 120 ? `${JSON.stringify(text.slice(0, 120))}…` : JSON.stringify(text);
}

/**
 * The JSON-RPC error a modern server puts in the body of a refused exchange (a `400` for an
 * unsupported revision or a header mismatch, a `404` for an unknown method), or `undefined` when
 * the body holds none: then the refusal is reported as an HTTP error, as in the legacy era.
 */
export async function modernRefusal(response: Response, maxBytes: number): Promise<JsonObject | undefined> {
    if (mediaTypeOf(response) !== 'application/json') return undefined;
    let value: unknown;
    try {
        value = await readJson(response.clone(), maxBytes, 'A refused exchange');
    } catch {
        return undefined;
    }
    if (!isObject(value) || value.jsonrpc !== '2.0' || !isObject(value.error)) return undefined;
    const {code, message} = value.error;
    if (typeof code !== 'number' || typeof message !== 'string') return undefined;
    await response.body?.cancel();
    return {jsonrpc: '2.0', error: value.error};
}

function mediaTypeOf(response: Response): string {
    return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
