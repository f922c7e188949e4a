// `npm run conformance`: the official MCP conformance suite (`@modelcontextprotocol/conformance`,
// a dev dependency) checks our client against its client scenarios. The suite needs Node 22 or
// later, so it runs on `nodeBinary(22)`; our client, `scripts/conformance-driver.mjs`, runs on the
// Node that runs this script (20 in CI, the oldest we support). Each REQUIRED scenario runs at the
// revision it is listed under (`--spec-version`, which the suite passes to the driver): the
// 2025-11-25 ones by `initialize`, the 2026-07-28 ones pinned to that revision. The `auth/*`
// scenarios are left out: they need an OAuth client, while ours leaves authentication to the
// caller's headers. Exits non-zero when any scenario fails.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from './node-binary.mjs';

/** The scenarios that must pass, by the revision they run at. */
export const REQUIRED = Object.freeze({
    '2025-11-25': [
        'initialize',
        'tools_call',
        'sse-retry',
        'elicitation-sep1034-client-defaults',
        'json-schema-2020-12-preservation',
    ],
    '2026-07-28': [
        'tools_call',
        'request-metadata',
        'sep-2322-client-request-state',
        'http-standard-headers',
        'http-custom-headers',
        'http-invalid-tool-headers',
        'json-schema-ref-no-deref',
    ],
});

/** Every required scenario as `revision/scenario`. */
export const CONFORMANCE_SCENARIOS = Object.freeze(
    Object.entries(REQUIRED).flatMap(([revision, names]) => names.map((name) => `${revision}/${name}`)),
);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const driver = join(root, 'scripts', 'conformance-driver.mjs');

// The suite splits --command at spaces and runs it through a shell.
const command = `${process.execPath} ${driver}`;
if (/[\s'"$`\\]/.test(process.execPath + driver)) {
    throw new Error(
        `conformance: the suite splits its --command at spaces, so neither ${process.execPath} nor ${driver} ` +
            'may contain spaces or shell characters; run from a checkout at a plain path',
    );
}

const node22 = nodeBinary(22);
const failed = [];
for (const entry of CONFORMANCE_SCENARIOS) {
    const [revision = '', scenario = ''] = entry.split('/');
    process.stdout.write(`\n=== conformance client scenario: ${scenario} at ${revision}\n`);
    const args = [suite, 'client', '--command', command, '--scenario', scenario, '--spec-version', revision];
    const child = spawn(node22, args, {cwd: root, stdio: ['ignore', 'inherit', 'inherit']});
    const [code, signal] = await once(child, 'close');
    if (code !== 0) failed.push(`${entry} (${signal ?? `exit ${code}`})`);
}
const passed = CONFORMANCE_SCENARIOS.length - failed.length;
process.stdout.write(
    `\nconformance: ${passed} of ${CONFORMANCE_SCENARIOS.length} client scenarios passed` +
        `${failed.length === 0 ? '' : `; failed: ${failed.join(', ')}`}\n`,
);
if (failed.length > 0) process.exitCode = 1;
