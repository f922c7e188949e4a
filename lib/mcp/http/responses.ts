/** HTTP answers that carry one JSON-RPC record, or none. */
import type {RequestId} from '../../jsonrpc/records.js';
import {errorRecord} from '../../jsonrpc/records.js';

export const JSON_TYPE = 'application/json';
export const SSE_TYPE = 'text/event-stream';

/** A JSON body: one record as the core wrote it. */
export function recordResponse(status: number, record: string, headers?: Record<string, string>): Response {
    return new Response(record, {status, headers: {'content-type': JSON_TYPE, ...headers}});
}

/** An HTTP error carrying a JSON-RPC error (without `id` when the request's id is unknown). */
export function errorResponse(
    status: number,
    code: number,
    message: string,
    id?: RequestId,
    extra?: {data?: unknown; headers?: Record<string, string>},
): Response {
    return recordResponse(status, errorRecord(id, code, message, extra?.data), extra?.headers);
}

export function emptyResponse(status: number, headers?: Record<string, string>): Response {
    return new Response(null, {status, headers});
}

/** One record (as the core writes it, line feed included) as an SSE event. */
export function sseEvent(record: string): string {
    return `event: message\ndata: ${record.slice(0, -1)}\n\n`;
}

/** The response headers of an SSE stream; `X-Accel-Buffering: no` keeps proxies from holding events. */
export function sseHeaders(headers?: Record<string, string>): Record<string, string> {
    return {
        'content-type': SSE_TYPE,
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        ...headers,
    };
}

/** The JSON-RPC error code of a record, or undefined for a result or a notification. */
export function errorCodeOf(record: string): number | undefined {
    const match = /^\{"jsonrpc":"2\.0",(?:"id":(?:-?\d+|"(?:[^"\\]|\\.)*"),)?"error":\{"code":(-?\d+)/.exec(
        record,
    );
    return match === null ? undefined : Number(match[1]);
}

export function isNotificationRecord(record: string): boolean {
    return record.startsWith('{"jsonrpc":"2.0","method"');
}
