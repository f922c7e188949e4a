/**
 * `npm run bench:client`: our client (`arcane-os/mcp/client`) beside the official SDK clients, v2
 * (`@modelcontextprotocol/client`) and v1 (`@modelcontextprotocol/sdk`), each over its own stdio
 * transport to the same server (servers/ours.mjs), each in a fresh driver process of its own
 * (client-driver.mjs) per scenario and round, in alternating order; `twin` is ours again, the
 * noise check; `floor` is the least a stdio client can do (see client-driver.mjs). Prints and saves a markdown report under bench/results/ (`client-<stamp>.md`, raw
 * samples in `.json`).
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_ONLY (`sequential,pipelined`), BENCH_CLIENTS
 * (`ours,sdk2,sdk1,floor,twin`, plus `base` with BENCH_BASE: the client of an earlier build from
 * build-base.mjs, for an A/B of one change), CLIENT_IN_FLIGHT (pipelined, default 256), BENCH_PIN=0 (run the
 * sequential scenario unpinned; by default each of its drivers and its server share one CPU, see
 * pin.mjs), BENCH_PROF=1 (drivers write --cpu-prof profiles to
 * bench/results/prof-client/<stamp>/<scenario>/<client>/; they slow the clients: for finding
 * costs, not for figures). Target: ours ≥ 2 × SDK v2 throughput in each scenario.
 */
import {execFile} from 'node:child_process';
import {mkdir, writeFile} from 'node:fs/promises';
import {cpus} from 'node:os';
import {join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {fileURLToPath} from 'node:url';

const DRIVER = fileURLToPath(new URL('./client-driver.mjs', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SCENARIOS = (process.env.BENCH_ONLY ?? 'sequential,pipelined').split(',');
const KNOWN = ['ours', 'base', 'sdk2', 'sdk1', 'floor', 'twin'];
const CLIENTS = (process.env.BENCH_CLIENTS ?? 'ours,sdk2,sdk1,floor,twin').split(',');
const TARGET = 2;
const stamp = new Date().toISOString().replace(/[:.]/g, '-');

for (const scenario of SCENARIOS)
    if (scenario !== 'sequential' && scenario !== 'pipelined')
        throw new RangeError(`bench/client-bench.mjs: no scenario ${scenario} (sequential, pipelined)`);
for (const client of CLIENTS)
    if (!KNOWN.includes(client))
        throw new RangeError(`bench/client-bench.mjs: no client ${client} (${KNOWN.join(', ')})`);
if (CLIENTS.includes('base') && process.env.BENCH_BASE === undefined)
    throw new RangeError(
        'bench/client-bench.mjs: the client base needs BENCH_BASE (node bench/build-base.mjs <rev>)',
    );

/** `taskset` pins the whole driver (and so the server it spawns) to the last CPU, when it can. */
const pinTo =
    process.env.BENCH_PIN === '0' || process.platform !== 'linux' ? undefined : String(cpus().length - 1);

function runDriver(client, scenario) {
    const nodeArgs = process.env.BENCH_PROF
        ? [
              '--cpu-prof',
              '--cpu-prof-interval=100',
              `--cpu-prof-dir=${join(RESULTS, 'prof-client', stamp, scenario, client)}`,
          ]
        : [];
    const command = [process.execPath, ...nodeArgs, DRIVER, client === 'twin' ? 'ours' : client, scenario];
    const pinned = scenario === 'sequential' && pinTo !== undefined;
    const [file, ...args] = pinned ? ['taskset', '-c', pinTo, ...command] : command;
    return new Promise((resolve, reject) => {
        execFile(file, args, {maxBuffer: 1 << 20}, (error, stdout, stderr) => {
            if (error) reject(new Error(`${client} ${scenario}: ${error.message}\n${stderr}`));
            else resolve(JSON.parse(stdout));
        });
    });
}

const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const began = performance.now();
/** samples[scenario][client] = [{rate, cpuPerCall, firstResultMs, importMs}, …] */
const samples = {};
for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? CLIENTS : [...CLIENTS].reverse();
    for (const scenario of SCENARIOS) {
        for (const client of order) {
            const run = await runDriver(client, scenario);
            const sample = {
                rate: run.calls / run.seconds,
                cpuPerCall: run.cpuUs / run.calls,
                firstResultMs: run.firstResultMs,
                importMs: run.importMs,
            };
            samples[scenario] ??= {};
            samples[scenario][client] ??= [];
            samples[scenario][client].push(sample);
            process.stderr.write(
                `round ${round + 1}/${ROUNDS} ${scenario} ${client}: ${sample.rate.toFixed(0)} req/s, ` +
                    `${sample.cpuPerCall.toFixed(1)} µs CPU a call, first result ${sample.firstResultMs.toFixed(1)} ms\n`,
            );
        }
    }
}

const NAMES = {
    ours: 'ours',
    base: 'base',
    twin: 'ours′ (same code)',
    sdk2: 'SDK v2',
    sdk1: 'SDK v1',
    floor: 'floor',
};
const figure = (scenario, client, key) => median(samples[scenario][client].map((sample) => sample[key]));
/** Connect to first result and import time: every driver of every scenario is one sample. */
const acrossScenarios = (client, key) =>
    median(SCENARIOS.flatMap((scenario) => samples[scenario][client].map((sample) => sample[key])));
const format = (value) =>
    value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

const rows = [];
for (const scenario of SCENARIOS) {
    const inFlight = scenario === 'sequential' ? 1 : Number(process.env.CLIENT_IN_FLIGHT ?? 256);
    rows.push([
        `${scenario} echo throughput (${inFlight} in flight)`,
        'req/s',
        (c) => figure(scenario, c, 'rate'),
    ]);
    rows.push([`client CPU per ${scenario} call`, 'µs', (c) => figure(scenario, c, 'cpuPerCall')]);
}
rows.push(['spawn to first tools/call result', 'ms', (c) => acrossScenarios(c, 'firstResultMs')]);
rows.push(['import of the client module', 'ms', (c) => acrossScenarios(c, 'importMs')]);

const lines = [
    `# Client bench, ${new Date().toISOString()}, ${((performance.now() - began) / 1000).toFixed(0)} s`,
    '',
    `Node ${process.version}, ${cpus().length} CPUs, ${ROUNDS} rounds, server servers/ours.mjs; ` +
        `sequential ${pinTo === undefined ? 'unpinned' : `pinned to CPU ${pinTo}`}; medians. ` +
        'Client CPU is the driver process its own (user + system), the server not included.',
    '',
    `| figure | unit | ${CLIENTS.map((c) => NAMES[c]).join(' | ')} |`,
    `| --- | --- | ${CLIENTS.map(() => '---:').join(' | ')} |`,
];
for (const [label, unit, value] of rows)
    lines.push(`| ${label} | ${unit} | ${CLIENTS.map((c) => format(value(c))).join(' | ')} |`);

if (CLIENTS.includes('ours')) {
    lines.push(
        '',
        '| ratio | ours | ours′ (same code) | noise (ours′ ÷ ours − 1) | verdict |',
        '| --- | ---: | ---: | ---: | --- |',
    );
    const twin = CLIENTS.includes('twin');
    const ratio = (label, value, better, target) => {
        const ours = value('ours');
        const again = twin ? value('twin') : Number.NaN;
        const noise = again / ours - 1;
        const verdict =
            target === undefined
                ? ''
                : `${(better === 'higher' ? ours >= target : ours <= target) ? 'met' : '**missed**'}` +
                  `${Math.abs(ours - target) < Math.abs(noise) * ours ? ', within noise' : ''}`;
        lines.push(
            `| ${label} | ${ours.toFixed(2)} | ${twin ? again.toFixed(2) : 'n/a'} | ${twin ? `${(noise * 100).toFixed(1)} %` : 'n/a'} | ${verdict} |`,
        );
    };
    for (const sdk of ['sdk2', 'sdk1', 'base', 'floor'].filter((c) => CLIENTS.includes(c))) {
        for (const scenario of SCENARIOS) {
            ratio(
                `${scenario} throughput ÷ ${NAMES[sdk]}${sdk === 'sdk2' ? ` (target ≥ ${TARGET})` : ''}`,
                (c) => figure(scenario, c, 'rate') / figure(scenario, sdk, 'rate'),
                'higher',
                sdk === 'sdk2' ? TARGET : undefined,
            );
            ratio(
                `client CPU per ${scenario} call ÷ ${NAMES[sdk]}`,
                (c) => figure(scenario, c, 'cpuPerCall') / figure(scenario, sdk, 'cpuPerCall'),
                'lower',
            );
        }
        ratio(
            `spawn to first result ÷ ${NAMES[sdk]}`,
            (c) => acrossScenarios(c, 'firstResultMs') / acrossScenarios(sdk, 'firstResultMs'),
            'lower',
        );
    }
}

const report = `${lines.join('\n')}\n`;
process.stdout.write(report);
await mkdir(RESULTS, {recursive: true});
await writeFile(join(RESULTS, `client-${stamp}.md`), report);
await writeFile(join(RESULTS, `client-${stamp}.json`), `${JSON.stringify(samples, null, 2)}\n`);
process.stdout.write(`Saved bench/results/client-${stamp}.md\n`);
