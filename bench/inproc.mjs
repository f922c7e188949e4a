/**
 * The adapter's own cost per record, in process: each server runs over in-memory streams in a
 * child of its own (no pipes, no system calls, no other process to wake), so what is left is the
 * JavaScript, the allocations and the GC per record. The figures move far less than the
 * end-to-end ones on a shared machine, which makes this the place to A/B a micro-optimisation
 * before confirming it with `npm run bench`.
 *
 * Usage: node bench/inproc.mjs [--node <major>]
 * Environment: INPROC_ROUNDS (default 7), INPROC_ONLY (comma-separated scenarios),
 * INPROC_SERVERS (default ours,floor,sigfloor,twin; plus base with BENCH_BASE, as in run.mjs).
 *
 * Scenarios (records are fed as Buffers of 256 lines, answers counted by a Writable):
 * - echo: 100,000 echo calls after 20,000 warm-up calls; CPU ns per call;
 * - modern: the same with the 2026-07-28 per-request `_meta` (our build must serve it);
 * - fanOut: 10,000 `sleep 1` calls at once, until the last answer; CPU ns per call;
 * - cancel: 10,000 `sleep 600000` calls, then a cancel for each, until all settled; CPU ns per
 *   call-and-cancel, and the heap retained per pending call (after a full GC, all 10,000 pending);
 * - big: 20 `big 4 MiB` results one at a time; CPU ns per MiB.
 */
import {execFileSync} from 'node:child_process';
import {PassThrough, Writable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from '../scripts/node-binary.mjs';
import {cancelled, MODERN_META, modernToolCall, toolCall} from './client.mjs';
import {chunksOf, startInProcess} from './inproc-server.mjs';
import {format, median} from './report.mjs';

const SCENARIOS = ['echo', 'modern', 'fanOut', 'cancel', 'big'];
const NOT_SUPPORTED = 'n/a (not supported by this build)';

if (process.argv[2] === '--child') {
    await child(process.argv[3], process.argv[4]);
} else {
    await parent();
}

async function parent() {
    const index = process.argv.indexOf('--node');
    const node = index === -1 ? process.execPath : nodeBinary(Number(process.argv[index + 1]));
    const rounds = Number(process.env.INPROC_ROUNDS ?? 7);
    const only = process.env.INPROC_ONLY?.split(',') ?? SCENARIOS;
    const chosen =
        process.env.INPROC_SERVERS?.split(',') ??
        (process.env.BENCH_BASE
            ? ['ours', 'base', 'floor', 'sigfloor', 'twin']
            : ['ours', 'floor', 'sigfloor', 'twin']);
    const samples = {};
    /** Scenario → the servers whose build does not serve it. */
    const unsupported = {};
    for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? chosen : [...chosen].reverse();
        for (const scenario of only) {
            for (const server of order) {
                const args = ['--expose-gc', fileURLToPath(import.meta.url), '--child', server, scenario];
                if (server === 'sigfloor') args.push('--signal');
                const result = JSON.parse(execFileSync(node, args, {encoding: 'utf8', env: process.env}));
                if (result.unsupported) {
                    unsupported[scenario] ??= new Set();
                    unsupported[scenario].add(server);
                }
                for (const [key, value] of Object.entries(result)) {
                    if (key === 'unsupported') continue;
                    const figure = `${scenario} ${key}`;
                    samples[figure] ??= {};
                    samples[figure][server] ??= [];
                    samples[figure][server].push(value);
                }
                process.stderr.write(
                    `round ${round + 1}/${rounds} ${scenario} ${server}: ${JSON.stringify(result)}\n`,
                );
            }
        }
    }
    const version = execFileSync(node, ['--version'], {encoding: 'utf8'}).trim();
    const peers = chosen.filter((server) => server !== 'ours');
    const lines = [
        `# In-process cost per record, node ${version}, ${rounds} rounds (medians)`,
        '',
        `| figure | ${chosen.join(' | ')} | ${peers.map((peer) => `ours ÷ ${peer}`).join(' | ')} |`,
        `| --- | ${chosen.map(() => '---:').join(' | ')} | ${peers.map(() => '---:').join(' | ')} |`,
    ];
    for (const [figure, byServer] of Object.entries(samples)) {
        const missing = unsupported[figure.split(' ')[0]] ?? new Set();
        const cell = (server) =>
            missing.has(server) ? NOT_SUPPORTED : format(median(byServer[server] ?? []));
        const ours = median(byServer.ours ?? []);
        const ratios = peers.map((peer) =>
            missing.has('ours') ? NOT_SUPPORTED : format(ours / median(byServer[peer] ?? [])),
        );
        lines.push(`| ${figure} | ${chosen.map(cell).join(' | ')} | ${ratios.join(' | ')} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
}

/** One server, one scenario; prints its figures as JSON. */
async function child(server, scenario) {
    const input = new PassThrough();
    let answered = 0;
    let target = Number.POSITIVE_INFINITY;
    let reached;
    let firstAnswer = '';
    const output = new Writable({
        write(chunk, _encoding, callback) {
            if (answered === 0) firstAnswer = chunk.toString();
            let at = chunk.indexOf(10);
            while (at !== -1) {
                answered += 1;
                at = chunk.indexOf(10, at + 1);
            }
            if (answered >= target) reached();
            callback();
        },
    });
    const error = new Writable({write: (_chunk, _encoding, callback) => callback()});
    if (scenario === 'modern') process.env.BENCH_ERA = 'modern';
    const settled = await startInProcess(server, {input, output, error});
    /** Writes the chunks and resolves once `expected` more answers arrived. */
    const feed = (chunks, expected) => {
        const done = new Promise((resolve) => {
            target = answered + expected;
            reached = resolve;
        });
        for (const chunk of chunks) input.write(chunk);
        return expected === 0 ? Promise.resolve() : done;
    };
    const measure = async (count, work) => {
        const cpu = process.cpuUsage();
        await work();
        const used = process.cpuUsage(cpu);
        return ((used.user + used.system) * 1000) / count;
    };
    const initialize = {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'inproc', version: '1'}},
    };
    const result = {};
    if (scenario === 'modern') {
        const probe = `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":${MODERN_META}}}\n`;
        await feed([Buffer.from(probe)], 1);
        if (firstAnswer.includes('"error"')) {
            process.stdout.write(`${JSON.stringify({unsupported: 1})}\n`);
            process.exit(0);
        }
    } else {
        await feed([Buffer.from(`${JSON.stringify(initialize)}\n`)], 1);
    }
    if (scenario === 'echo' || scenario === 'modern') {
        const make = scenario === 'echo' ? toolCall : modernToolCall;
        const call = (id) => make(id, 'echo', {text: `hello ${id}`});
        await feed(chunksOf(20000, 1, call), 20000);
        const measured = chunksOf(100000, 100000, call);
        result.nsPerCall = await measure(100000, () => feed(measured, 100000));
    } else if (scenario === 'fanOut') {
        const calls = chunksOf(10000, 1, (id) => toolCall(id, 'sleep', {ms: 1}));
        result.nsPerCall = await measure(10000, () => feed(calls, 10000));
    } else if (scenario === 'cancel') {
        const calls = chunksOf(10000, 1, (id) => toolCall(id, 'sleep', {ms: 600000}));
        const cancels = chunksOf(10000, 1, cancelled);
        gc();
        const before = process.memoryUsage().heapUsed;
        const cpu = process.cpuUsage();
        await feed(calls, 0);
        await new Promise((resolve) => setImmediate(resolve));
        const used = process.cpuUsage(cpu);
        gc();
        result.retainedBytesPerPending = (process.memoryUsage().heapUsed - before) / 10000;
        const again = process.cpuUsage();
        await feed(cancels, 0);
        await settled();
        const total = process.cpuUsage(again);
        result.nsPerCallAndCancel = ((used.user + used.system + total.user + total.system) * 1000) / 10000;
    } else if (scenario === 'big') {
        const call = (id) => chunksOf(1, id, (at) => toolCall(at, 'big', {bytes: 4 * 1024 * 1024}));
        await feed(call(1), 1);
        await feed(call(2), 1);
        const calls = Array.from({length: 20}, (_, index) => call(10 + index));
        result.nsPerMiB = await measure(20 * 4, async () => {
            for (const chunks of calls) await feed(chunks, 1);
        });
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
}
