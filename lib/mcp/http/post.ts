/**
 * A POST: its body read and checked, then the era that serves it. A request that carries the
 * 2026-07-28 envelope (in `params._meta` or as a non-legacy `MCP-Protocol-Version`) is modern and
 * its `Mcp-Session-Id`, if any, is ignored; `initialize` or a known session id is legacy; anything
 * else is modern where the server serves that era, and needs a session otherwise.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {PROTOCOL_VERSION_KEY} from '../protocol/meta.js';
import {MCP_PROTOCOL_VERSIONS} from '../protocol/versions.js';
import {ErrorCode} from '../server/errors.js';
import {accepts, readBody} from './body.js';
import {serveLegacyRequest} from './legacy-request.js';
import type {LegacySessions} from './legacy-sessions.js';
import {serveModernRequest} from './modern-request.js';
import type {HttpSettings} from './options.js';
import {errorResponse, JSON_TYPE, SSE_TYPE} from './responses.js';
import type {Tracker} from './tracker.js';

/** Every revision that has `initialize`, served here or not: such a header is never modern. */
const LEGACY_REVISIONS = new Set([
    '2024-11-05',
    ...MCP_PROTOCOL_VERSIONS.filter((version) => version < '2026'),
]);

export async function servePost(
    settings: HttpSettings,
    sessions: LegacySessions,
    tracker: Tracker,
    request: Request,
): Promise<Response> {
    const accept = request.headers.get('accept');
    if (!accepts(accept, JSON_TYPE) && !accepts(accept, SSE_TYPE)) {
        return errorResponse(
            406,
            ErrorCode.InvalidRequest,
            'Not Acceptable: answers are application/json or text/event-stream; list both in Accept',
        );
    }
    const body = await readBody(request, settings.catalog.maxMessageBytes);
    if (!body.ok) return body.response;
    const message = body.message;
    if (Array.isArray(message)) {
        return errorResponse(
            400,
            ErrorCode.InvalidRequest,
            'Invalid Request: JSON-RPC batches are not supported; send each message as its own POST',
        );
    }
    if (!isObject(message)) {
        return errorResponse(
            400,
            ErrorCode.InvalidRequest,
            'Invalid Request: the body must be one JSON-RPC message object',
        );
    }
    const streaming = accept !== null && accepts(accept, SSE_TYPE);
    // Past the 406 above, a client that refuses JSON accepts SSE.
    const sseOnly = !accepts(accept, JSON_TYPE);
    const input = {request, message, streaming, sseOnly};
    const version = request.headers.get('mcp-protocol-version')?.trim();
    if (isModern(message, version)) return serveModernRequest(settings, tracker, input);
    const sessionId = request.headers.get('mcp-session-id');
    const legacyServed = settings.catalog.versions.legacy.length > 0;
    if (legacyServed && (sessionId !== null || message.method === 'initialize')) {
        return serveLegacyRequest(settings, sessions, tracker, input, sessionId?.trim());
    }
    if (settings.catalog.versions.modern.length > 0) return serveModernRequest(settings, tracker, input);
    return errorResponse(
        400,
        ErrorCode.InvalidRequest,
        'Bad Request: Mcp-Session-Id header is required; send "initialize" first to start a session',
    );
}

function isModern(message: JsonObject, version: string | undefined): boolean {
    const params = message.params;
    if (isObject(params) && isObject(params._meta) && Object.hasOwn(params._meta, PROTOCOL_VERSION_KEY))
        return true;
    return version !== undefined && version !== '' && !LEGACY_REVISIONS.has(version);
}
