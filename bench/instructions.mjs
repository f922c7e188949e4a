/**
 * Machine instructions per call, counted by valgrind, for a workload that does not depend on time:
 * each round writes 10,000 `sleep` calls that never fire and then a cancel for each, until every
 * call has ended. Servers run in process (as in inproc.mjs), under V8's `--predictable` (no
 * concurrent compilation or collection, fixed seeds) with address-space randomisation off, so the
 * same build counts the same to within about 0.01 %, where the timed benches move by 5–20 % on a
 * shared machine. A count is not a time (an instruction that misses the cache costs more than one
 * that does not), so decide with it, and confirm a kept change with the timed benches.
 *
 * - cold: the first round of a fresh process (a process that runs one round, minus one that runs
 *   none): what a new session's first burst costs, intake on a cold JIT included;
 * - warm: the fourth round minus the third, each round after a full collection (as is the first,
 *   so that start-up garbage is not counted against it).
 *
 * Each figure takes two processes under valgrind (30–60 s each); they run two at a time.
 * Needs valgrind (Debian: `apt-get install valgrind`) and setarch (util-linux).
 *
 * Usage: node bench/instructions.mjs [--node <major>]
 * Environment: INSTR_SERVERS (default `ours,sigfloor`; `base` with BENCH_BASE, as in run.mjs).
 */
import {execFile} from 'node:child_process';
import {PassThrough, Writable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {nodeBinary} from '../scripts/node-binary.mjs';
import {cancelled, toolCall} from './client.mjs';
import {chunksOf, startInProcess} from './inproc-server.mjs';

const CALLS = 10000;

if (process.argv[2] === '--child') {
    await child(process.argv[3], Number(process.argv[4]));
} else {
    await parent();
}

async function parent() {
    const index = process.argv.indexOf('--node');
    const node = index === -1 ? process.execPath : await nodeBinary(Number(process.argv[index + 1]));
    const servers = (process.env.INSTR_SERVERS ?? 'ours,sigfloor').split(',');
    const run = promisify(execFile);
    /** Instructions of one child process running `rounds` rounds. */
    const count = async (server, rounds) => {
        const args = ['-R', 'valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null'];
        args.push('--cache-sim=no', '--branch-sim=no', node, '--predictable', '--expose-gc');
        args.push(fileURLToPath(import.meta.url), '--child', server, String(rounds));
        const {stderr} = await run('setarch', args, {maxBuffer: 1 << 24});
        const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
        if (refs === null) throw new Error(`instructions: no count from valgrind for ${server}:\n${stderr}`);
        return Number(refs[1].replaceAll(',', ''));
    };
    const jobs = [];
    for (const server of servers) {
        for (const rounds of [0, 1, 3, 4]) jobs.push({server, rounds});
    }
    const counts = new Map();
    // Two at a time: this machine has two cores, and a count does not depend on load.
    const next = async () => {
        for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
            counts.set(`${job.server} ${job.rounds}`, await count(job.server, job.rounds));
        }
    };
    await Promise.all([next(), next()]);
    const perCall = (server, from, to) =>
        (counts.get(`${server} ${to}`) - counts.get(`${server} ${from}`)) / CALLS;
    const rows = servers.map((server) => [server, perCall(server, 0, 1), perCall(server, 3, 4)]);
    const version = (await run(node, ['--version'])).stdout.trim();
    process.stdout.write(`node ${version}, instructions per call and cancel: cold, warm\n`);
    const reference = rows.find(([server]) => server === 'sigfloor');
    for (const [server, cold, warm] of rows) {
        const ratios =
            reference === undefined
                ? ''
                : `   ÷ sigfloor ${(cold / reference[1]).toFixed(3)} ${(warm / reference[2]).toFixed(3)}`;
        process.stdout.write(
            `${server.padEnd(9)} ${Math.round(cold).toLocaleString('en-US').padStart(9)} ${Math.round(warm).toLocaleString('en-US').padStart(9)}${ratios}\n`,
        );
    }
}

/** One server in process: `rounds` rounds of 10,000 pending calls and their cancels. */
async function child(server, rounds) {
    const input = new PassThrough();
    let answered = 0;
    const output = new Writable({
        write(chunk, _encoding, callback) {
            for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) answered += 1;
            callback();
        },
    });
    const error = new Writable({write: (_chunk, _encoding, callback) => callback()});
    const settled = await startInProcess(server, {input, output, error});
    const hello = {name: 'count', version: '1'};
    const params = {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: hello};
    input.write(`${JSON.stringify({jsonrpc: '2.0', id: 0, method: 'initialize', params})}\n`);
    while (answered < 1) await new Promise((resolve) => setImmediate(resolve));
    globalThis.gc();
    for (let round = 0; round < rounds; round += 1) {
        if (round > 0) globalThis.gc();
        const first = 1 + round * CALLS;
        for (const chunk of chunksOf(CALLS, first, (id) => toolCall(id, 'sleep', {ms: 600000})))
            input.write(chunk);
        await new Promise((resolve) => setImmediate(resolve));
        for (const chunk of chunksOf(CALLS, first, cancelled)) input.write(chunk);
        await settled();
    }
    // Whatever a server left behind (its listeners, the floor's pending map) does not end the count.
    process.exit(0);
}
