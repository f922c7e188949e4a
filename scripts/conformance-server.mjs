// `node scripts/conformance-server.mjs [--verbose] [scenario...]`: runs the official MCP conformance
// suite's (`@modelcontextprotocol/conformance`) server scenarios against an arcane-os stdio server.
//
// The suite speaks Streamable HTTP to servers and needs Node 22 or later, so this script takes
// Node 22 from `scripts/node-binary.mjs` and puts `scripts/conformance/server-app.mjs` (run by this
// script's own Node, serving the catalog of `scripts/conformance/fixture.mjs`) behind the
// `mcp-proxy` stdio-to-HTTP bridge on a loopback port.
//
// Without scenario names it runs the set the 2025-11-25 revision requires (`--requirements
// 2025-11-25`, frozen in the suite), prints each scenario's result and the totals, and exits
// non-zero unless every scenario in REQUIRED passed. The scenarios the suite scores but this
// server does not claim here (sampling and elicitation, which mcp-proxy neither declares to the
// server nor forwards, and what needs an HTTP transport of our own: see conformance-http.mjs) and
// those it runs without scoring are reported but do not decide the exit code. With
// scenario names it runs just those, and each must pass. `--verbose` also prints the suite's own
// report (every check of every scenario), which is otherwise printed only when a required
// scenario failed. The suite's result files go to a temporary folder that is removed afterwards.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {nodeBinary} from './node-binary.mjs';

/** The revision whose frozen requirement set is run. */
export const REVISION = '2025-11-25';

/** Scenarios of that set this server must pass; any other failure is reported, not fatal. */
export const REQUIRED = Object.freeze([
    'server-initialize',
    'ping',
    'tools-list',
    'tools-call-simple-text',
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
    'tools-call-error',
    'tools-call-with-progress',
    'resources-list',
    'resources-read-text',
    'resources-read-binary',
    'server-sse-multiple-streams',
    'prompts-list',
    'prompts-get-simple',
    'prompts-get-with-args',
    'prompts-get-embedded-resource',
    'prompts-get-with-image',
    'resources-templates-read',
    'completion-complete',
    'logging-set-level',
    'tools-call-with-logging',
    'resources-subscribe',
    'resources-unsubscribe',
]);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const suiteEntry = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const named = args.filter((arg) => arg !== '--verbose');
/** Turns a hang into a failure; the whole set takes well under a minute. */
const LIMIT_MS = 240_000;
/** The suite's own limit per scenario (its default is 30 s); none needs more than a second. */
const SCENARIO_TIMEOUT_MS = 15_000;

const started = performance.now();
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

/**
 * Runs the suite once with `suiteArgs`, its report captured, its result files under `output`.
 * @param {string[]} suiteArgs
 * @param {string} output
 */
async function runSuite(suiteArgs, output) {
    const suite = spawn(
        node22,
        [
            suiteEntry,
            'server',
            '--url',
            url,
            '--timeout',
            String(SCENARIO_TIMEOUT_MS),
            '-o',
            output,
            ...suiteArgs,
        ],
        {cwd: output, stdio: ['ignore', 'pipe', 'pipe']},
    );
    let report = '';
    suite.stdout.setEncoding('utf8').on('data', (text) => {
        report += text;
    });
    suite.stderr.setEncoding('utf8').on('data', (text) => {
        report += text;
    });
    const [code] = await once(suite, 'close');
    return {code, report};
}

/** The suite names each result folder `server-<scenario>-<ISO time with : and . as ->`. */
const RESULT_FOLDER = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Each scenario's checks, read from the suite's result files.
 * @param {string} output
 * @returns {Map<string, {status: string, name: string, errorMessage?: string}[]>}
 */
function readResults(output) {
    const results = new Map();
    for (const folder of readdirSync(output)) {
        const scenario = RESULT_FOLDER.exec(folder)?.[1];
        if (scenario === undefined) continue;
        results.set(scenario, JSON.parse(readFileSync(join(output, folder, 'checks.json'), 'utf8')));
    }
    return results;
}

/** The scenarios the revision scores, from the suite's own frozen list. */
async function scoredScenarios() {
    const list = spawn(node22, [suiteEntry, 'list', '--requirements', REVISION], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    list.stdout.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
    });
    await once(list, 'close');
    const section = text.split('Server scenarios (test against a server):\n')[1]?.split('\n\n')[0];
    if (section === undefined) throw new Error(`Unexpected output of the suite's list:\n${text}`);
    return section.split('\n').map((line) => line.replace(/^\s*- /, ''));
}

/**
 * One line per scenario: ✓ or ✗, its passed and failed checks, the first failure's message.
 * @param {string} scenario
 * @param {{status: string, name: string, errorMessage?: string}[] | undefined} checks
 */
function describe(scenario, checks) {
    if (checks === undefined) return `  ✗ ${scenario}: no result (the suite did not run it)`;
    const failures = checks.filter((check) => check.status === 'FAILURE');
    const passes = checks.filter((check) => check.status === 'SUCCESS').length;
    const first = failures[0];
    const why = first === undefined ? '' : ` (${first.name}: ${first.errorMessage ?? 'failed'})`;
    const counts = `${passes} checks passed, ${failures.length} failed`;
    return `  ${failures.length === 0 ? '✓' : '✗'} ${scenario}: ${counts}${why.replace(/\s+/g, ' ')}`;
}

const passedAll = (/** @type {{status: string}[] | undefined} */ checks) =>
    checks?.every((check) => check.status !== 'FAILURE') === true;

const output = mkdtempSync(join(tmpdir(), 'arcane-os-conformance-'));
let failed = false;
try {
    if (named.length > 0) {
        const reports = [];
        const results = new Map();
        for (const scenario of named) {
            const {report} = await runSuite(['--scenario', scenario], output);
            reports.push(report);
            for (const [name, checks] of readResults(output)) results.set(name, checks);
        }
        process.stdout.write('Scenarios named on the command line:\n');
        for (const scenario of named) {
            process.stdout.write(`${describe(scenario, results.get(scenario))}\n`);
        }
        const passed = named.filter((scenario) => passedAll(results.get(scenario)));
        failed = passed.length < named.length;
        if (verbose || failed) process.stdout.write(reports.join('\n'));
        process.stdout.write(
            `conformance-server: ${passed.length} of ${named.length} named scenarios passed\n`,
        );
    } else {
        const scored = await scoredScenarios();
        const unknown = REQUIRED.filter((scenario) => !scored.includes(scenario));
        if (unknown.length > 0) {
            throw new Error(`REQUIRED names scenarios ${REVISION} does not score: ${unknown.join(', ')}`);
        }
        const {code, report} = await runSuite(['--requirements', REVISION], output);
        const results = readResults(output);
        const optional = scored.filter((scenario) => !REQUIRED.includes(scenario));
        const unscored = [...results.keys()].filter((scenario) => !scored.includes(scenario));
        const print = (/** @type {string} */ title, /** @type {string[]} */ scenarios) => {
            process.stdout.write(`${title}\n`);
            for (const scenario of scenarios) {
                process.stdout.write(`${describe(scenario, results.get(scenario))}\n`);
            }
        };
        const count = (/** @type {string[]} */ scenarios) =>
            scenarios.filter((scenario) => passedAll(results.get(scenario))).length;
        const required = count(REQUIRED);
        failed = required < REQUIRED.length;
        if (verbose || failed) process.stdout.write(report);
        print(`Required here (${REVISION}, scored by the suite):`, [...REQUIRED]);
        print(
            `Scored by the suite, not required here (sampling and elicitation, which the bridge does not forward; HTTP):`,
            optional,
        );
        print('Run by the suite, not scored for this revision:', unscored);
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        process.stdout.write(
            `conformance-server: required ${required} of ${REQUIRED.length} passed; ` +
                `the suite scores ${count(scored)} of ${scored.length} for ${REVISION} ` +
                `(its exit code ${code}); not scored: ${count(unscored)} of ${unscored.length} passed; ` +
                `${seconds} s\n`,
        );
    }
} finally {
    rmSync(output, {recursive: true, force: true});
    bridge.kill('SIGTERM');
    await bridgeExit;
    clearTimeout(guard);
}
if (failed) {
    process.stderr.write(`conformance-server: a required scenario failed\n${bridgeOutput}`);
    process.exitCode = 1;
}
