/**
 * The `Mcp-Session-Id` the server may issue with `initialize`: checked as it arrives, and ended
 * by DELETE when the transport closes.
 */
import {McpHttpError, McpProtocolViolationError} from './errors.js';
import type {Endpoint} from './http-streams.js';

/** The session id `response` issues, if any; one that is not visible ASCII is a protocol violation. */
export async function issuedSessionId(response: Response, url: string): Promise<string | undefined> {
    const id = response.headers.get('mcp-session-id');
    if (id === null) return undefined;
    if (!/^[\x21-\x7e]+$/.test(id)) {
        await response.body?.cancel();
        throw new McpProtocolViolationError(
            `POST ${url} issued the session id ${JSON.stringify(id)}, which is not ` +
                'made of visible ASCII characters only; the server is not a conforming MCP server',
        );
    }
    return id;
}

/**
 * Ends the session by DELETE, within `closeTimeoutMs`. 405 (the server keeps sessions until they
 * expire) and 404 (already gone) are fine. Never rejects: a failure is a process warning.
 */
export async function deleteSession(endpoint: Endpoint, sessionId: string): Promise<void> {
    const controller = new AbortController();
    const timeout = endpoint.settings.closeTimeoutMs;
    const timer = setTimeout(() => controller.abort(), timeout);
    const url = endpoint.settings.url.href;
    try {
        const response = await endpoint.fetch('DELETE', controller.signal);
        if (response.status !== 405 && response.status !== 404) await endpoint.check(response, 'DELETE');
        await response.body?.cancel();
    } catch (error) {
        const problem = controller.signal.aborted
            ? new McpHttpError(`DELETE ${url} got no answer within closeTimeoutMs (${timeout} ms)`, {
                  method: 'DELETE',
              })
            : (error as Error);
        // The session is over and close() never rejects, so this is a process warning: Node
        // prints it on stderr and an app can observe it with process.on('warning').
        const warning = new Error(
            `The MCP session ${sessionId} may still be open on the server: ${problem.message}`,
            {cause: problem},
        );
        warning.name = 'McpClientWarning';
        process.emitWarning(warning);
    } finally {
        clearTimeout(timer);
    }
}
