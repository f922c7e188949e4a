/**
 * `npm run bench`: runs every scenario against our adapter, the official SDK server and the floor,
 * alternating their order over rounds (A B C, C B A, …), then prints and saves a markdown report
 * under bench/results/.
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_ONLY (comma-separated scenarios),
 * BENCH_SERVERS (comma-separated servers), BENCH_NODE_ARGS (extra node flags for every server),
 * BENCH_BASE (path of an earlier build from build-base.mjs, run as a fourth server `base`),
 * BENCH_PROF=1 (children run with --cpu-prof into
 * bench/results/prof/).
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import {cpus} from 'node:os';
import {dirname, join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {fileURLToPath} from 'node:url';
import {buildReport} from './report.mjs';
import {big, cancelStorm, counts, fanOut, pipelined, sequential} from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const servers = {
    ours: join(here, 'servers/ours.mjs'),
    sdk: join(here, 'servers/sdk.mjs'),
    floor: join(here, 'servers/floor.mjs'),
};
if (process.env.BENCH_BASE) servers.base = join(here, 'servers/base.mjs');
const scenarios = {sequential, pipelined, fanOut, big, cancelStorm};

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const only = process.env.BENCH_ONLY?.split(',') ?? Object.keys(scenarios);
const chosen = process.env.BENCH_SERVERS?.split(',') ?? Object.keys(servers);
const resultsDir = join(here, 'results');
const nodeArgs = [
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...(process.env.BENCH_PROF
        ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${join(resultsDir, 'prof')}`]
        : []),
];

const samples = {};
const orders = [];
const began = performance.now();
for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [...chosen] : [...chosen].reverse();
    orders.push(order.join(' '));
    for (const name of only) {
        const scenario = scenarios[name];
        if (scenario === undefined) throw new Error(`unknown scenario ${name}`);
        const results = {};
        if (scenario.together) {
            Object.assign(
                results,
                await scenario(
                    order.map((server) => ({name: server, file: servers[server]})),
                    nodeArgs,
                ),
            );
        } else {
            for (const server of order) results[server] = await scenario(servers[server], nodeArgs);
        }
        for (const server of order) {
            const result = results[server];
            samples[server] ??= {};
            for (const [key, value] of Object.entries(result)) {
                samples[server][key] ??= [];
                samples[server][key].push(value);
            }
            process.stderr.write(
                `round ${round + 1}/${rounds} ${name} ${server}: ${Object.entries(result)
                    .map(([key, value]) => `${key}=${Number(value.toFixed(2))}`)
                    .join(' ')}\n`,
            );
        }
    }
}

const date = new Date().toISOString();
const {markdown, summary} = buildReport(samples, {
    date,
    rounds,
    orders,
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    seconds: (performance.now() - began) / 1000,
    counts,
});
mkdirSync(resultsDir, {recursive: true});
const stamp = date.replace(/[:.]/g, '-');
writeFileSync(join(resultsDir, `${stamp}.md`), `${markdown}\n`);
writeFileSync(join(resultsDir, `${stamp}.json`), `${JSON.stringify({samples, summary}, null, 2)}\n`);
process.stdout.write(`${markdown}\nSaved bench/results/${stamp}.md\n`);
