/**
 * Serving a fetch handler on Node's `http`: `toNodeListener` turns it into a request listener,
 * `serveNodeHttp` starts a server on `127.0.0.1` unless told otherwise. A client that goes away
 * aborts its `Request`'s signal and cancels the answer's stream; closing the server ends idle
 * keep-alive connections, so nothing keeps the process alive afterwards.
 */
import type {IncomingMessage, Server, ServerResponse} from 'node:http';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {Readable} from 'node:stream';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';

/** What `toNodeListener` needs: a fetch handler, such as the one `createMcpHttpHandler` returns. */
export interface FetchHandler {
    fetch(request: Request): Promise<Response>;
}

export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void;

/** A `node:http` request listener that answers through `handler.fetch`. */
export function toNodeListener(handler: FetchHandler): NodeListener {
    if (!isObject(handler) || typeof handler.fetch !== 'function') {
        throw new TypeError(
            `toNodeListener(handler) needs an object with a fetch method, got ${describe(handler)}`,
        );
    }
    return (incoming, outgoing) => void answer(handler, incoming, outgoing);
}

async function answer(
    handler: FetchHandler,
    incoming: IncomingMessage,
    outgoing: ServerResponse,
): Promise<void> {
    const gone = new AbortController();
    const onClose = (): void => {
        if (!outgoing.writableFinished)
            gone.abort(new DOMException('The client closed the connection', 'AbortError'));
    };
    outgoing.once('close', onClose);
    let request: Request;
    try {
        request = toRequest(incoming, gone.signal);
    } catch {
        // A Host header that makes no URL is the client's mistake, not the handler's.
        outgoing
            .writeHead(400, {'content-type': 'text/plain'})
            .end(
                `Bad Request: the Host header ${JSON.stringify(incoming.headers.host)} does not form a valid URL`,
            );
        return;
    }
    let response: Response;
    try {
        response = await handler.fetch(request);
    } catch (error) {
        outgoing
            .writeHead(500, {'content-type': 'text/plain'})
            .end(`Internal Server Error: ${(error as Error)?.message}`);
        return;
    }
    if (gone.signal.aborted) {
        response.body?.cancel().catch(() => {});
        return;
    }
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, key) => {
        headers[key] = value;
    });
    // `forEach` joins them with ", ", which no client can split back: each goes as a header of its own.
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    outgoing.writeHead(response.status, headers);
    const body = response.body;
    if (body === null) {
        outgoing.end();
        return;
    }
    outgoing.flushHeaders();
    const reader = body.getReader();
    gone.signal.addEventListener('abort', () => void reader.cancel(gone.signal.reason).catch(() => {}), {
        once: true,
    });
    try {
        for (;;) {
            const {done, value} = await reader.read();
            if (done) break;
            if (!outgoing.write(value)) await drained(outgoing);
        }
        outgoing.end();
    } catch {
        outgoing.destroy();
    }
}

/** Resolves on `drain` or `close`, whichever comes first, and leaves no listener behind. */
function drained(outgoing: ServerResponse): Promise<void> {
    return new Promise((resolve) => {
        const done = (): void => {
            outgoing.off('drain', done).off('close', done);
            resolve();
        };
        outgoing.once('drain', done).once('close', done);
    });
}

function toRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
    const host = incoming.headers.host ?? 'localhost';
    const url = new URL(incoming.url ?? '/', `http://${host}`);
    const headers = new Headers();
    for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
        headers.append(incoming.rawHeaders[index] as string, incoming.rawHeaders[index + 1] as string);
    }
    const method = incoming.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    return new Request(url, {
        method,
        headers,
        signal,
        ...(hasBody ? {body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half'} : {}),
    } as RequestInit);
}

export interface ServeOptions {
    /** Default 0: any free port (read it from `url`). */
    port?: number;
    /** Default `127.0.0.1`: this machine only. */
    host?: string;
    /** The endpoint's path. Default `/mcp`. */
    path?: string;
}

export interface NodeHttpServer {
    readonly server: Server;
    /** The MCP endpoint, such as `http://127.0.0.1:41234/mcp`. */
    readonly url: string;
    /** Stops listening and ends every connection once its answer is written. */
    close(): Promise<void>;
}

/** Starts a `node:http` server answering `path` through `handler`; anything else is 404. */
export async function serveNodeHttp(
    handler: FetchHandler,
    options: ServeOptions = {},
): Promise<NodeHttpServer> {
    if (!isObject(options)) {
        throw new TypeError(
            `serveNodeHttp(handler, options) needs an options object, got ${describe(options)}`,
        );
    }
    const {port = 0, host = '127.0.0.1', path = '/mcp'} = options as ServeOptions;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
        throw new RangeError(`serveNodeHttp: port must be an integer from 0 to 65535, got ${describe(port)}`);
    }
    if (typeof host !== 'string' || typeof path !== 'string' || !path.startsWith('/')) {
        throw new TypeError('serveNodeHttp: host must be a string and path a string starting with "/"');
    }
    const listener = toNodeListener(handler);
    const server = createServer((incoming, outgoing) => {
        const pathname = (incoming.url ?? '/').split('?')[0];
        if (pathname !== path) {
            outgoing
                .writeHead(404, {'content-type': 'text/plain'})
                .end(`Not Found: the MCP endpoint is ${path}`);
            return;
        }
        listener(incoming, outgoing);
    });
    await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            server.off('error', reject);
            resolve();
        });
    });
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return {
        server,
        url: `http://${shown}:${address.port}${path}`,
        close: () =>
            new Promise<void>((resolve, reject) => {
                server.close((error) => (error ? reject(error) : resolve()));
                server.closeIdleConnections();
            }),
    };
}
