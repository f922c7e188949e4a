/**
 * A legacy POST: `initialize` opens a session, anything else needs a live one. Requests wait for
 * their answer as JSON or SSE; notifications and responses are accepted `202`. A client that goes
 * away is not a cancellation in these revisions (it sends `notifications/cancelled`): its answer
 * is simply not written.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {classify, errorRecord, isRequestId} from '../../jsonrpc/records.js';
import {ErrorCode} from '../server/errors.js';
import {Exchange} from './exchange.js';
import type {LegacySession} from './legacy-session.js';
import type {LegacySessions} from './legacy-sessions.js';
import type {ModernInput} from './modern-request.js';
import type {HttpSettings} from './options.js';
import {emptyResponse, errorResponse, recordResponse} from './responses.js';
import type {Tracker} from './tracker.js';

export function serveLegacyRequest(
    settings: HttpSettings,
    sessions: LegacySessions,
    tracker: Tracker,
    input: ModernInput,
    sessionId: string | undefined,
): Promise<Response> | Response {
    const {request, message} = input;
    const version = request.headers.get('mcp-protocol-version')?.trim();
    if (version !== undefined && !settings.catalog.versions.legacy.includes(version)) {
        return errorResponse(
            400,
            ErrorCode.InvalidRequest,
            `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}; this server serves ` +
                settings.catalog.versions.all.join(', '),
        );
    }
    const incoming = classify(message);
    if (incoming.kind === 'invalid') {
        return recordResponse(400, errorRecord(incoming.id, incoming.code, incoming.message));
    }
    if (sessionId === undefined) {
        if (incoming.kind !== 'request') {
            return errorResponse(
                400,
                ErrorCode.InvalidRequest,
                'Bad Request: "initialize" must be a request, with an id',
            );
        }
        return initialize(settings, sessions, tracker, input, incoming.id);
    }
    const session = sessions.use(sessionId);
    if (session === undefined) {
        return errorResponse(
            404,
            ErrorCode.InvalidRequest,
            `Session not found: ${JSON.stringify(sessionId)} ended or never existed; send "initialize" without Mcp-Session-Id to start a new one`,
        );
    }
    if (incoming.kind !== 'request') {
        session.receive(message, request, undefined);
        if (incoming.kind === 'notification' && incoming.method === 'notifications/cancelled') {
            abandonCancelled(session, incoming.params);
        }
        return emptyResponse(202);
    }
    if (session.exchanges.has(incoming.id)) {
        return errorResponse(
            400,
            ErrorCode.InvalidRequest,
            `Request id ${JSON.stringify(incoming.id)} is already in use by a request in progress; use a new id for each request`,
            incoming.id,
        );
    }
    const exchange = exchangeFor(session, tracker, input, incoming.id, () => undefined);
    session.receive(message, request, exchange);
    return exchange.response;
}

function initialize(
    settings: HttpSettings,
    sessions: LegacySessions,
    tracker: Tracker,
    input: ModernInput,
    id: RequestId,
): Response | Promise<Response> {
    const session = sessions.create();
    if (session === undefined) {
        const seconds = sessions.retryAfterSeconds();
        return errorResponse(
            503,
            ErrorCode.InternalError,
            `Too many sessions: all ${settings.maxSessions} are in use (maxSessions) and none has been ` +
                `idle for the idle timeout; retry in ${seconds} s`,
            id,
            {headers: {'retry-after': String(seconds)}},
        );
    }
    // The id goes out only with a successful result: a failed initialize leaves no session.
    const exchange = exchangeFor(session, tracker, input, id, () =>
        session.session.isInitialized ? {'mcp-session-id': session.id} : undefined,
    );
    session.receive(input.message, input.request, exchange);
    if (session.session.isInitialized) sessions.admit(session);
    else session.end();
    return exchange.response;
}

function exchangeFor(
    session: LegacySession,
    tracker: Tracker,
    input: ModernInput,
    id: RequestId,
    headers: () => Record<string, string> | undefined,
): Exchange {
    const exchange: Exchange = new Exchange(
        {
            id,
            streaming: input.streaming,
            sseOnly: input.sseOnly,
            headers,
            status: () => 200,
            onGone: () => {},
            onDone: () => {
                session.done(exchange);
                tracker.release(exchange);
            },
        },
        input.request.signal,
    );
    tracker.hold(exchange);
    return exchange;
}

/** The POST of a request the client cancelled is over: no answer will come. */
function abandonCancelled(session: LegacySession, params: JsonObject | undefined): void {
    const id = params?.requestId;
    if (!isRequestId(id)) return;
    session.exchanges.get(id)?.abandon(() => emptyResponse(204));
}
