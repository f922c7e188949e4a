/**
 * Summarises .cpuprofile files (from BENCH_PROF=1; self time) or .heapprofile files (from
 * BENCH_ALLOC_PROF=1; bytes allocated, collected objects included) per function, per file
 * (BY_FILE=1) or per cost centre (BY_AREA=1: garbage collection, JSON, AbortSignal/EventTarget,
 * timers, streams, each of our modules, …). Every file or directory given is merged into one
 * summary, so pass a scenario's server directory to sum its rounds.
 *
 * Usage: node bench/profile-summary.mjs <file|dir>... [--top N] [--calls N] [--vs <file|dir>...]
 * --calls N divides every figure by N and prints µs (or bytes) per call (say, 10000 per fan-out
 * round times the rounds merged); --vs adds the same summary of other profiles and the difference,
 * so `ours --vs sigfloor` shows where ours spends more than the signal-aware floor.
 * Module loading and compilation at start-up are reported apart ("start-up") so they do not blur
 * the per-call figures.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {basename, join} from 'node:path';

const args = process.argv.slice(2);
function take(flag) {
    const index = args.indexOf(flag);
    if (index === -1) return undefined;
    const [value] = args.splice(index, 2).slice(1);
    return value;
}
const top = Number(take('--top') ?? 25);
const calls = Number(take('--calls') ?? 0);
const vsIndex = args.indexOf('--vs');
const mine = vsIndex === -1 ? args : args.slice(0, vsIndex);
const theirs = vsIndex === -1 ? [] : args.slice(vsIndex + 1);
const mode = process.env.BY_AREA ? 'area' : process.env.BY_FILE ? 'file' : 'function';

function profilesOf(paths) {
    const files = [];
    for (const path of paths) {
        if (statSync(path).isDirectory()) {
            for (const entry of readdirSync(path, {recursive: true})) {
                if (/\.(cpu|heap)profile$/.test(String(entry))) files.push(join(path, String(entry)));
            }
        } else files.push(path);
    }
    return files.sort();
}

/** Where V8 and Node spend time, by the file or native frame a sample's top frame belongs to. */
const AREAS = [
    [/^\(garbage collector\)$/, 'garbage collection'],
    [/^\(program\)$/, 'V8/native (program)'],
    [
        /^(realm|loaders|resolve|translators|module_job|esm|run_main|pre_execution|package_json_reader|url|compile)/,
        'start-up',
    ],
    [/^(abort_controller|event_target|events)$/, 'AbortSignal + EventTarget'],
    [/^(timers|node:timers|linkedlist|priority_queue)$/, 'timers'],
    [
        /^(writable|readable|duplex|stream_base_commons|node:net|destroy|end-of-stream|legacy|state)$/,
        'streams + socket',
    ],
    [/^(writeUtf8String|writev|writeBuffer|writeLatin1String)$/, 'socket write (native)'],
    [/^(task_queues|async_hooks|runMicrotasks|processTicksAndRejections)$/, 'microtasks + ticks'],
    [/^(parse|stringify|JSON)/, 'JSON (native)'],
    [/^(node:buffer|buffer|string_decoder|encoding|utf8ToString)$/, 'buffers + decoding'],
];

function area(functionName, file) {
    for (const [pattern, name] of AREAS) {
        if (pattern.test(file) || (file === '' && pattern.test(functionName))) return name;
    }
    return file === '' ? `native ${functionName}` : file;
}

function keyOf(frame) {
    const name = frame.functionName || '(anonymous)';
    const where = frame.url === '' ? '' : basename(frame.url);
    if (mode === 'area') return area(name, where);
    if (mode === 'file') return where || `native ${name}`;
    return `${name} ${where}:${frame.lineNumber + 1}`;
}

/** Self time (µs) or bytes per key over every sample of every profile, and the total. */
function summarise(files) {
    const self = new Map();
    let busy = 0;
    const add = (frame, amount) => {
        const key = keyOf(frame);
        self.set(key, (self.get(key) ?? 0) + amount);
        busy += amount;
    };
    for (const file of files) {
        const profile = JSON.parse(readFileSync(file, 'utf8'));
        if (file.endsWith('.heapprofile')) {
            const walk = (node) => {
                add(node.callFrame, node.selfSize);
                for (const child of node.children) walk(child);
            };
            walk(profile.head);
            continue;
        }
        const byId = new Map(profile.nodes.map((node) => [node.id, node]));
        for (let index = 0; index < profile.samples.length; index += 1) {
            const frame = byId.get(profile.samples[index]).callFrame;
            if (frame.functionName !== '(idle)') add(frame, profile.timeDeltas[index] ?? 0);
        }
    }
    return {self, busy, count: files.length};
}

const files = profilesOf(mine);
const bytes = files.some((file) => file.endsWith('.heapprofile'));
const scale = calls > 0 ? 1 / calls : bytes ? 1 / 1024 : 1 / 1000;
const unit = bytes ? (calls > 0 ? 'B/call' : 'KiB') : calls > 0 ? 'µs/call' : 'ms';
const show = (micros) => (micros * scale).toFixed(calls > 0 && !bytes ? 2 : bytes ? 0 : 1).padStart(9);

const a = summarise(files);
if (theirs.length === 0) {
    process.stdout.write(`${a.count} profile(s), ${show(a.busy)} ${unit} ${bytes ? 'allocated' : 'busy'}\n`);
    for (const [key, micros] of [...a.self.entries()].sort((x, y) => y[1] - x[1]).slice(0, top)) {
        process.stdout.write(
            `${show(micros)} ${unit} ${((100 * micros) / a.busy).toFixed(1).padStart(5)}%  ${key}\n`,
        );
    }
} else {
    const b = summarise(profilesOf(theirs));
    process.stdout.write(
        `${a.count} vs ${b.count} profile(s); ${unit}: mine ${show(a.busy).trim()}, theirs ${show(b.busy).trim()}, ` +
            `difference ${show(a.busy - b.busy).trim()}\n`,
    );
    process.stdout.write(`${'mine'.padStart(9)} ${'theirs'.padStart(9)} ${'diff'.padStart(9)}  (${unit})\n`);
    const keys = new Set([...a.self.keys(), ...b.self.keys()]);
    const rows = [...keys].map((key) => [key, a.self.get(key) ?? 0, b.self.get(key) ?? 0]);
    rows.sort((x, y) => Math.abs(y[1] - y[2]) - Math.abs(x[1] - x[2]));
    for (const [key, x, y] of rows.slice(0, top)) {
        process.stdout.write(`${show(x)} ${show(y)} ${show(x - y)}  ${key}\n`);
    }
}
