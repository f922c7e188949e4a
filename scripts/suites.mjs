// The two sets of test suites, and the one rule that splits them:
//
//   integration  every compiled suite under dist/test/integration/: each drives a third-party peer
//                (the official SDK 1.x and 2.x clients and servers, the Inspector, @ai-sdk/mcp, a
//                bridge such as mcp-proxy, nginx), so it is slow and depends on what those packages do;
//   unit         every other compiled suite under dist/test/.
//
//   node scripts/suites.mjs unit|integration [node --test option ...]     (after `npm run build`)
//
// runs one set with this Node and exits with the runner's status. `npm run test:unit` and
// `npm run test:integration` call it; scripts/test-matrix.mjs imports `suiteFiles` for each major.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {existsSync} from 'node:fs';
import {readdir} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import {fileURLToPath} from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SETS = ['unit', 'integration'];

const SUITES = join(ROOT, 'dist', 'test');
const INTEGRATION = `integration${sep}`;

/** The compiled suites of `set`, as paths relative to the repository root, sorted. */
export async function suiteFiles(set) {
    if (!SETS.includes(set))
        throw new RangeError(`suites: the set must be one of ${SETS.join(', ')}, not ${set}`);
    if (!existsSync(SUITES))
        throw new Error('suites: dist/test is missing: run npm run build (or npm test) first');
    return (await readdir(SUITES, {recursive: true}))
        .filter(
            (file) => file.endsWith('.test.js') && file.startsWith(INTEGRATION) === (set === 'integration'),
        )
        .map((file) => relative(ROOT, join(SUITES, file)))
        .sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const [set = '', ...options] = process.argv.slice(2);
    let files;
    try {
        files = await suiteFiles(set);
    } catch (error) {
        process.stderr.write(`${error.message}\n`);
        process.exit(2);
    }
    if (files.length === 0) {
        process.stderr.write(`suites: no ${set} suites under dist/test: run npm run build first\n`);
        process.exit(2);
    }
    const child = spawn(process.execPath, ['--test', ...options, ...files], {cwd: ROOT, stdio: 'inherit'});
    const [code, signal] = await once(child, 'close');
    process.exitCode = code ?? (signal === null ? 1 : 128);
}
