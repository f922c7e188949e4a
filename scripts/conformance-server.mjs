// `node scripts/conformance-server.mjs [scenario...]`: runs server scenarios of the official MCP
// conformance suite (`@modelcontextprotocol/conformance`) against an arcane-os stdio server.
//
// The suite speaks Streamable HTTP to servers and needs Node 22 or later, so this script takes
// Node 22 from `scripts/node-binary.mjs`, puts `scripts/conformance/server-app.mjs` (run by this
// script's own Node) behind the `mcp-proxy` stdio-to-HTTP bridge on a loopback port, runs each
// scenario, prints the suite's report, and exits non-zero when any scenario failed. The default
// scenario is `tools-call-with-progress`. The suite's result files go to a temporary folder that is
// removed afterwards.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from './node-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scenarios = process.argv.length > 2 ? process.argv.slice(2) : ['tools-call-with-progress'];
/** Turns a hang into a failure; a scenario takes well under a second. */
const LIMIT_MS = 120_000;

const node22 = nodeBinary(22);
const bridge = spawn(
    node22,
    [
        '--import',
        join(root, 'scripts/conformance/listen-port.mjs'),
        join(root, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs'),
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--server',
        'stream',
        '--',
        process.execPath,
        join(root, 'scripts/conformance/server-app.mjs'),
    ],
    {cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc']},
);
let bridgeOutput = '';
bridge.stdout.setEncoding('utf8').on('data', (text) => {
    bridgeOutput += text;
});
bridge.stderr.setEncoding('utf8').on('data', (text) => {
    bridgeOutput += text;
});
const bridgeExit = once(bridge, 'exit');

const guard = setTimeout(() => {
    process.stderr.write(`conformance-server: no result within ${LIMIT_MS} ms; stopping\n`);
    bridge.kill();
    process.exit(1);
}, LIMIT_MS);

const port = await Promise.race([
    once(bridge, 'message').then(([message]) => /** @type {{port: number}} */ (message).port),
    bridgeExit.then(([code, signal]) => {
        throw new Error(`The bridge exited (${code ?? signal}) before it listened:\n${bridgeOutput}`);
    }),
]);
const url = `http://127.0.0.1:${port}/mcp`;
process.stdout.write(`conformance-server: arcane-os stdio server behind mcp-proxy at ${url}\n`);

const results = mkdtempSync(join(tmpdir(), 'arcane-os-conformance-'));
let failed = 0;
try {
    for (const scenario of scenarios) {
        const suite = spawn(
            node22,
            [
                join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
                'server',
                '--url',
                url,
                '--scenario',
                scenario,
            ],
            {cwd: results, stdio: ['ignore', 'inherit', 'inherit']},
        );
        const [code] = await once(suite, 'exit');
        process.stdout.write(
            `conformance-server: ${scenario} ${code === 0 ? 'passed' : `failed (exit ${code})`}\n`,
        );
        if (code !== 0) failed += 1;
    }
} finally {
    rmSync(results, {recursive: true, force: true});
    bridge.kill('SIGTERM');
    await bridgeExit;
    clearTimeout(guard);
}
if (failed > 0) {
    process.stderr.write(
        `conformance-server: ${failed} of ${scenarios.length} scenarios failed\n${bridgeOutput}`,
    );
    process.exitCode = 1;
}
