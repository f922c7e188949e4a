// `node scripts/conformance-http.mjs [revision...]`: runs the official MCP conformance suite
// (`@modelcontextprotocol/conformance`, pinned) directly against this package's Streamable HTTP
// handler, no bridge: starts `scripts/conformance/server-app.mjs --http` on a free loopback port,
// runs the suite with `--requirements <revision>` for 2025-11-25 and 2026-07-28 (or the revisions
// given), prints each scenario's result, and exits non-zero only when a scenario of REQUIRED
// fails. Scenarios outside REQUIRED need features this server does not have yet; they are
// reported, not enforced. The suite needs Node 22 or later (`scripts/node-binary.mjs`).
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {createInterface} from 'node:readline';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from './node-binary.mjs';

/**
 * The scenarios that pass today and must keep passing, per revision. Not here: the ones that need
 * what this server does not do yet (tasks). Scenarios with no checks at all are not listed.
 */
export const REQUIRED = Object.freeze({
    '2025-11-25': [
        'server-initialize',
        'ping',
        'logging-set-level',
        'completion-complete',
        'tools-list',
        'tools-call-simple-text',
        'tools-call-image',
        'tools-call-audio',
        'tools-call-embedded-resource',
        'tools-call-mixed-content',
        'tools-call-with-logging',
        'tools-call-error',
        'tools-call-with-progress',
        'tools-call-sampling',
        'tools-call-elicitation',
        'elicitation-sep1034-defaults',
        'elicitation-sep1330-enums',
        'server-sse-multiple-streams',
        'resources-list',
        'resources-read-text',
        'resources-read-binary',
        'resources-templates-read',
        'resources-subscribe',
        'resources-unsubscribe',
        'prompts-list',
        'prompts-get-simple',
        'prompts-get-with-args',
        'prompts-get-embedded-resource',
        'prompts-get-with-image',
        'dns-rebinding-protection',
        'server-session-lifecycle',
        'json-schema-2020-12',
    ],
    '2026-07-28': [
        'server-stateless',
        'completion-complete',
        'tools-list',
        'tools-call-simple-text',
        'tools-call-image',
        'tools-call-audio',
        'tools-call-embedded-resource',
        'tools-call-mixed-content',
        'tools-call-error',
        'tools-call-with-progress',
        'server-sse-multiple-streams',
        'resources-list',
        'resources-read-text',
        'resources-read-binary',
        'resources-templates-read',
        'sep-2164-resource-not-found',
        'prompts-list',
        'prompts-get-simple',
        'prompts-get-with-args',
        'prompts-get-embedded-resource',
        'prompts-get-with-image',
        'dns-rebinding-protection',
        'caching',
        'input-required-result-basic-elicitation',
        'input-required-result-basic-sampling',
        'input-required-result-basic-list-roots',
        'input-required-result-request-state',
        'input-required-result-multiple-input-requests',
        'input-required-result-multi-round',
        'input-required-result-missing-input-response',
        'input-required-result-non-tool-request',
        'input-required-result-result-type',
        'input-required-result-unsupported-methods',
        'input-required-result-tampered-state',
        'input-required-result-capability-check',
        'input-required-result-ignore-extra-params',
        'input-required-result-validate-input',
        'json-schema-2020-12',
        'http-header-validation',
        'http-custom-header-server-validation',
    ],
});

/** Turns a hang into a failure; a whole revision takes well under this. */
const LIMIT_MS = 600_000;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const revisions = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(REQUIRED);
const node22 = nodeBinary(22);

const server = spawn(process.execPath, [join(root, 'scripts/conformance/server-app.mjs'), '--http'], {
    cwd: root,
    env: {...process.env, PORT: '0'},
    stdio: ['ignore', 'pipe', 'inherit'],
});
const serverExit = once(server, 'exit');
const guard = setTimeout(() => {
    process.stderr.write(`conformance-http: no result within ${LIMIT_MS} ms; stopping\n`);
    server.kill();
    process.exit(1);
}, LIMIT_MS);

const lines = createInterface({input: server.stdout});
const url = await Promise.race([
    once(lines, 'line').then(([line]) => /** @type {string} */ (line)),
    serverExit.then(([code, signal]) => {
        throw new Error(`server-app.mjs --http exited (${code ?? signal}) before printing its URL`);
    }),
]);
process.stdout.write(`conformance-http: arcane-os HTTP handler at ${url}\n`);

const results = mkdtempSync(join(tmpdir(), 'arcane-os-conformance-http-'));
let broken = 0;
try {
    for (const revision of revisions) {
        const outcome = await runSuite(revision);
        const required = REQUIRED[/** @type {keyof typeof REQUIRED} */ (revision)] ?? [];
        let passed = 0;
        for (const [scenario, result] of outcome) {
            const mark = required.includes(scenario) ? 'required' : 'reported';
            if (result.ok) passed += 1;
            process.stdout.write(
                `conformance-http: ${revision} ${result.ok ? 'PASS' : 'FAIL'} ${scenario} (${result.summary}; ${mark})\n`,
            );
        }
        for (const scenario of required) {
            const result = outcome.get(scenario);
            if (result?.ok) continue;
            broken += 1;
            process.stderr.write(
                `conformance-http: ${revision} required scenario ${scenario} ${result ? 'failed' : 'did not run'}\n`,
            );
        }
        process.stdout.write(`conformance-http: ${revision}: ${passed} of ${outcome.size} scenarios pass\n`);
    }
} finally {
    rmSync(results, {recursive: true, force: true});
    server.kill('SIGTERM');
    await serverExit;
    clearTimeout(guard);
}
if (broken > 0) process.exitCode = 1;

/**
 * Runs the suite for one revision; its summary lines (`✓ name: 3 passed, 0 failed`) by scenario.
 * @param {string} revision
 */
async function runSuite(revision) {
    const suite = spawn(
        node22,
        [
            join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
            'server',
            '--url',
            url,
            '--requirements',
            revision,
        ],
        {cwd: results, stdio: ['ignore', 'pipe', 'inherit']},
    );
    /** @type {Map<string, {ok: boolean, summary: string}>} */
    const outcome = new Map();
    let summary = false;
    for await (const line of createInterface({input: suite.stdout})) {
        if (line.startsWith('=== SUMMARY ===')) summary = true;
        const match = summary ? /^([✓✗]) ([\w-]+): (.*)$/u.exec(line) : null;
        if (match !== null) {
            outcome.set(/** @type {string} */ (match[2]), {
                ok: match[1] === '✓',
                summary: /** @type {string} */ (match[3]),
            });
        }
    }
    await once(suite, 'exit').catch(() => {});
    return outcome;
}
