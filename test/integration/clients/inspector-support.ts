/**
 * Runs the MCP Inspector 2.x command line (`@modelcontextprotocol/inspector`, `--cli`) for the
 * tests: one method per run, JSON output, and the server launched through the wire-tap fixture,
 * so each run also yields the bytes that crossed the wire and asserts that the server process
 * exited by itself with code 0.
 *
 * The Inspector 2.x requires Node >= 22.19, so it runs on the Node 22 that
 * `scripts/node-binary.mjs` provides (fetched once); the servers it launches run on the test's
 * own Node. Its records go to a temporary folder that `removeInspectorRecords` deletes.
 */
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';
import type {TapRecord, Wire} from './modern-support.js';
import {
    answerLine,
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    finishedTapRecord,
    MODERN,
    OBSERVATORY_DISCOVERY,
    PROTOCOL_VERSION_KEY,
    records,
} from './modern-support.js';
import {fixturePath} from './support.js';

const INSPECTOR = join(
    dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
    'clients/launcher/build/index.js',
);
const WIRE_TAP = fixturePath('wire-tap');

const INSPECTOR_INFO = {name: 'inspector-cli', version: '2.12.0'};
const INSPECTOR_CAPABILITIES = {
    roots: {listChanged: true},
    extensions: {'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/skills': {}},
};

/** The per-request envelope of the Inspector's modern requests (and of its probe). */
export const ENVELOPE = {
    [PROTOCOL_VERSION_KEY]: MODERN,
    [CLIENT_INFO_KEY]: INSPECTOR_INFO,
    [CLIENT_CAPABILITIES_KEY]: INSPECTOR_CAPABILITIES,
};

/** The `_meta` of its modern requests after the probe: the envelope, and log level `debug`. */
export const META = {...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug'};

const PROBE_ID = 'server-discover-probe-1';

export type Era = 'modern' | 'auto' | 'legacy';

export interface Run {
    code: number | null;
    stdout: string;
    stderr: string;
    wire: TapRecord;
}

let setup: Promise<{node22: string; folder: string}> | undefined;
let runs = 0;

function prepare(): Promise<{node22: string; folder: string}> {
    setup ??= (async () => {
        const script = pathToFileURL(join(REPO_ROOT, 'scripts', 'node-binary.mjs')).href;
        const {nodeBinary} = (await import(script)) as {nodeBinary(major: number): string};
        return {node22: nodeBinary(22), folder: mkdtempSync(join(tmpdir(), 'arcane-inspector-'))};
    })();
    return setup;
}

/** Deletes the records of every run; an `after` hook of each file that runs the Inspector. */
export async function removeInspectorRecords(): Promise<void> {
    if (setup === undefined) return;
    const {folder} = await setup;
    rmSync(folder, {recursive: true, force: true});
    setup = undefined;
}

/**
 * Runs the Inspector CLI in `era` against `server` (through the tap) with `--format json`, and
 * waits for both to end.
 */
export async function inspect(era: Era, server: string, ...args: string[]): Promise<Run> {
    const {node22, folder} = await prepare();
    runs += 1;
    const record = join(folder, `run-${runs}.jsonl`);
    writeFileSync(record, '');
    const {code, stdout, stderr} = await runNode(
        [
            INSPECTOR,
            '--cli',
            '--protocol-era',
            era,
            process.execPath,
            WIRE_TAP,
            record,
            server,
            ...args,
            '--format',
            'json',
        ],
        {cwd: REPO_ROOT, node: node22},
    );
    const wire = await finishedTapRecord(record);
    assert.deepEqual(wire.exit, {code: 0, signal: null}, `the server did not exit cleanly: ${stderr}`);
    assert.equal(wire.ended, true);
    assert.deepEqual(wire.errors, []);
    return {code, stdout, stderr, wire};
}

/** Runs one method that must succeed, and returns its parsed `result`. */
export async function inspectResult(
    era: Era,
    server: string,
    ...args: string[]
): Promise<{result: Wire; wire: TapRecord}> {
    const run = await inspect(era, server, ...args);
    assert.equal(run.code, 0, `the Inspector failed: ${run.stderr}`);
    assert.equal(run.stderr, '');
    const {result} = JSON.parse(run.stdout) as {result: Wire};
    return {result, wire: run.wire};
}

/** The probe went to the process that then served the method: in place, with the full envelope. */
export function assertProbedInPlace(wire: TapRecord): void {
    assert.deepEqual(records(wire.input)[0], {
        jsonrpc: '2.0',
        id: PROBE_ID,
        method: 'server/discover',
        params: {_meta: ENVELOPE},
    });
    assert.equal(
        answerLine(wire.output, PROBE_ID),
        JSON.stringify({jsonrpc: '2.0', id: PROBE_ID, result: OBSERVATORY_DISCOVERY}),
    );
}
