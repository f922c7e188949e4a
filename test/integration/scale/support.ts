/**
 * The pieces of the scale-out suite: nginx (Debian's package, installed by
 * `scripts/ensure-nginx.mjs` when missing) run in the foreground with a configuration in a
 * temporary directory, the backends it balances, and raw HTTP calls from a chosen local address.
 */
import type {ChildProcess} from 'node:child_process';
import {spawn, spawnSync} from 'node:child_process';
import {once} from 'node:events';
import {existsSync, watch} from 'node:fs';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {request} from 'node:http';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {LineReader} from '../../helpers/children.js';
import {REPO_ROOT} from '../../helpers/paths.js';

/** The path of nginx, installing Debian's package first when it is missing (as CI does). */
export function ensureNginx(): string {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/ensure-nginx.mjs')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (result.status !== 0) throw new Error(`scripts/ensure-nginx.mjs failed (status ${result.status})`);
    return result.stdout.trim();
}

export interface Backend {
    readonly name: string;
    /** `127.0.0.1:<port>`, as an nginx `server` line names it. */
    readonly address: string;
    stop(): Promise<void>;
}

export async function startBackend(name: string): Promise<Backend> {
    const script = new URL('./fixtures/backend.js', import.meta.url);
    const child = spawn(process.execPath, [script.pathname, name], {stdio: ['pipe', 'pipe', 'inherit']});
    const url = new URL(await new LineReader(child.stdout).line(0));
    return {
        name,
        address: url.host,
        stop: async () => {
            const exited = once(child, 'exit');
            child.stdin.end();
            await exited;
        },
    };
}

export async function freePort(): Promise<number> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const {port} = server.address() as {port: number};
    server.close();
    await once(server, 'close');
    return port;
}

/** The nginx recipe of docs/http.md ("Scaling out"), as written there. */
export async function docsRecipe(): Promise<string> {
    const docs = await readFile(join(REPO_ROOT, 'docs/http.md'), 'utf8');
    const found = docs.split('## Scaling out')[1]?.match(/```text\n(upstream[\s\S]*?)```/);
    if (found?.[1] === undefined)
        throw new Error(
            'docs/http.md: no nginx block (```text starting with upstream) under "## Scaling out"',
        );
    return found[1];
}

/** The docs' recipe pointed at `backends` and listening on `port`: its `server` block unchanged. */
export function pointed(recipe: string, backends: readonly Backend[], port: number): string {
    const [first, second] = backends as [Backend, Backend];
    const text = recipe
        .replaceAll('127.0.0.1:3001', first.address)
        .replaceAll('127.0.0.1:3002', second.address)
        .replace('listen 80;', `listen 127.0.0.1:${port};`);
    if (!text.includes(first.address) || !text.includes(`:${port};`))
        throw new Error('docs/http.md: the nginx recipe no longer names 127.0.0.1:3001, 3002 and port 80');
    return text;
}

export interface Nginx {
    readonly port: number;
    /** The lines nginx logged (errors and warnings). */
    errors(): Promise<string>;
    stop(): Promise<void>;
}

/** Starts nginx in the foreground on `http` (the inside of an `http` block), one worker. */
export async function startNginx(binary: string, http: string, port: number): Promise<Nginx> {
    const prefix = await mkdtemp(join(tmpdir(), 'arcane-nginx-'));
    const root = process.getuid?.() === 0 ? 'user root;\n' : '';
    const conf = `${root}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
    access_log ${prefix}/access.log;
    client_body_temp_path ${prefix}/body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
${http}
}
`;
    await writeFile(join(prefix, 'nginx.conf'), conf);
    const pidFile = join(prefix, 'nginx.pid');
    // nginx writes its pid file once its listening sockets are open: connections queue from then on.
    const watcher = watch(prefix);
    const ready = new Promise<void>((resolve) => {
        watcher.on('change', () => existsSync(pidFile) && resolve());
    });
    const child: ChildProcess = spawn(
        binary,
        [
            '-p',
            prefix,
            '-c',
            join(prefix, 'nginx.conf'),
            '-e',
            join(prefix, 'error.log'),
            '-g',
            'daemon off;',
        ],
        {stdio: ['ignore', 'inherit', 'inherit']},
    );
    const exited = once(child, 'exit');
    const errors = () => readFile(join(prefix, 'error.log'), 'utf8').catch(() => '');
    try {
        const early = exited.then(async ([code]) => {
            throw new Error(`nginx exited with ${code} before listening: ${await errors()}`);
        });
        await Promise.race([ready, early]);
    } finally {
        watcher.close();
    }
    return {
        port,
        errors,
        stop: async () => {
            child.kill('SIGTERM');
            await exited;
            await rm(prefix, {recursive: true, force: true});
        },
    };
}

export interface Answer {
    readonly status: number;
    readonly headers: Record<string, string | string[] | undefined>;
    readonly body: string;
}

/** One HTTP request to nginx on `port`, sent from `localAddress` (any 127.x.y.z on Linux). */
export function call(
    port: number,
    method: string,
    headers: Record<string, string>,
    body: unknown,
    localAddress = '127.0.0.1',
): Promise<Answer> {
    return new Promise((resolve, reject) => {
        const text = body === undefined ? undefined : JSON.stringify(body);
        const outgoing = request(
            {host: '127.0.0.1', port, path: '/mcp', method, headers, localAddress, agent: false},
            (incoming) => {
                const chunks: Buffer[] = [];
                incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
                incoming.on('end', () =>
                    resolve({
                        status: incoming.statusCode ?? 0,
                        headers: incoming.headers,
                        body: Buffer.concat(chunks).toString('utf8'),
                    }),
                );
                incoming.on('error', reject);
            },
        );
        outgoing.on('error', reject);
        outgoing.end(text);
    });
}

/** The JSON-RPC message of a JSON answer, or of the last `data:` line of an SSE one. */
export function message(answer: Answer): {result?: {content?: {text?: string}[]}; error?: unknown} {
    const type = String(answer.headers['content-type'] ?? '');
    if (!type.startsWith('text/event-stream')) return JSON.parse(answer.body);
    const data = answer.body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .at(-1);
    return JSON.parse((data ?? '').slice(5));
}
