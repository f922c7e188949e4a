/**
 * The first fan-out of a fresh server, alone: spawn, `initialize`, 10,000 `sleep 50` written at
 * once, the wall time until the last answer and the server's CPU inside that window (every thread,
 * and the main thread apart), then EOF. Also the start-up (ms to the initialize result, and the
 * CPU ms of every thread until then) and the RSS (MiB) when the fan-out is written. Nothing else runs in the process, so each sample costs
 * about a second instead of the full fan-out scenario's four fan-outs. Prints each figure's median,
 * its ratio to floor+signal's median, and the median of the rounds' own ratios to floor+signal.
 *
 * Usage: node bench/cold.mjs [--node <major>]
 * Environment: COLD_ROUNDS (default 9; the order alternates, A B C then C B A),
 * COLD_SERVERS (default `ours,twin,sigfloor`; `base` with BENCH_BASE), COLD_NODE_ARGS (extra
 * node flags for every server), COLD_PROF=<dir> (servers
 * write --cpu-prof profiles to <dir>/<server>/: the profile holds start-up too, so read it with
 * profile-summary.mjs, which reports start-up apart).
 */
import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from '../scripts/node-binary.mjs';
import {Connection, toolCall} from './client.mjs';
import {GC_HOOK} from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const servers = {
    ours: {file: join(here, 'servers/ours.mjs')},
    base: {file: join(here, 'servers/base.mjs')},
    sigfloor: {file: join(here, 'servers/floor.mjs'), args: ['--signal']},
    twin: {file: join(here, 'servers/ours.mjs')},
};
const rounds = Number(process.env.COLD_ROUNDS ?? 9);
const chosen = (process.env.COLD_SERVERS ?? 'ours,twin,sigfloor').split(',');
const nodeIndex = process.argv.indexOf('--node');
const major = nodeIndex === -1 ? undefined : Number(process.argv[nodeIndex + 1]);
const node = major === undefined ? process.execPath : await nodeBinary(major);
const CALLS = 10000;
const extraArgs = process.env.COLD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** CPU ns of the child: every thread, and its main thread (the task whose id is its pid). */
function cpuOf(pid) {
    let all = 0;
    let main = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
        try {
            const stat = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8');
            const ns = Number(stat.slice(0, stat.indexOf(' ')));
            all += ns;
            if (Number(task) === pid) main = ns;
        } catch {
            // The thread exited between the listing and the read.
        }
    }
    return {all, main};
}

async function sample(name) {
    // As the fan-out scenario starts its servers (scenarios.mjs, GC_HOOK).
    const nodeArgs = ['--expose-gc', '--import', GC_HOOK, ...extraArgs];
    if (process.env.COLD_PROF) {
        nodeArgs.push(
            '--cpu-prof',
            '--cpu-prof-interval=100',
            `--cpu-prof-dir=${join(process.env.COLD_PROF, name)}`,
        );
    }
    const connection = new Connection({...servers[name], node, nodeArgs});
    const startup = await connection.initialize();
    let batch = '';
    for (let id = 1; id <= CALLS; id += 1) batch += toolCall(id, 'sleep', {ms: 50});
    const before = cpuOf(connection.pid);
    const idle = connection.memory().rss;
    const from = process.hrtime.bigint();
    const wall = await new Promise((resolve, reject) => {
        let done = 0;
        const t0 = performance.now();
        connection.onMessage = (message) => {
            if (message.result === undefined) reject(new Error(`cold: ${JSON.stringify(message)}`));
            done += 1;
            if (done === CALLS) resolve(performance.now() - t0);
        };
        connection.write(batch);
    });
    const after = cpuOf(connection.pid);
    const to = process.hrtime.bigint();
    const exit = await connection.close();
    if (exit.code !== 0) throw new Error(`${name} exited with ${exit.code}: ${connection.stderr}`);
    if (process.env.COLD_PROF) trimProfile(join(process.env.COLD_PROF, name), connection.pid, from, to);
    return {
        startup,
        startCpu: before.all / 1e6,
        idleRss: idle,
        wall,
        cpu: (after.all - before.all) / 1e6,
        main: (after.main - before.main) / 1e6,
        other: (after.all - after.main - (before.all - before.main)) / 1e6,
    };
}

/**
 * Keeps only the samples of the fan-out's window in the child's profile: V8 stamps samples with
 * the monotonic clock in µs, the clock of `process.hrtime` here.
 */
function trimProfile(dir, pid, from, to) {
    const file = readdirSync(dir).find((entry) => entry.includes(`.${pid}.`));
    if (file === undefined) return;
    const path = join(dir, file);
    const profile = JSON.parse(readFileSync(path, 'utf8'));
    const start = Number(from / 1000n);
    const end = Number(to / 1000n);
    const samples = [];
    const deltas = [];
    let at = profile.startTime;
    for (let index = 0; index < profile.samples.length; index += 1) {
        at += profile.timeDeltas[index];
        if (at < start || at > end) continue;
        samples.push(profile.samples[index]);
        deltas.push(samples.length === 1 ? 0 : profile.timeDeltas[index]);
    }
    profile.samples = samples;
    profile.timeDeltas = deltas;
    writeFileSync(path, JSON.stringify(profile));
}

const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const samples = Object.fromEntries(chosen.map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? chosen : [...chosen].reverse();
    for (const name of order) samples[name].push(await sample(name));
}
const keys = ['wall', 'cpu', 'main', 'other', 'startup', 'startCpu', 'idleRss'];
const rows = chosen.map((name) => [
    name,
    ...keys.map((key) => median(samples[name].map((entry) => entry[key]))),
]);
process.stdout.write(
    `node ${major ?? process.versions.node}, ${rounds} rounds, medians (ms): ${keys.join(' ')}\n`,
);
for (const [name, ...values] of rows)
    process.stdout.write(
        `${name.padEnd(9)} ${values.map((value) => value.toFixed(1).padStart(7)).join(' ')}\n`,
    );
const reference = rows.find(([name]) => name === 'sigfloor');
if (reference !== undefined) {
    process.stdout.write('÷ sigfloor:\n');
    for (const [name, ...values] of rows) {
        process.stdout.write(
            `${name.padEnd(9)} ${values.map((value, index) => (value / reference[index + 1]).toFixed(3).padStart(7)).join(' ')}\n`,
        );
    }
}
if (reference !== undefined) {
    // Each round's samples are adjacent in time, so the ratio of one round's pair drifts less with
    // the machine's load than the ratio of two medians taken over the whole run.
    process.stdout.write("paired ÷ sigfloor (median of the rounds' ratios):\n");
    for (const name of chosen) {
        const ratios = keys.map((key) =>
            median(samples[name].map((entry, round) => entry[key] / samples.sigfloor[round][key])),
        );
        process.stdout.write(
            `${name.padEnd(9)} ${ratios.map((value) => value.toFixed(3).padStart(7)).join(' ')}\n`,
        );
    }
}
