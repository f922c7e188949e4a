/**
 * `npm run bench`: runs every scenario against our adapter (twice: `ours` and its same-code twin,
 * the noise check), the official SDK servers v1 and v2, and the two floors, alternating their order
 * over rounds (A B C …, then … C B A), under one or more Node majors; then prints and saves a
 * markdown report under bench/results/.
 *
 * Options: `--node <major>|<major,major…>|all` (or BENCH_NODE): the Node major(s) the servers run
 * under, from scripts/node-binary.mjs (default: the node running this script). The driver itself
 * always runs under the node that started it, so it is the same for every major.
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_ONLY (comma-separated scenarios),
 * BENCH_SERVERS (comma-separated servers), BENCH_NODE_ARGS (extra node flags for every server),
 * BENCH_BASE (path of an earlier build from build-base.mjs, run as the server `base`),
 * BENCH_PROF=1 (servers write --cpu-prof profiles to
 * bench/results/prof/<stamp>/node<major>/<scenario>/<server>/), BENCH_ALLOC_PROF=1 (servers write
 * allocation profiles, collected objects included, to bench/results/alloc/… the same way; see
 * alloc-prof.mjs). Profiles are for finding costs, not for figures: they slow the servers.
 * BENCH_PIN=0: run the sequential scenario unpinned (by default the driver and its servers share
 * one CPU for it; see pin.mjs).
 */
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {cpus} from 'node:os';
import {dirname, join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {fileURLToPath} from 'node:url';
import {nodeBinary, SUPPORTED_MAJORS} from '../scripts/node-binary.mjs';
import {pinned} from './pin.mjs';
import {buildReport, buildSummary} from './report.mjs';
import {
    big,
    cancelStorm,
    counts,
    fanOut,
    GC_HOOK,
    modernPipelined,
    pipelined,
    sequential,
} from './scenarios.mjs';
import {validated} from './validated-scenario.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** Every server, in the default order of a round. */
const servers = {
    ours: {file: join(here, 'servers/ours.mjs')},
    ...(process.env.BENCH_BASE ? {base: {file: join(here, 'servers/base.mjs')}} : {}),
    sdk: {file: join(here, 'servers/sdk.mjs')},
    floor: {file: join(here, 'servers/floor.mjs')},
    sdk2: {file: join(here, 'servers/sdk2.mjs')},
    sigfloor: {file: join(here, 'servers/floor.mjs'), args: ['--signal']},
    twin: {file: join(here, 'servers/ours.mjs')},
};
const scenarios = {sequential, pipelined, modern: modernPipelined, validated, fanOut, big, cancelStorm};

function option(flag, variable) {
    const index = process.argv.indexOf(flag);
    if (index !== -1) return process.argv[index + 1];
    return process.env[variable];
}

function majorsOf(text) {
    if (text === undefined) return [undefined];
    if (text === 'all') return [...SUPPORTED_MAJORS];
    return text.split(',').map((major) => {
        const number = Number(major);
        if (!SUPPORTED_MAJORS.includes(number)) {
            throw new RangeError(
                `bench: --node ${major}: choose one of ${SUPPORTED_MAJORS.join(', ')}, a comma-separated list, or all`,
            );
        }
        return number;
    });
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const only = process.env.BENCH_ONLY?.split(',') ?? Object.keys(scenarios);
const chosen = process.env.BENCH_SERVERS?.split(',') ?? Object.keys(servers);
for (const name of only)
    if (scenarios[name] === undefined) throw new Error(`bench: unknown scenario ${name}`);
for (const name of chosen) if (servers[name] === undefined) throw new Error(`bench: unknown server ${name}`);
const majors = majorsOf(option('--node', 'BENCH_NODE'));
const resultsDir = join(here, 'results');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const extraArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** Node flags and environment of one server spawn: extra flags and the profilers asked for. */
function launchFor(major, scenario, server) {
    const nodeArgs = [...extraArgs];
    const env = {};
    const where = (kind) => join(resultsDir, kind, stamp, `node${major}`, scenario, server);
    if (scenario === 'cancelStorm' || scenario === 'fanOut')
        nodeArgs.push('--expose-gc', '--import', GC_HOOK);
    if (process.env.BENCH_PROF) {
        nodeArgs.push('--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${where('prof')}`);
    }
    if (process.env.BENCH_ALLOC_PROF) {
        nodeArgs.push('--import', join(here, 'alloc-prof.mjs'));
        env.BENCH_ALLOC_PROF_DIR = where('alloc');
    }
    return {nodeArgs, env};
}

/** Whether the sequential scenario ran pinned to one CPU ('on') or not ('off'), over all rounds. */
const pinning = new Set();

/** All rounds of every chosen scenario under one node binary: samples[server][key] = [per round]. */
async function measure(node, major) {
    const samples = {};
    const orders = [];
    for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? [...chosen] : [...chosen].reverse();
        orders.push(order.join(' '));
        for (const scenarioName of only) {
            const scenario = scenarios[scenarioName];
            const specs = order.map((name) => {
                const {nodeArgs, env} = launchFor(major, scenarioName, name);
                return {name, ...servers[name], env, node, nodeArgs};
            });
            const results = {};
            // One request in flight: where the scheduler puts each server would decide its latency.
            const unpin = scenarioName === 'sequential' ? pinned() : undefined;
            if (scenarioName === 'sequential') pinning.add(unpin === undefined ? 'off' : 'on');
            try {
                if (scenario.together) Object.assign(results, await scenario(specs));
                else for (const spec of specs) results[spec.name] = await scenario(spec);
            } finally {
                unpin?.();
            }
            for (const name of order) {
                samples[name] ??= {};
                for (const [key, value] of Object.entries(results[name])) {
                    samples[name][key] ??= [];
                    samples[name][key].push(value);
                }
                process.stderr.write(
                    `node ${major} round ${round + 1}/${rounds} ${scenarioName} ${name}: ${Object.entries(
                        results[name],
                    )
                        .map(([key, value]) => `${key}=${Number(value.toFixed(2))}`)
                        .join(' ')}\n`,
                );
            }
        }
    }
    return {samples, orders};
}

const runs = [];
const sections = [];
const began = performance.now();
for (const requested of majors) {
    const node = requested === undefined ? process.execPath : nodeBinary(requested);
    const nodeVersion = execFileSync(node, ['--version'], {encoding: 'utf8'}).trim();
    const major = Number(nodeVersion.slice(1).split('.')[0]);
    const started = performance.now();
    const {samples, orders} = await measure(node, major);
    const {markdown, verdicts} = buildReport(samples, {
        rounds,
        orders,
        node: nodeVersion,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        seconds: (performance.now() - started) / 1000,
        counts,
        sequentialPinned: pinning.size === 2 ? 'mixed' : [...pinning][0],
    });
    pinning.clear();
    runs.push({major, node: nodeVersion, samples, verdicts});
    sections.push(markdown);
}

const date = new Date().toISOString();
const title = `# arcane-os/mcp/stdio bench — ${date}, ${((performance.now() - began) / 1000).toFixed(0)} s`;
const parts = [title, '', ...(runs.length > 1 ? [buildSummary(runs)] : []), ...sections];
const markdown = parts.join('\n');
mkdirSync(resultsDir, {recursive: true});
writeFileSync(join(resultsDir, `${stamp}.md`), `${markdown}\n`);
writeFileSync(
    join(resultsDir, `${stamp}.json`),
    `${JSON.stringify({counts, runs: runs.map(({major, node, samples}) => ({major, node, samples}))}, null, 2)}\n`,
);
process.stdout.write(`${markdown}\nSaved bench/results/${stamp}.md\n`);
