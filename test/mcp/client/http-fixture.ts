/**
 * A loopback Streamable HTTP fixture for the client tests: a node:http or node:https server that
 * records every request exactly (method, headers, body) and answers through a route the test
 * writes, with shorthands for JSON, SSE and status answers. Nothing here sleeps: a test awaits
 * `request(n)` to know that the n-th request has arrived.
 */
import {execFileSync} from 'node:child_process';
import {once} from 'node:events';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import type {IncomingHttpHeaders, IncomingMessage, Server, ServerResponse} from 'node:http';
import {createServer} from 'node:http';
import {createServer as createTlsServer} from 'node:https';
import type {AddressInfo, Socket} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach} from 'node:test';
import type {StrayProblem} from '../../../lib/mcp/client/transport.js';

export interface Seen {
    readonly method: string;
    readonly path: string;
    readonly headers: IncomingHttpHeaders;
    readonly body: string;
    /** The parsed body, when it is JSON. */
    readonly json: unknown;
    /** Resolves when the client aborts or the exchange is over (the response's `close`). */
    readonly closed: Promise<void>;
    readonly response: ServerResponse;
}

export type Route = (seen: Seen, response: ServerResponse) => unknown;

export interface Certificates {
    /** The PEM file of the test CA: what NODE_EXTRA_CA_CERTS names in a client process. */
    readonly caFile: string;
    readonly key: Buffer;
    readonly cert: Buffer;
    remove(): void;
}

/** A throwaway CA and a certificate it signed for localhost, 127.0.0.1 and ::1, made with openssl. */
export function makeCertificates(): Certificates {
    const dir = mkdtempSync(join(tmpdir(), 'arcane-os-tls-'));
    const run = (args: string[]) =>
        execFileSync('openssl', args, {cwd: dir, stdio: ['ignore', 'ignore', 'pipe']});
    const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run([
        'req',
        '-x509',
        ...curve,
        '-keyout',
        'ca.key',
        '-out',
        'ca.pem',
        '-days',
        '1',
        '-subj',
        '/CN=arcane-os test CA',
    ]);
    run(['req', ...curve, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
    writeFileSync(
        join(dir, 'server.ext'),
        'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\n',
    );
    run([
        'x509',
        '-req',
        '-in',
        'server.csr',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        'server.pem',
        '-days',
        '1',
        '-extfile',
        'server.ext',
    ]);
    return {
        caFile: join(dir, 'ca.pem'),
        key: readFileSync(join(dir, 'server.key')),
        cert: readFileSync(join(dir, 'server.pem')),
        remove: () => rmSync(dir, {recursive: true, force: true}),
    };
}

export class Fixture {
    #closing: Promise<void> | undefined;
    readonly seen: Seen[] = [];
    route: Route;
    readonly #server: Server;
    readonly #scheme: string;
    readonly #sockets = new Set<Socket>();
    #waiters: {count: number; resolve: () => void}[] = [];

    private constructor(server: Server, scheme: string, route: Route) {
        this.#server = server;
        this.#scheme = scheme;
        this.route = route;
        server.on('connection', (socket: Socket) => {
            this.#sockets.add(socket);
            socket.on('close', () => this.#sockets.delete(socket));
        });
        server.on('request', (request: IncomingMessage, response: ServerResponse) => {
            void this.#receive(request, response);
        });
    }

    /** Starts a fixture on 127.0.0.1 (plain HTTP, or TLS with `certificates`). */
    static async start(route: Route, certificates?: Certificates): Promise<Fixture> {
        const server =
            certificates === undefined
                ? createServer()
                : createTlsServer({key: certificates.key, cert: certificates.cert});
        const fixture = new Fixture(server, certificates === undefined ? 'http' : 'https', route);
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        return fixture;
    }

    get port(): number {
        return (this.#server.address() as AddressInfo).port;
    }

    /** The endpoint URL on this host name (`127.0.0.1` by default). */
    url(host = '127.0.0.1', path = '/mcp'): string {
        return `${this.#scheme}://${host}:${this.port}${path}`;
    }

    /** Resolves once `count` requests have arrived. */
    request(count: number): Promise<Seen> {
        const ready = () => this.seen[count - 1] as Seen;
        if (this.seen.length >= count) return Promise.resolve(ready());
        return new Promise((resolve) => this.#waiters.push({count, resolve: () => resolve(ready())}));
    }

    /** Resolves with the first request for which `match` is true, once it has arrived. */
    async until(match: (seen: Seen) => boolean): Promise<Seen> {
        for (let count = 1; ; count += 1) {
            const seen = await this.request(count);
            if (match(seen)) return seen;
        }
    }

    /** The requests seen so far, as `METHOD json-rpc-method` lines, for an exact overview. */
    summary(): string[] {
        return this.seen.map((s) => {
            const json = s.json as {method?: string; id?: unknown} | undefined;
            if (json === undefined) return s.method;
            return `${s.method} ${json.method ?? `response ${JSON.stringify(json.id)}`}`;
        });
    }

    /** Idempotent: every call shares the first one's promise. */
    close(): Promise<void> {
        this.#closing ??= (async () => {
            for (const socket of this.#sockets) socket.destroy();
            this.#server.close();
            await once(this.#server, 'close');
        })();
        return this.#closing;
    }

    async #receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
            json = body === '' ? undefined : JSON.parse(body);
        } catch {
            json = undefined;
        }
        const seen: Seen = {
            method: request.method ?? '',
            path: request.url ?? '',
            headers: request.headers,
            body,
            json,
            closed: once(response, 'close').then(() => undefined),
            response,
        };
        this.seen.push(seen);
        for (const waiter of this.#waiters.filter((w) => this.seen.length >= w.count)) waiter.resolve();
        this.#waiters = this.#waiters.filter((w) => this.seen.length < w.count);
        await this.route(seen, response);
    }
}

/** Answers with one JSON body. */
export function json(response: ServerResponse, value: unknown, headers: Record<string, string> = {}): void {
    response.writeHead(200, {'content-type': 'application/json', ...headers});
    response.end(JSON.stringify(value));
}

/** Starts an SSE answer; write events with `event()`. */
export function sse(response: ServerResponse, headers: Record<string, string> = {}): void {
    response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers});
    response.flushHeaders();
}

/** Writes one SSE event carrying a JSON message (and an id, when given). */
export function event(response: ServerResponse, message: unknown, id?: string): void {
    response.write(
        `${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(message)}\n\n`,
    );
}

export function status(
    response: ServerResponse,
    code: number,
    body: string | Buffer = '',
    headers: Record<string, string> = {},
): void {
    response.writeHead(code, headers);
    response.end(body);
}

/** The JSON-RPC result message for a request. */
export function result(seen: Seen, value: unknown): unknown {
    return {jsonrpc: '2.0', id: (seen.json as {id: unknown}).id, result: value};
}

/** What a transport reports to its handlers, with a way to await the n-th message or problem. */
export class Reports {
    readonly messages: unknown[] = [];
    /** Every problem, stray or fatal, as its error. */
    readonly problems: Error[] = [];
    /** The stray ones, as reported. */
    readonly strays: StrayProblem[] = [];
    readonly closings: (Error | undefined)[] = [];
    #waiters: {ready: () => boolean; resolve: () => void}[] = [];

    readonly handlers = {
        message: (value: unknown) => this.#push(this.messages, value),
        stray: (problem: StrayProblem) => {
            this.strays.push(problem);
            this.#push(this.problems, problem.error);
        },
        malformed: (problem: Error) => this.#push(this.problems, problem),
        closed: (error: Error | undefined) => this.#push(this.closings, error),
    };

    /** Resolves once `count` problems have been reported. */
    problem(count: number): Promise<Error> {
        return this.#when(() => this.problems.length >= count).then(() => this.problems[count - 1] as Error);
    }

    /** Resolves once `count` messages have been passed on. */
    message(count: number): Promise<unknown> {
        return this.#when(() => this.messages.length >= count).then(() => this.messages[count - 1]);
    }

    /** Resolves with the error of the one `closed` report. */
    closed(): Promise<Error | undefined> {
        return this.#when(() => this.closings.length >= 1).then(() => this.closings[0]);
    }

    #push<T>(list: T[], value: T): void {
        list.push(value);
        for (const waiter of this.#waiters.filter((w) => w.ready())) waiter.resolve();
        this.#waiters = this.#waiters.filter((w) => !w.ready());
    }

    #when(ready: () => boolean): Promise<void> {
        if (ready()) return Promise.resolve();
        return new Promise((resolve) => this.#waiters.push({ready, resolve}));
    }
}

/**
 * A `serve(route)` for one test file: each fixture it starts is closed after the test that
 * started it (`afterEach`), passing or failing.
 */
export function servedPerTest(): (route: Route) => Promise<Fixture> {
    let fixtures: Fixture[] = [];
    afterEach(async () => {
        await Promise.all(fixtures.map((fixture) => fixture.close()));
        fixtures = [];
    });
    return async (route) => {
        const fixture = await Fixture.start(route);
        fixtures.push(fixture);
        return fixture;
    };
}
