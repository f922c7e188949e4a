// `npm run conformance`: the official MCP conformance suite (`@modelcontextprotocol/conformance`,
// a dev dependency) checks our client against its client scenarios. The suite needs Node 22 or
// later, so it runs on `nodeBinary(22)`; our client, `scripts/conformance-driver.mjs`, runs on the
// Node that runs this script (20 in CI, the oldest we support). Scenarios that do not apply are
// left out: `elicitation-sep1034-client-defaults` needs the elicitation capability, which this
// client does not declare, and the `auth/*` scenarios need an OAuth client, while ours leaves
// authentication to the caller's headers. Exits non-zero when any scenario fails.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from './node-binary.mjs';

export const CONFORMANCE_SCENARIOS = Object.freeze(['initialize', 'tools_call', 'sse-retry']);

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
for (const scenario of CONFORMANCE_SCENARIOS) {
    process.stdout.write(`\n=== conformance client scenario: ${scenario}\n`);
    const child = spawn(node22, [suite, 'client', '--command', command, '--scenario', scenario], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
    });
    const [code, signal] = await once(child, 'close');
    if (code !== 0) failed.push(`${scenario} (${signal ?? `exit ${code}`})`);
}
const passed = CONFORMANCE_SCENARIOS.length - failed.length;
process.stdout.write(
    `\nconformance: ${passed} of ${CONFORMANCE_SCENARIOS.length} client scenarios passed` +
        `${failed.length === 0 ? '' : `; failed: ${failed.join(', ')}`}\n`,
);
if (failed.length > 0) process.exitCode = 1;
