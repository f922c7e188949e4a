/**
 * A 2026-07-28 POST: every header rule of the transport, then one `Session` for this request
 * alone (the era keeps no state between requests, and a session of its own keeps request ids of
 * different clients apart). Closing the answer stream cancels the handler.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {classify, errorRecord, isObject} from '../../jsonrpc/records.js';
import type {QueueSlot} from '../../jsonrpc/writer.js';
import {PROTOCOL_VERSION_KEY} from '../protocol/meta.js';
import {ErrorCode} from '../server/errors.js';
import type {Dispatch} from '../server/methods/dispatch.js';
import {tooManyListensMessage} from '../server/methods/subscriptions.js';
import {MODERN_METHODS} from '../server/methods/table.js';
import {modernClient} from '../server/modern.js';
import {Session} from '../server/session.js';
import {Exchange} from './exchange.js';
import type {HttpSettings} from './options.js';
import {argumentAt, headerValue, matches} from './param-headers.js';
import {
    emptyResponse,
    errorCodeOf,
    errorResponse,
    isNotificationRecord,
    recordResponse,
} from './responses.js';
import type {Tracker} from './tracker.js';

const HEADER_MISMATCH = -32020;
/** The params field `Mcp-Name` mirrors, by method: a `Map`, as the method is the peer's string. */
const NAMED: ReadonlyMap<string, string> = new Map([
    ['tools/call', 'name'],
    ['resources/read', 'uri'],
    ['prompts/get', 'name'],
]);

export interface ModernInput {
    readonly request: Request;
    readonly message: JsonObject;
    readonly streaming: boolean;
    /** The client refuses JSON (`application/json;q=0`): its answer is an SSE stream. */
    readonly sseOnly: boolean;
}

export function serveModernRequest(
    settings: HttpSettings,
    tracker: Tracker,
    input: ModernInput,
): Promise<Response> | Response {
    const {request, message} = input;
    const incoming = classify(message);
    if (incoming.kind === 'invalid') {
        return recordResponse(400, errorRecord(incoming.id, incoming.code, incoming.message));
    }
    if (incoming.kind === 'response') {
        return errorResponse(
            400,
            ErrorCode.InvalidRequest,
            'Invalid Request: this server sends no requests, so a client sends it no responses',
        );
    }
    // No client notification is defined for this era over HTTP: accepted and ignored.
    if (incoming.kind === 'notification') return emptyResponse(202);
    const id = incoming.id;
    const refusal = checkHeaders(settings, request.headers, message, id);
    if (refusal !== undefined) return refusal;
    if (message.method === 'subscriptions/listen' && settings.catalog.subscriptions && !input.streaming) {
        return errorResponse(
            406,
            ErrorCode.InvalidRequest,
            'Not Acceptable: subscriptions/listen is answered with an SSE stream; list text/event-stream in Accept',
            id,
        );
    }
    let exchange: Exchange | undefined;
    const session = new Session(settings.catalog, {
        send: (record) => deliver(record),
        sendLatest: (record, slot) => deliver(record, slot),
        withdraw: (slot) => exchange?.withdraw(slot),
        diagnose: settings.diagnose,
    });
    const deliver = (record: string, slot?: QueueSlot): void => {
        if (exchange === undefined) return;
        if (!isNotificationRecord(record)) exchange.answer(record);
        else if (session.subscriptions.holds(id)) exchange.notifyOnce(record);
        else exchange.notify(record, slot);
    };
    exchange = new Exchange(
        {
            id,
            streaming: input.streaming,
            sseOnly: input.sseOnly,
            headers: () => undefined,
            status: modernStatus,
            // A closed listen stream is its cancellation: the subscription ends, unanswered.
            onGone: (reason) => session.subscriptions.cancel(id) || session.calls.cancel(id, reason),
            onDone: () => tracker.release(exchange as Exchange, session),
        },
        request.signal,
    );
    tracker.hold(exchange, session);
    session.calls.http = {headers: request.headers};
    const limit = settings.catalog.maxSubscriptions;
    if (message.method === 'subscriptions/listen' && tracker.listening.size >= limit) {
        // Answered like the core's own refusals, through the exchange, so `Accept` is honoured.
        exchange.answer(
            errorRecord(id, ErrorCode.InvalidParams, tooManyListensMessage(limit), {maxSubscriptions: limit}),
        );
        return exchange.response;
    }
    // Parsed once, by `readBody`.
    session.receiveParsed(message);
    if (session.subscriptions.holds(id)) {
        tracker.listen(exchange, session);
        exchange.keepAlive();
    }
    exchange.checkGone();
    return exchange.response;
}

/** Unknown method 404; the envelope's own refusals 400; every other answer 200. */
function modernStatus(record: string): number {
    const code = errorCodeOf(record);
    if (code === ErrorCode.MethodNotFound) return 404;
    if (code === ErrorCode.UnsupportedProtocolVersion || code === HEADER_MISMATCH || code === -32021)
        return 400;
    return 200;
}

function mismatch(message: string, id: RequestId): Response {
    return errorResponse(400, HEADER_MISMATCH, `Header mismatch: ${message}`, id);
}

/** The first rule the request breaks, as its answer; undefined when it keeps them all. */
function checkHeaders(
    settings: HttpSettings,
    headers: Headers,
    message: JsonObject,
    id: RequestId,
): Response | undefined {
    const method = message.method;
    const version = headers.get('mcp-protocol-version')?.trim();
    if (version === undefined || version === '') {
        return mismatch('the MCP-Protocol-Version header is required', id);
    }
    const methodHeader = headers.get('mcp-method')?.trim();
    if (methodHeader === undefined) return mismatch('the Mcp-Method header is required', id);
    if (methodHeader !== method) {
        return mismatch(
            `Mcp-Method header value ${JSON.stringify(methodHeader)} does not match body method ${JSON.stringify(method)}`,
            id,
        );
    }
    const params = message.params;
    const meta = isObject(params) ? params._meta : undefined;
    if (!isObject(meta) || !Object.hasOwn(meta, PROTOCOL_VERSION_KEY)) {
        if (!MODERN_METHODS.has(method as string)) {
            return errorResponse(
                404,
                ErrorCode.MethodNotFound,
                `Method not found: ${JSON.stringify(method)}`,
                id,
            );
        }
        return errorResponse(
            400,
            ErrorCode.InvalidParams,
            `${method} needs params._meta[${JSON.stringify(PROTOCOL_VERSION_KEY)}] and the client's capabilities ` +
                '(protocol revision 2026-07-28)',
            id,
        );
    }
    const bodyVersion = meta[PROTOCOL_VERSION_KEY];
    if (typeof bodyVersion === 'string' && bodyVersion !== version) {
        return mismatch(
            `MCP-Protocol-Version header value ${JSON.stringify(version)} does not match ` +
                `params._meta[${JSON.stringify(PROTOCOL_VERSION_KEY)}] ${JSON.stringify(bodyVersion)}`,
            id,
        );
    }
    let refused: string | undefined;
    // The core's own checks of the envelope, answered here so that they carry HTTP 400.
    const probe = {
        catalog: settings.catalog,
        output: {
            send: (record: string): void => {
                refused = record;
            },
        },
    };
    if (modernClient(probe as unknown as Dispatch, id, meta) === undefined) {
        return recordResponse(400, refused as string);
    }
    const field = NAMED.get(method as string);
    if (field !== undefined) {
        const named = checkName(headers, (params as JsonObject)[field], id);
        if (named !== undefined) return named;
    }
    if (method === 'tools/call') return checkParams(settings, headers, params as JsonObject, id);
    return undefined;
}

function checkName(headers: Headers, body: unknown, id: RequestId): Response | undefined {
    const raw = headers.get('mcp-name');
    if (raw === null) {
        return typeof body === 'string' ? mismatch('the Mcp-Name header is required', id) : undefined;
    }
    const value = headerValue(raw);
    if (value === undefined) return mismatch('the Mcp-Name header value is malformed', id);
    if (value !== body) {
        return mismatch(
            `Mcp-Name header value ${JSON.stringify(value)} does not match body value ${JSON.stringify(body)}`,
            id,
        );
    }
    return undefined;
}

function checkParams(
    settings: HttpSettings,
    headers: Headers,
    params: JsonObject,
    id: RequestId,
): Response | undefined {
    const index = settings.paramHeaders.get(params.name as string);
    if (index === undefined) return undefined;
    for (const {header, shown, path, type} of index) {
        const body = argumentAt(params.arguments, path);
        const raw = headers.get(header);
        if (raw === null) {
            if (body === undefined || body === null) continue;
            return mismatch(`the ${shown} header is required: arguments.${path.join('.')} has a value`, id);
        }
        const value = headerValue(raw);
        if (value === undefined) return mismatch(`the ${shown} header value is malformed`, id);
        if (!matches(value, body, type)) {
            return mismatch(
                `${shown} header value ${JSON.stringify(value)} does not match arguments.${path.join('.')} ${JSON.stringify(body ?? null)}`,
                id,
            );
        }
    }
    return undefined;
}
