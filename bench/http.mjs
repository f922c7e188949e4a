/**
 * The HTTP bench: our fetch handler beside the official SDK v2's `createMcpHandler`, each in a
 * child process behind the same `node:http` server and Node adapter (servers/http.mjs), driven
 * over keep-alive connections by raw JSON-RPC (no SDK client, so it favours nobody).
 *
 *   node bench/http.mjs                (after `npm run build`, or via `npm run bench:http`)
 *
 * Scenarios (BENCH_ONLY): http-modern-sequential, http-modern-concurrent, http-legacy-sequential,
 * http-legacy-concurrent: `echo` calls one at a time, or HTTP_IN_FLIGHT (default 32) at once. Modern
 * calls carry the 2026-07-28 `_meta` and mirrored headers; legacy calls follow `initialize` (ours
 * hands out a session every call then carries; the SDK's entry serves legacy requests stateless).
 * Servers (BENCH_SERVERS): ours, sdk2, twin (ours again: the noise check), and base (our handler and
 * Node adapter from an earlier build: BENCH_BASE, the path build-base.mjs prints; an A/B of a change). Rounds: BENCH_ROUNDS
 * (default 5), each starting fresh servers in alternating order. Target: ours ≥ 1.5 × sdk2's
 * throughput in every scenario, read against the twin's distance to ours. BENCH_PROF=1: servers
 * write --cpu-prof profiles to bench/results/prof-http/<stamp>/<scenario>/<server>/ (for finding
 * costs, not for figures).
 */
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {readdirSync, readFileSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {Agent, request} from 'node:http';
import {createInterface} from 'node:readline';
import {fileURLToPath} from 'node:url';
import {MODERN_META} from './client.mjs';

const SERVER_FILE = fileURLToPath(new URL('./servers/http.mjs', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const IN_FLIGHT = Number(process.env.HTTP_IN_FLIGHT ?? 32);
const SERVERS = (process.env.BENCH_SERVERS ?? 'ours,sdk2,twin').split(',');
const SCENARIOS = {
    'http-modern-sequential': {era: 'modern', inFlight: 1, warm: 500, calls: 3000},
    'http-modern-concurrent': {era: 'modern', inFlight: IN_FLIGHT, warm: 2000, calls: 10000},
    'http-legacy-sequential': {era: 'legacy', inFlight: 1, warm: 500, calls: 3000},
    'http-legacy-concurrent': {era: 'legacy', inFlight: IN_FLIGHT, warm: 2000, calls: 10000},
};
const ONLY = (process.env.BENCH_ONLY ?? Object.keys(SCENARIOS).join(',')).split(',');
const TARGET = 1.5;
const WITH_BASE = SERVERS.includes('base');
if (WITH_BASE && process.env.BENCH_BASE === undefined)
    throw new RangeError(
        'bench/http.mjs: the server base needs BENCH_BASE (node bench/build-base.mjs <rev>)',
    );
const TEXT = 'hello bench';
const stamp = new Date().toISOString().replaceAll(':', '-');

async function startServer(name, scenario) {
    const profile = process.env.BENCH_PROF
        ? [
              '--cpu-prof',
              '--cpu-prof-interval=100',
              `--cpu-prof-dir=${RESULTS}prof-http/${stamp}/${scenario}/${name}`,
          ]
        : [];
    const child = spawn(process.execPath, [...profile, SERVER_FILE, name === 'twin' ? 'ours' : name], {
        stdio: ['pipe', 'pipe', 'inherit'],
    });
    const [line] = await once(createInterface({input: child.stdout}), 'line');
    return {
        url: new URL(line),
        pid: child.pid,
        stop: async () => {
            const exited = once(child, 'exit');
            child.stdin.end();
            await exited;
        },
    };
}

function post(agent, url, headers, body) {
    return new Promise((resolve, reject) => {
        const outgoing = request(url, {method: 'POST', agent, headers}, (incoming) => {
            let text = '';
            incoming.setEncoding('utf8');
            incoming.on('data', (chunk) => {
                text += chunk;
            });
            incoming.on('end', () => resolve({status: incoming.statusCode, headers: incoming.headers, text}));
            incoming.on('error', reject);
        });
        outgoing.on('error', reject);
        outgoing.end(body);
    });
}

const BASE = {'content-type': 'application/json', accept: 'application/json, text/event-stream'};

/** A function making one checked `echo` call in the scenario's era (legacy: after `initialize`). */
async function caller(agent, url, era) {
    if (era === 'modern') {
        const headers = {
            ...BASE,
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'echo',
        };
        return (id) =>
            post(
                agent,
                url,
                headers,
                `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${TEXT}"},"_meta":${MODERN_META}}}`,
            );
    }
    const opened = await post(
        agent,
        url,
        BASE,
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-driver","version":"1.0.0"}}}',
    );
    if (opened.status !== 200) throw new Error(`initialize answered ${opened.status}: ${opened.text}`);
    const session = opened.headers['mcp-session-id'];
    const headers = {
        ...BASE,
        'mcp-protocol-version': '2025-11-25',
        ...(session ? {'mcp-session-id': session} : {}),
    };
    await post(agent, url, headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return (id) =>
        post(
            agent,
            url,
            headers,
            `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${TEXT}"}}}`,
        );
}

function check(answer) {
    if (answer.status !== 200 || !answer.text.includes(`"text":"${TEXT}"`))
        throw new Error(`an echo call answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}

/** `count` calls with `inFlight` outstanding at a time; resolves with the seconds they took. */
async function drive(call, count, inFlight, firstId) {
    let next = 0;
    const started = process.hrtime.bigint();
    const lane = async () => {
        while (next < count) {
            next += 1;
            check(await call(firstId + next));
        }
    };
    await Promise.all(Array.from({length: inFlight}, lane));
    return Number(process.hrtime.bigint() - started) / 1e9;
}

/** CPU time of every thread of a process, in microseconds (Linux schedstat; NaN elsewhere). */
function cpuMicros(pid) {
    let ns = 0;
    try {
        for (const task of readdirSync(`/proc/${pid}/task`)) {
            try {
                const stat = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8');
                ns += Number(stat.slice(0, stat.indexOf(' ')));
            } catch {
                // The thread exited between the listing and the read.
            }
        }
    } catch {
        return Number.NaN;
    }
    return ns / 1000;
}

/** One server, one scenario: its throughput and its CPU per measured call (every thread). */
async function measure(server, scenario) {
    const {era, inFlight, warm, calls} = SCENARIOS[scenario];
    const started = await startServer(server, scenario);
    const agent = new Agent({keepAlive: true, maxSockets: inFlight});
    try {
        const call = await caller(agent, started.url, era);
        await drive(call, warm, inFlight, 1);
        const before = cpuMicros(started.pid);
        const seconds = await drive(call, calls, inFlight, 1_000_000);
        return {rate: calls / seconds, cpu: (cpuMicros(started.pid) - before) / calls};
    } finally {
        agent.destroy();
        await started.stop();
    }
}

const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const samples = {};
/** Server CPU per call, µs: cpuSamples[scenario][server] = [per round]. */
const cpuSamples = {};
for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
    for (const scenario of ONLY) {
        if (!(scenario in SCENARIOS)) throw new RangeError(`bench/http.mjs: no scenario ${scenario}`);
        for (const server of order) {
            const {rate, cpu} = await measure(server, scenario);
            samples[scenario] = samples[scenario] ?? {};
            samples[scenario][server] = [...(samples[scenario][server] ?? []), rate];
            cpuSamples[scenario] = cpuSamples[scenario] ?? {};
            cpuSamples[scenario][server] = [...(cpuSamples[scenario][server] ?? []), cpu];
            process.stderr.write(
                `round ${round + 1}/${ROUNDS} ${scenario} ${server}: ${rate.toFixed(0)} req/s, ${cpu.toFixed(1)} µs server CPU a call\n`,
            );
        }
    }
}

const lines = [
    `# HTTP bench, ${new Date().toISOString()}`,
    '',
    `Node ${process.version}, ${ROUNDS} rounds, ${IN_FLIGHT} in flight for the concurrent scenarios; medians of req/s.`,
    '',
    `| scenario | ${SERVERS.join(' | ')} | ours ÷ sdk2 (target ≥ ${TARGET}) | noise (twin ÷ ours − 1) | verdict |${WITH_BASE ? ' ours ÷ base |' : ''}`,
    `| --- | ${SERVERS.map(() => '---').join(' | ')} | --- | --- | --- |${WITH_BASE ? ' --- |' : ''}`,
];
for (const scenario of ONLY) {
    const figures = Object.fromEntries(SERVERS.map((server) => [server, median(samples[scenario][server])]));
    const ratio = figures.ours / figures.sdk2;
    const noise = figures.twin === undefined ? Number.NaN : figures.twin / figures.ours - 1;
    const verdict = Number.isNaN(ratio)
        ? 'n/a'
        : `${ratio >= TARGET ? 'met' : 'missed'}${Math.abs(ratio - TARGET) < Math.abs(noise) * ratio ? ' (within noise)' : ''}`;
    lines.push(
        `| ${scenario} | ${SERVERS.map((server) => figures[server].toFixed(0)).join(' | ')} | ${ratio.toFixed(2)} | ${Number.isNaN(noise) ? 'n/a' : `${(noise * 100).toFixed(1)} %`} | ${verdict} |${WITH_BASE ? ` ${(figures.ours / figures.base).toFixed(2)} |` : ''}`,
    );
}
lines.push(
    '',
    'Server CPU per measured call (µs, every thread of the server process, from /proc; medians):',
    '',
    `| scenario | ${SERVERS.join(' | ')} | ours ÷ sdk2 | noise (twin ÷ ours − 1) |${WITH_BASE ? ' ours ÷ base |' : ''}`,
    `| --- | ${SERVERS.map(() => '---').join(' | ')} | --- | --- |${WITH_BASE ? ' --- |' : ''}`,
);
for (const scenario of ONLY) {
    const figures = Object.fromEntries(
        SERVERS.map((server) => [server, median(cpuSamples[scenario][server])]),
    );
    const noise = figures.twin === undefined ? Number.NaN : figures.twin / figures.ours - 1;
    lines.push(
        `| ${scenario} | ${SERVERS.map((server) => figures[server].toFixed(1)).join(' | ')} | ${(figures.ours / figures.sdk2).toFixed(2)} | ${Number.isNaN(noise) ? 'n/a' : `${(noise * 100).toFixed(1)} %`} |${WITH_BASE ? ` ${(figures.ours / figures.base).toFixed(2)} |` : ''}`,
    );
}
const report = `${lines.join('\n')}\n`;
process.stdout.write(report);
await mkdir(RESULTS, {recursive: true});
await writeFile(`${RESULTS}http-${stamp}.md`, report);
await writeFile(
    `${RESULTS}http-${stamp}.json`,
    `${JSON.stringify({rates: samples, cpuPerCall: cpuSamples}, null, 2)}\n`,
);
