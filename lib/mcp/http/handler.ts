/**
 * `createMcpHttpHandler`: one catalog served over Streamable HTTP to any number of clients, in
 * both eras, as a Web-standard fetch handler. The checks every request passes (lifecycle, Host
 * and Origin, the HTTP method) are here; POST goes to `post.ts`, the eras to `modern-request.ts`
 * and `legacy-request.ts`.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {cancelPendingOf} from '../../util/options.js';
import {formatDiagnostic} from '../server/diagnostics.js';
import {ErrorCode} from '../server/errors.js';
import type {Session} from '../server/session.js';
import {accepts} from './body.js';
import {LegacySessions} from './legacy-sessions.js';
import type {HttpSettings} from './options.js';
import {httpSettings, originProblem} from './options.js';
import {servePost} from './post.js';
import {emptyResponse, errorResponse, SSE_TYPE} from './responses.js';
import {Tracker} from './tracker.js';
import type {HttpCloseOptions, McpHttpHandler, McpHttpHandlerOptions} from './types.js';

/** Creates the handler; the options are checked here, and a mistake throws naming what to fix. */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
    return new HttpHandler(httpSettings(options));
}

const closedResponse = (): Response =>
    errorResponse(
        503,
        ErrorCode.InternalError,
        'The MCP server is shutting down; retry on another instance',
        undefined,
        {
            headers: {connection: 'close'},
        },
    );

class HttpHandler implements McpHttpHandler {
    readonly #settings: HttpSettings;
    readonly #sessions: LegacySessions;
    readonly #tracker = new Tracker();
    #closing: Promise<void> | undefined;
    readonly closed: Promise<void>;
    #resolveClosed!: () => void;
    /** Bound, so `fetch` may be passed around alone (`export default {fetch: handler.fetch}`). */
    readonly fetch = (request: Request): Promise<Response> => this.#fetch(request);

    constructor(settings: HttpSettings) {
        this.#settings = settings;
        this.#sessions = new LegacySessions(settings);
        this.closed = new Promise((resolve) => {
            this.#resolveClosed = resolve;
        });
    }

    get sessionCount(): number {
        return this.#sessions.size;
    }

    async #fetch(request: Request): Promise<Response> {
        if (
            !isObject(request) ||
            !(request.headers instanceof Headers) ||
            typeof request.method !== 'string'
        ) {
            throw new TypeError(
                `handler.fetch(request) needs a Web-standard Request, got ${describe(request)}`,
            );
        }
        if (this.#closing !== undefined) return closedResponse();
        try {
            const response = await this.#route(request);
            // A listen whose body was still arriving when close() answered the open ones.
            if (this.#closing !== undefined) this.#endListens();
            return response;
        } catch (error) {
            this.#settings.diagnose(
                formatDiagnostic('An HTTP request failed inside the MCP handler; answered 500', error),
            );
            return errorResponse(
                500,
                ErrorCode.InternalError,
                'Internal error in the MCP HTTP handler; the server diagnostics have the details',
            );
        }
    }

    async #route(request: Request): Promise<Response> {
        const url = new URL(request.url);
        const forbidden = originProblem(this.#settings, url, request.headers.get('origin'));
        if (forbidden !== undefined) {
            return errorResponse(403, ErrorCode.InvalidRequest, `Forbidden: ${forbidden}`);
        }
        switch (request.method) {
            case 'POST':
                return servePost(this.#settings, this.#sessions, this.#tracker, request);
            case 'GET':
                return this.#get(request);
            case 'DELETE':
                return this.#delete(request);
            default:
                return notAllowed(request.method);
        }
    }

    /** A legacy session's stream for messages that belong to no request. */
    #get(request: Request): Response {
        const id = request.headers.get('mcp-session-id');
        if (id === null || this.#settings.catalog.versions.legacy.length === 0) return notAllowed('GET');
        const session = this.#sessions.use(id.trim());
        if (session === undefined) return unknownSession(id);
        if (!accepts(request.headers.get('accept'), SSE_TYPE)) {
            return errorResponse(
                406,
                ErrorCode.InvalidRequest,
                'Not Acceptable: a GET stream is text/event-stream; accept it',
            );
        }
        if (session.hasStream) {
            return errorResponse(
                409,
                ErrorCode.InvalidRequest,
                'Conflict: this session already has a GET stream open',
            );
        }
        const response = session.openStream();
        request.signal.addEventListener('abort', () => void response.body?.cancel().catch(() => {}), {
            once: true,
        });
        return response;
    }

    #delete(request: Request): Response {
        const id = request.headers.get('mcp-session-id');
        if (id === null || this.#settings.catalog.versions.legacy.length === 0) return notAllowed('DELETE');
        const session = this.#sessions.use(id.trim());
        if (session === undefined) return unknownSession(id);
        for (const exchange of [...session.exchanges.values()]) exchange.abandon(() => emptyResponse(404));
        this.#sessions.end(session, 'deleted');
        return emptyResponse(204);
    }

    notifyResourceUpdated(uri: string): number {
        if (typeof uri !== 'string') {
            throw new TypeError(
                `handler.notifyResourceUpdated(uri) needs the resource URI as a string, got ${describe(uri)}`,
            );
        }
        if (!this.#settings.catalog.subscriptions) {
            throw new TypeError(
                'handler.notifyResourceUpdated(): this handler serves no subscriptions; create it with subscriptions: true',
            );
        }
        if (this.#closing !== undefined) return 0;
        let told = 0;
        for (const legacy of this.#sessions.values()) told += legacy.notifyResourceUpdated(uri);
        for (const session of this.#tracker.listening) told += session.subscriptions.notify(uri);
        return told;
    }

    async drain(): Promise<void> {
        // An exchange ends when its call is answered, and a call counts as running until then.
        for (;;) {
            const busy: Session[] = [];
            for (const session of this.#tracker.sessions) if (session.calls.running > 0) busy.push(session);
            for (const legacy of this.#sessions.values())
                if (legacy.session.calls.running > 0) busy.push(legacy.session);
            if (busy.length === 0) return;
            await Promise.all(busy.map((session) => session.calls.whenAllAnswered()));
        }
    }

    close(options?: HttpCloseOptions): Promise<void> {
        const cancelPending = cancelPendingOf('handler', options);
        // A listen stream never ends by itself: each is answered now, as a graceful end.
        this.#endListens();
        if (cancelPending) this.#cancelAll();
        this.#closing ??= this.#shutdown();
        return this.#closing;
    }

    #endListens(): void {
        for (const session of [...this.#tracker.listening]) session.subscriptions.end();
    }

    #cancelAll(): void {
        const reason = new DOMException('The MCP server was closed with cancelPending: true', 'AbortError');
        for (const session of this.#tracker.sessions) session.calls.cancelAll(reason);
        for (const legacy of this.#sessions.values()) legacy.session.calls.cancelAll(reason);
        // A cancelled request is never answered: its client hears that the server is going away.
        for (const exchange of [...this.#tracker.exchanges]) exchange.abandon(closedResponse);
    }

    async #shutdown(): Promise<void> {
        await this.drain();
        for (const legacy of [...this.#sessions.values()]) this.#sessions.end(legacy, 'closed');
        this.#resolveClosed();
    }
}

function notAllowed(method: string): Response {
    return errorResponse(
        405,
        ErrorCode.InvalidRequest,
        `Method Not Allowed: ${method}; send each JSON-RPC message as a POST`,
        undefined,
        {
            headers: {allow: 'POST'},
        },
    );
}

function unknownSession(id: string): Response {
    return errorResponse(
        404,
        ErrorCode.InvalidRequest,
        `Session not found: ${JSON.stringify(id)} ended or never existed; send "initialize" without Mcp-Session-Id to start a new one`,
    );
}
