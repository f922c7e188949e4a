/**
 * The answer to one POSTed request: a JSON body (one response, or a batch holding it) or an SSE
 * stream followed to its answer. A `202` is an `McpHttpError`; any other answer the server got wrong
 * (another content type, a body without the response) is an `McpProtocolViolationError`.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import {McpHttpError, McpProtocolViolationError} from './errors.js';
import {readJson} from './http-body.js';
import type {Endpoint} from './http-streams.js';
import {followAnswer, isAnswer, mediaType} from './http-streams.js';

/** Delivers every message of the answer to `endpoint.handlers`; rejects when it holds no answer to `id`. */
export async function readAnswer(endpoint: Endpoint, response: Response, id: RequestId, signal: AbortSignal) {
    const what = `The answer to request ${JSON.stringify(id)} from POST ${endpoint.settings.url.href}`;
    if (response.status === 202) {
        throw new McpHttpError(`${what}: the server accepted the request (HTTP 202) but sent no answer`, {
            method: 'POST',
            status: 202,
        });
    }
    const type = mediaType(response);
    if (type === 'text/event-stream') {
        await followAnswer(endpoint, response, id, signal, what);
        return;
    }
    if (type !== 'application/json') {
        await response.body?.cancel();
        throw new McpProtocolViolationError(
            `${what}: the content-type is ${JSON.stringify(type)}; an MCP server answers ` +
                'application/json or text/event-stream',
        );
    }
    const value = await readJson(response, endpoint.settings.maxMessageBytes, what);
    const handlers = endpoint.handlers;
    let answered = false;
    for (const message of Array.isArray(value) ? value : [value]) {
        handlers.message(message);
        if (isAnswer(message, id)) answered = true;
    }
    if (!answered)
        throw new McpProtocolViolationError(`${what}: the JSON body holds no response with that id`);
}
