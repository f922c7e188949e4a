/**
 * A paired in-process A/B: two builds of the adapter in one process, over in-memory streams, taking
 * turns in batches (A B, B A, …), so that load from other processes falls on both alike. Each
 * scenario runs in two children, one creating A first and one B first, and the verdict is the
 * geometric mean of their median per-batch ratios, which cancels what creation order does. The
 * same build against a copy of itself (A/A) stayed within 0.5–1.5 % where `inproc.mjs`'s twin moved
 * by 5–30 % on the shared machine, so this is where to decide on a change of a few per cent; not
 * fan-out on Node 24, where A/A moved by 1–12 % (three runs), so decide that one end to end.
 *
 * Usage: node bench/inproc-pair.mjs <B module> [--node <major>]
 *        (A is this tree's build, `dist/`; B is a module path printed by `build-base.mjs`)
 * Environment: PAIR_A (the A module; default this tree's `dist/lib`; pass its
 * `dist/bundle/mcp/stdio.js` to pair a bundle with a bundled B), PAIR_ONLY
 * (echo,modern,fanOut,cancel; default all but modern when B lacks the modern era), PAIR_ROUNDS
 * (default 40 turns each way).
 *
 * Scenarios, CPU ns per call (process.cpuUsage around each batch): echo (20,000 echo calls a
 * batch), modern (the same with the 2026-07-28 `_meta`), fanOut (5,000 `sleep 1` at once), cancel
 * (5,000 pending `sleep`s, then a cancel each, until drained).
 *
 * Caveat: both builds share V8's shape tree for plain objects. Two builds that both put their own
 * getter first on an empty literal (`{}`) make the second one's objects slow; `call.ts` avoids that
 * for the handler context since optimisation log entry 9, but a build from before it against
 * another such build is not a fair pair.
 */
import {execFileSync} from 'node:child_process';
import {PassThrough, Writable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from '../scripts/node-binary.mjs';
import {cancelled, MODERN_META, modernToolCall, toolCall} from './client.mjs';
import {chunksOf} from './inproc-server.mjs';
import {median} from './report.mjs';
import {benchOptions} from './servers/serve.mjs';

const OURS = process.env.PAIR_A ?? fileURLToPath(new URL('../dist/lib/mcp/stdio/index.js', import.meta.url));

if (process.argv[2] === '--child') {
    await child(process.argv[3], process.argv[4], process.argv[5], process.argv[6] === 'b-first');
} else {
    parent();
}

function parent() {
    const base = process.argv[2];
    if (base === undefined || base.startsWith('--')) throw new Error('usage: inproc-pair.mjs <B module>');
    const index = process.argv.indexOf('--node');
    const node = index === -1 ? process.execPath : nodeBinary(Number(process.argv[index + 1]));
    const only = process.env.PAIR_ONLY?.split(',') ?? ['echo', 'modern', 'fanOut', 'cancel'];
    const version = execFileSync(node, ['--version'], {encoding: 'utf8'}).trim();
    const lines = [
        `# Paired in-process A/B, node ${version}: A ${OURS}, B ${base}`,
        '',
        '| scenario | A ns/call | B ns/call | A ÷ B, A first | A ÷ B, B first | A ÷ B |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
    ];
    for (const scenario of only) {
        const runs = ['a-first', 'b-first'].map((order) =>
            JSON.parse(
                execFileSync(node, [fileURLToPath(import.meta.url), '--child', OURS, base, scenario, order], {
                    encoding: 'utf8',
                }),
            ),
        );
        if (runs.some((run) => run.unsupported)) {
            lines.push(`| ${scenario} | n/a (not supported by both builds) | | | | |`);
            continue;
        }
        const [first, second] = runs;
        const both = Math.sqrt(first.ratio * second.ratio);
        const ns = (key) => Math.round((first[key] + second[key]) / 2).toLocaleString('en');
        lines.push(
            `| ${scenario} | ${ns('a')} | ${ns('b')} | ${first.ratio.toFixed(3)} | ${second.ratio.toFixed(3)} | ${both.toFixed(3)} |`,
        );
        process.stderr.write(`${lines.at(-1)}\n`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
}

async function child(a, b, scenario, bFirst) {
    const rounds = Number(process.env.PAIR_ROUNDS ?? 40);
    if (scenario === 'modern') process.env.BENCH_ERA = 'modern';
    const servers = bFirst
        ? [await serve(b, 'base'), await serve(a, 'ours')].reverse()
        : [await serve(a, 'ours'), await serve(b, 'base')];
    for (const server of servers) {
        const opening =
            scenario === 'modern'
                ? `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":${MODERN_META}}}\n`
                : '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pair","version":"1"}}}\n';
        if ((await server.feed([Buffer.from(opening)], 1)).includes('"error"')) {
            process.stdout.write('{"unsupported":1}\n');
            process.exit(0);
        }
    }
    const size = scenario === 'echo' || scenario === 'modern' ? 20000 : 5000;
    let next = 1;
    const batch = async (server) => {
        const first = next;
        next += size;
        const cpu = process.cpuUsage();
        if (scenario === 'echo' || scenario === 'modern') {
            const make = scenario === 'echo' ? toolCall : modernToolCall;
            await server.feed(
                chunksOf(size, first, (id) => make(id, 'echo', {text: `hello ${id}`})),
                size,
            );
        } else if (scenario === 'fanOut') {
            await server.feed(
                chunksOf(size, first, (id) => toolCall(id, 'sleep', {ms: 1})),
                size,
            );
        } else {
            await server.feed(
                chunksOf(size, first, (id) => toolCall(id, 'sleep', {ms: 600000})),
                0,
            );
            await new Promise((resolve) => setImmediate(resolve));
            await server.feed(chunksOf(size, first, cancelled), 0);
            await server.instance.drain();
        }
        const used = process.cpuUsage(cpu);
        return ((used.user + used.system) * 1000) / size;
    };
    for (let warm = 0; warm < 3; warm += 1) for (const server of servers) await batch(server);
    const samples = {a: [], b: [], ratio: []};
    for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        const ns = [];
        for (const at of order) ns[at] = await batch(servers[at]);
        samples.a.push(ns[0]);
        samples.b.push(ns[1]);
        samples.ratio.push(ns[0] / ns[1]);
    }
    const result = {a: median(samples.a), b: median(samples.b), ratio: median(samples.ratio)};
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
}

/** One server of a build over in-memory streams; `feed` resolves with the first answer's text. */
async function serve(path, name) {
    const adapter = await import(path);
    const input = new PassThrough();
    let answered = 0;
    let target = Number.POSITIVE_INFINITY;
    let reached;
    let first = '';
    const output = new Writable({
        write(chunk, _encoding, callback) {
            if (first === '') first = chunk.toString();
            for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) answered += 1;
            if (answered >= target) reached(first);
            callback();
        },
    });
    const error = new Writable({write: (_chunk, _encoding, callback) => callback()});
    const instance = adapter.createMcpStdioServer(benchOptions(adapter, `bench-${name}`));
    instance.start({input, output, error});
    const feed = (chunks, expected) => {
        const done = new Promise((resolve) => {
            target = answered + expected;
            reached = resolve;
        });
        for (const chunk of chunks) input.write(chunk);
        return expected === 0 ? Promise.resolve(first) : done;
    };
    return {feed, instance};
}
