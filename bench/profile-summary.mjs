/**
 * Summarises .cpuprofile files (from BENCH_PROF=1): self time per function, top entries.
 * Usage: node bench/profile-summary.mjs <file.cpuprofile>... [--top N]
 */
import {readFileSync} from 'node:fs';
import {basename} from 'node:path';

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex === -1 ? 25 : Number(args[topIndex + 1]);
const files =
    topIndex === -1 ? args : args.filter((_, index) => index !== topIndex && index !== topIndex + 1);

for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8'));
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = new Map();
    const deltas = profile.timeDeltas;
    let total = 0;
    for (let index = 0; index < profile.samples.length; index += 1) {
        const node = byId.get(profile.samples[index]);
        const micros = deltas[index] ?? 0;
        const frame = node.callFrame;
        const key = `${frame.functionName || '(anonymous)'} ${basename(frame.url)}:${frame.lineNumber + 1}`;
        self.set(key, (self.get(key) ?? 0) + micros);
        if (frame.functionName !== '(idle)') total += micros;
    }
    process.stdout.write(`\n${file}: ${(total / 1000).toFixed(1)} ms busy\n`);
    if (process.env.BY_FILE) {
        const files = new Map();
        for (const [key, micros] of self) {
            const file = key.slice(key.lastIndexOf(' ') + 1).replace(/:\d+$/, '');
            files.set(file, (files.get(file) ?? 0) + micros);
        }
        for (const [file, micros] of [...files.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
            process.stdout.write(`${(micros / 1000).toFixed(1).padStart(9)} ms  ${file}\n`);
        }
        continue;
    }
    const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [key, micros] of rows) {
        process.stdout.write(
            `${(micros / 1000).toFixed(1).padStart(9)} ms ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}\n`,
        );
    }
}
