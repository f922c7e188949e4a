/**
 * `notifications/progress` for one of the client's requests: checked, handed to the caller's
 * callback, and restarting the request's timeout where it asked for that.
 */
import type {OutgoingRequests} from '../../jsonrpc/outgoing.js';
import type {JsonObject} from '../../jsonrpc/records.js';
import {McpProtocolViolationError} from './errors.js';
import type {Progress, RequestTerms} from './request-terms.js';

export function receiveProgress(
    outgoing: OutgoingRequests<RequestTerms>,
    params: JsonObject | undefined,
): void {
    const token = params?.progressToken;
    const request = typeof token === 'number' ? outgoing.get(token) : undefined;
    // Progress for a request that has ended, or that asked for none, is simply late or spare.
    if (request === undefined || params === undefined) return;
    const {onProgress, resetOnProgress} = request.terms;
    if (onProgress === undefined && resetOnProgress !== true) return;
    const {progress, total, message} = params;
    if (
        typeof progress !== 'number' ||
        (total !== undefined && typeof total !== 'number') ||
        (message !== undefined && typeof message !== 'string')
    ) {
        const error = new McpProtocolViolationError(
            `The MCP server sent a progress notification for ${request.method} whose "progress" is not a number, ` +
                'or whose "total" or "message" has the wrong type',
        );
        outgoing.giveUp(request, error, 'The server sent a malformed progress notification');
        return;
    }
    if (resetOnProgress === true) outgoing.restartTimer(request);
    if (onProgress === undefined) return;
    const update: Progress = {progress};
    if (total !== undefined) update.total = total;
    if (message !== undefined) update.message = message;
    try {
        onProgress(update);
    } catch (error) {
        outgoing.giveUp(request, error, "The client's progress callback failed");
    }
}
