/**
 * One client bench run in a process of its own: `node bench/client-driver.mjs <client> <scenario>`.
 * Spawned by client-bench.mjs, one fresh process per client, scenario and round, so that the
 * clients' JIT and garbage collection never share a heap.
 *
 * client: `ours` (`arcane-os/mcp/client`, the package's dist build), `base` (the client of an
 * earlier build: BENCH_BASE, the module path build-base.mjs prints), `sdk2` (`Client` and
 * `StdioClientTransport` of `@modelcontextprotocol/client`), `sdk1` (the same pair from
 * `@modelcontextprotocol/sdk`), `floor` (the least a client can do: newline-delimited JSON-RPC over
 * the child's pipes, one `Map` of pending ids, no timeout, no check of the answer's shape). Each
 * spawns the same server, `servers/ours.mjs`, under this node, with this process's environment, in
 * the legacy era (the default of all of them).
 *
 * scenario: `sequential` (one `echo` call in flight) or `pipelined` (CLIENT_IN_FLIGHT, default 256).
 * Prints one JSON line: the milliseconds to import the client module, from spawn to the first
 * `tools/call` result, and for the measured calls their count, seconds and this process's own CPU
 * (user + system, µs; `process.cpuUsage` does not count the server child).
 */
import {spawn} from 'node:child_process';
import {performance} from 'node:perf_hooks';
import {fileURLToPath, pathToFileURL} from 'node:url';

const SERVER = fileURLToPath(new URL('./servers/ours.mjs', import.meta.url));
const TEXT = 'hello bench';
const IN_FLIGHT = Number(process.env.CLIENT_IN_FLIGHT ?? 256);
/** Warm-up and measured calls: the client's JIT settles during the warm-up. */
const COUNTS = {
    sequential: {warm: 5_000, calls: 10_000},
    pipelined: {warm: 10_000, calls: 40_000},
};
const CLIENT_INFO = {name: 'bench-client', version: '1.0.0'};

/** Our client's module in a build of build-base.mjs, which prints the path of its stdio module. */
function baseClient() {
    const stdio = process.env.BENCH_BASE;
    if (stdio === undefined) throw new Error('the client base needs BENCH_BASE (see bench/build-base.mjs)');
    const client = stdio
        .replace(/mcp[/\\]stdio\.js$/, 'mcp/client.js')
        .replace(/stdio([/\\])index\.js$/, 'client$1index.js');
    return import(pathToFileURL(client).href);
}

/** Our client: `connectMcpClient` with its defaults but the identity every client sends here. */
async function connectOurs({connectMcpClient}) {
    const client = await connectMcpClient({
        command: process.execPath,
        args: [SERVER],
        clientInfo: CLIENT_INFO,
    });
    return {call: (text) => client.callTool('echo', {text}), close: () => client.close()};
}

/** The floor: what any stdio client must do, and nothing more. */
async function connectFloor() {
    const child = spawn(process.execPath, [SERVER], {stdio: ['pipe', 'pipe', 'inherit']});
    const pending = new Map();
    let id = 0;
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) {
            const message = JSON.parse(line);
            const settle = pending.get(message.id);
            pending.delete(message.id);
            if (message.error === undefined) settle?.resolve(message.result);
            else settle?.reject(new Error(message.error.message));
        }
    });
    const request = (method, params) =>
        new Promise((resolve, reject) => {
            id += 1;
            pending.set(id, {resolve, reject});
            child.stdin.write(`${JSON.stringify({jsonrpc: '2.0', id, method, params})}\n`);
        });
    await request('initialize', {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO});
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return {
        call: (text) => request('tools/call', {name: 'echo', arguments: {text}}),
        close: () => {
            const exited = new Promise((resolve) => child.once('exit', resolve));
            child.stdin.end();
            return exited;
        },
    };
}

/** An official SDK client (v1 and v2 share the shape): its `Client` over its own stdio transport. */
function sdkClient(clientModule, stdioModule) {
    return {
        load: () => Promise.all([clientModule(), stdioModule()]),
        async connect([{Client}, {StdioClientTransport}]) {
            const client = new Client(CLIENT_INFO);
            await client.connect(
                new StdioClientTransport({command: process.execPath, args: [SERVER], env: {...process.env}}),
            );
            return {
                call: (text) => client.callTool({name: 'echo', arguments: {text}}),
                close: () => client.close(),
            };
        },
    };
}

/** Each client as `connect(module) => {call(text), close()}`, its module imported by `load`. */
const clients = {
    ours: {load: () => import('arcane-os/mcp/client'), connect: connectOurs},
    base: {load: baseClient, connect: connectOurs},
    floor: {load: async () => undefined, connect: connectFloor},
    sdk2: sdkClient(
        () => import('@modelcontextprotocol/client'),
        () => import('@modelcontextprotocol/client/stdio'),
    ),
    sdk1: sdkClient(
        () => import('@modelcontextprotocol/sdk/client/index.js'),
        () => import('@modelcontextprotocol/sdk/client/stdio.js'),
    ),
};

function check(result) {
    if (result?.content?.[0]?.text !== TEXT) throw new Error(`echo answered ${JSON.stringify(result)}`);
}

/** `count` checked calls, `inFlight` outstanding at a time. */
async function drive(session, count, inFlight) {
    let sent = 0;
    const lane = async () => {
        while (sent < count) {
            sent += 1;
            check(await session.call(TEXT));
        }
    };
    await Promise.all(Array.from({length: inFlight}, lane));
}

const [name, scenario] = process.argv.slice(2);
const client = clients[name];
const counts = COUNTS[scenario];
if (client === undefined || counts === undefined) {
    process.stderr.write(
        `usage: node bench/client-driver.mjs <${Object.keys(clients).join('|')}> <${Object.keys(COUNTS).join('|')}>\n`,
    );
    process.exit(2);
}
const inFlight = scenario === 'sequential' ? 1 : IN_FLIGHT;

const importStart = performance.now();
const module = await client.load();
const importMs = performance.now() - importStart;

const spawnAt = performance.now();
const session = await client.connect(module);
check(await session.call(TEXT));
const firstResultMs = performance.now() - spawnAt;

await drive(session, counts.warm, inFlight);
const cpuBefore = process.cpuUsage();
const started = performance.now();
await drive(session, counts.calls, inFlight);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
await session.close();

process.stdout.write(
    `${JSON.stringify({client: name, scenario, importMs, firstResultMs, calls: counts.calls, seconds, cpuUs: cpu.user + cpu.system})}\n`,
);
