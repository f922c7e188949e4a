/**
 * The scenarios. Each spawns a fresh server, opens it (initialize, or the modern discover probe),
 * measures, and closes its stdin. Every figure comes back as a plain number in the unit the report
 * names. A server is `{name, file, args, env, node, nodeArgs}` (see `Connection`).
 */
import {performance} from 'node:perf_hooks';
import {fileURLToPath} from 'node:url';
import {Connection, cancelled, delay, MODERN_META, modernToolCall, toolCall} from './client.mjs';
import {RESOURCE_URI} from './handlers.mjs';
import {median} from './report.mjs';

export const counts = {
    sequentialWarm: 15000,
    sequential: 3000,
    sequentialBlock: 100,
    pipelinedWarm: 5000,
    pipelined: 40000,
    window: 256,
    fanOut: 10000,
    fanOutMs: 50,
    fanOutMeasured: 3,
    bigBytes: 4 * 1024 * 1024,
    bigWarm: 2,
    big: 12,
    storm: 5000,
};

const now = () => performance.now();

/** The preload that lets the cancel storm ask a server to collect its garbage first (gc-hook.mjs). */
export const GC_HOOK = fileURLToPath(new URL('./gc-hook.mjs', import.meta.url));

function percentile(sorted, p) {
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export function latencyFigures(latencies, wallMs) {
    const sorted = Float64Array.from(latencies).sort();
    return {
        rps: (latencies.length / wallMs) * 1000,
        p50: percentile(sorted, 0.5) * 1000,
        p99: percentile(sorted, 0.99) * 1000,
    };
}

function expectResult(message, what) {
    if (message.result === undefined || message.result.isError) {
        throw new Error(`${what}: unexpected response ${JSON.stringify(message).slice(0, 300)}`);
    }
}

/** `count` requests with at most `window` in flight; resolves with each request's latency (ms). */
export function pipeline(connection, firstId, count, window, make) {
    return new Promise((resolve, reject) => {
        const sentAt = new Float64Array(count);
        const latencies = new Float64Array(count);
        let sent = 0;
        let done = 0;
        const refill = () => {
            let batch = '';
            const t = now();
            while (sent < count && sent - done < window) {
                sentAt[sent] = t;
                batch += make(firstId + sent);
                sent += 1;
            }
            if (batch !== '') connection.write(batch);
        };
        connection.onMessage = (message) => {
            const index = message.id - firstId;
            if (!(index >= 0 && index < count) || message.result === undefined) {
                reject(new Error(`unexpected response ${JSON.stringify(message).slice(0, 300)}`));
                return;
            }
            latencies[index] = now() - sentAt[index];
            done += 1;
        };
        connection.afterChunk = () => {
            if (done === count) {
                connection.afterChunk = undefined;
                connection.onMessage = () => {};
                resolve(latencies);
                return;
            }
            refill();
        };
        refill();
    });
}

export async function open(server) {
    const connection = new Connection(server);
    const startup = await connection.initialize();
    return {connection, startup};
}

export async function finish(connection, result) {
    const exit = await connection.close();
    if (exit.code !== 0) {
        throw new Error(`server exited with ${exit.code ?? exit.signal}; stderr: ${connection.stderr}`);
    }
    return result;
}

/**
 * Start-up, a catalog check and idle RSS for each server, then echo with one request in flight.
 * Latency this small is at the mercy of whatever else runs on the machine, so the servers are
 * started together and take turns in blocks of `sequentialBlock` calls (A B C, C B A, …): a burst
 * of load elsewhere lands on all of them alike.
 */
export async function sequential(servers) {
    const running = [];
    for (const server of servers) {
        const name = server.name;
        const {connection, startup} = await open(server);
        const list = await connection.request(1, 'tools/list', {});
        const names = list.result.tools.map((tool) => tool.name).sort();
        if (names.join() !== 'big,echo,sleep') throw new Error(`tools/list: ${JSON.stringify(list)}`);
        const read = await connection.request(2, 'resources/read', {uri: RESOURCE_URI});
        expectResult(read, 'resources/read');
        running.push({name, connection, startup, latencies: [], wall: 0, cpu: 0});
    }
    await delay(200);
    for (const server of running) server.idleRss = server.connection.memory().rss;
    const make = (id) => toolCall(id, 'echo', {text: `hello ${id}`});
    for (const server of running) {
        await pipeline(server.connection, 10, counts.sequentialWarm, 1, make);
    }
    const blocks = Math.ceil(counts.sequential / counts.sequentialBlock);
    for (let block = 0; block < blocks; block += 1) {
        const order = block % 2 === 0 ? running : [...running].reverse();
        for (const server of order) {
            const cpu0 = server.connection.cpuMicros();
            const t0 = now();
            const firstId = 1e6 + block * counts.sequentialBlock;
            server.latencies.push(
                ...(await pipeline(server.connection, firstId, counts.sequentialBlock, 1, make)),
            );
            server.wall += now() - t0;
            server.cpu += server.connection.cpuMicros() - cpu0;
        }
    }
    const results = {};
    for (const server of running) {
        const figures = latencyFigures(server.latencies, server.wall);
        results[server.name] = await finish(server.connection, {
            startup: server.startup,
            idleRss: server.idleRss,
            seqRps: figures.rps,
            seqP50: figures.p50,
            seqP99: figures.p99,
            seqCpuPerCall: server.cpu / server.latencies.length,
        });
    }
    return results;
}
sequential.together = true;

/** Echo with `window` requests in flight; server CPU per call over the measured calls. */
export async function pipelined(server) {
    const {connection, startup} = await open(server);
    const make = (id) => toolCall(id, 'echo', {text: `hello ${id}`});
    return finish(connection, {startup, ...(await echoFigures(connection, make, 'pipe', 'cpuPerCall'))});
}

/**
 * The same pipelined echo in the 2026-07-28 era: no initialize; a `server/discover` probe, then
 * every request carries the per-request `_meta`. A server that answers the probe with an error
 * does not serve that era: its figures are NaN and `modernServed` is 0.
 */
export async function modernPipelined(server) {
    const connection = new Connection({...server, env: {...server.env, BENCH_ERA: 'modern'}});
    const {startup, supported} = await connection.discover();
    if (!supported) return finish(connection, {modernServed: 0});
    const make = (id) => modernToolCall(id, 'echo', {text: `hello ${id}`});
    const first = await connection.request(1, 'tools/call', {
        name: 'echo',
        arguments: {text: 'modern'},
        _meta: JSON.parse(MODERN_META),
    });
    // A 2026-07-28 result: `resultType`, the server's identity in `_meta`, the handler's content.
    const identity = first.result?._meta?.['io.modelcontextprotocol/serverInfo'];
    if (
        first.result?.resultType !== 'complete' ||
        typeof identity?.name !== 'string' ||
        first.result.content?.[0]?.text !== 'modern'
    ) {
        throw new Error(`modern tools/call: not a 2026-07-28 result: ${JSON.stringify(first)}`);
    }
    const figures = await echoFigures(connection, make, 'modern', 'modernCpuPerCall');
    return finish(connection, {modernServed: 1, modernStartup: startup, ...figures});
}

/** Warm-up, then the measured pipelined calls; figure keys start with `prefix`. */
async function echoFigures(connection, make, prefix, cpuKey) {
    await pipeline(connection, 10, counts.pipelinedWarm, counts.window, make);
    const cpu0 = connection.cpuMicros();
    const t0 = now();
    const latencies = await pipeline(connection, 1e6, counts.pipelined, counts.window, make);
    const wall = now() - t0;
    const cpu = connection.cpuMicros() - cpu0;
    const figures = latencyFigures(latencies, wall);
    return {
        [`${prefix}Rps`]: figures.rps,
        [`${prefix}P50`]: figures.p50,
        [`${prefix}P99`]: figures.p99,
        [cpuKey]: cpu / counts.pipelined,
        [`${prefix}PeakRss`]: connection.memory().hwm,
    };
}

/**
 * Every sleep written at once; wall time until the last answer. The first fan-out, in a fresh
 * process, gives the cold wall time (intake on a JIT that has seen only the handshake: what the
 * first burst of a new session costs) and the peak RSS (`VmHWM` since start, as every peak RSS
 * figure here): the memory it takes to hold the calls. It also warms the server up, so the time figures come from the
 * `fanOutMeasured` fan-outs after it, each after a scavenge in the server (gc-hook.mjs): the
 * medians of a server past its JIT warm-up, as the echo scenarios' are.
 */
export async function fanOut(server) {
    const {connection, startup} = await open(server);
    const run = (first) => {
        let batch = '';
        for (let id = first; id < first + counts.fanOut; id += 1)
            batch += toolCall(id, 'sleep', {ms: counts.fanOutMs});
        let done = 0;
        return new Promise((resolve, reject) => {
            const t0 = now();
            connection.onMessage = (message) => {
                if (message.result === undefined) reject(new Error(`fan-out: ${JSON.stringify(message)}`));
                done += 1;
                if (done === counts.fanOut) resolve(now() - t0);
            };
            connection.write(batch);
        });
    };
    const coldMs = await run(1);
    const peakRss = connection.memory().hwm;
    const walls = [];
    const cpus = [];
    for (let index = 1; index <= counts.fanOutMeasured; index += 1) {
        await collectGarbage(connection, server);
        const cpu0 = connection.cpuMicros();
        walls.push(await run(1 + index * counts.fanOut));
        cpus.push((connection.cpuMicros() - cpu0) / counts.fanOut);
    }
    return finish(connection, {
        startup,
        fanOutColdMs: coldMs,
        fanOutMs: median(walls),
        fanOutCpuPerCall: median(cpus),
        fanOutPeakRss: peakRss,
    });
}

/**
 * Asks a server started with the gc hook to scavenge its young generation, and gives it the time
 * to (the hook runs on a signal, so nothing answers when it is done). The pause is taken with or
 * without the hook: the storm relies on it to let every handler start.
 */
async function collectGarbage(connection, server) {
    if (server.nodeArgs.includes(GC_HOOK)) connection.child.kill('SIGUSR2');
    await delay(50);
}

/** 4 MiB results, one in flight. */
export async function big(server) {
    const {connection, startup} = await open(server);
    const make = (id) => toolCall(id, 'big', {bytes: counts.bigBytes});
    await pipeline(connection, 10, counts.bigWarm, 1, make);
    const t0 = now();
    const sample = await connection.request(99, 'tools/call', {
        name: 'big',
        arguments: {bytes: counts.bigBytes},
    });
    if (sample.result?.content[0].text.length !== counts.bigBytes) throw new Error('big: wrong result size');
    await pipeline(connection, 1e6, counts.big - 1, 1, make);
    const wall = now() - t0;
    const mib = (counts.big * counts.bigBytes) / (1024 * 1024);
    return finish(connection, {startup, bigMiBps: mib / (wall / 1000)});
}

/**
 * Long sleeps, all cancelled at once, then EOF: time until the server has exited. A first storm of
 * the same size, not measured and closed by a ping (answered after every cancel was read), warms
 * the cancellation path up, as the fan-out's first round does.
 */
export async function cancelStorm(server) {
    const {connection, startup} = await open(server);
    const storm = (first) => {
        let batch = '';
        let cancels = '';
        for (let id = first; id < first + counts.storm; id += 1) {
            batch += toolCall(id, 'sleep', {ms: 120000});
            cancels += cancelled(id);
        }
        return {batch, cancels};
    };
    let answered = 0;
    let pinged;
    connection.onMessage = (message) => {
        if (message.method === undefined && message.id > 2 * counts.storm) pinged?.(message.id);
        else if (message.id >= 1 && message.id <= 2 * counts.storm) answered += 1;
    };
    const ping = (id) => {
        const done = new Promise((resolve) => {
            pinged = (answeredId) => {
                if (answeredId === id) resolve();
            };
        });
        connection.write(`{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`);
        return done;
    };
    const warm = storm(1);
    connection.write(warm.batch);
    await ping(2 * counts.storm + 1);
    connection.write(warm.cancels);
    await ping(2 * counts.storm + 2);
    const measured = storm(1 + counts.storm);
    connection.write(measured.batch);
    await ping(2 * counts.storm + 3);
    // Every server starts the storm with an empty young generation (gc-hook.mjs); the pause also lets
    // every handler start (the SDK dispatches a request a few microtasks after reading it).
    await collectGarbage(connection, server);
    const t0 = now();
    connection.write(measured.cancels);
    const exit = await connection.close(20000);
    const quiet = exit.at - t0;
    if (exit.code !== 0)
        throw new Error(`cancel storm: exit ${exit.code ?? exit.signal}; ${connection.stderr}`);
    return {startup, stormQuietMs: quiet, stormAnswered: answered};
}
