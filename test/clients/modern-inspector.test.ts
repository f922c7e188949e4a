/**
 * The MCP Inspector 2.x command line (`@modelcontextprotocol/inspector`, `--cli`), which speaks
 * 2026-07-28 with `--protocol-era modern` (and probes for it with `auto`; its ad-hoc default is
 * `legacy`). Each run launches a server, performs one method, prints the result as JSON and exits.
 * The server is launched through the wire-tap fixture, so every test also asserts the bytes that
 * crossed the wire and that the server process exited with code 0.
 *
 * The Inspector 2.x requires Node >= 22.19, so it runs on the Node 22 that `scripts/node-binary.mjs`
 * provides; the servers it launches run on this test's own Node. In `--cli` mode a request can
 * only be cancelled by the client's built-in 60 s request timeout (the per-server `requestTimeout`
 * setting is not applied to CLI runs), so the cancellation test takes a minute; the runs of this
 * file go in parallel so that minute is spent once.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import type {TapRecord, Wire} from './modern-support.js';
import {
    answerLine,
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    finishedTapRecord,
    lastRequestId,
    MODERN,
    OBSERVATORY_DISCOVERY,
    OBSERVATORY_META,
    PROTOCOL_VERSION_KEY,
    records,
    SERVER_INFO_KEY,
} from './modern-support.js';
import {
    fixturePath,
    OBSERVATORY,
    OBSERVATORY_CATALOG,
    OBSERVATORY_RESOURCES,
    OBSERVATORY_TOOL_NAMES,
    PLATE_PNG,
    REPO_ROOT,
    SKY_TONIGHT,
} from './support.js';

/** Each run is its own pair of processes, so the runs go in parallel; the timeout only guards a hang. */
const GUARD = {timeout: 180_000, concurrency: true};

const require = createRequire(import.meta.url);
const INSPECTOR = join(
    dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
    'clients/launcher/build/index.js',
);
const WIRE_TAP = fixturePath('wire-tap');
const CONSTELLATIONS = fixturePath('modern-only-server');

const INSPECTOR_INFO = {name: 'inspector-cli', version: '2.12.0'};
const INSPECTOR_CAPABILITIES = {
    roots: {listChanged: true},
    extensions: {'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/skills': {}},
};
/** What the Inspector puts in `_meta` of every modern request; it asks for log level `debug`. */
const ENVELOPE = {
    [PROTOCOL_VERSION_KEY]: MODERN,
    [CLIENT_INFO_KEY]: INSPECTOR_INFO,
    [CLIENT_CAPABILITIES_KEY]: INSPECTOR_CAPABILITIES,
};
const META = {...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug'};
const PROBE_ID = 'server-discover-probe-1';

let node22: string;
let scratch: string;
let runs = 0;

before(async () => {
    const script = pathToFileURL(join(REPO_ROOT, 'scripts', 'node-binary.mjs')).href;
    const {nodeBinary} = (await import(script)) as {nodeBinary(major: number): string};
    node22 = nodeBinary(22);
    scratch = mkdtempSync(join(tmpdir(), 'arcane-inspector-'));
});

after(() => {
    rmSync(scratch, {recursive: true, force: true});
});

interface Run {
    code: number | null;
    stdout: string;
    stderr: string;
    wire: TapRecord;
}

type Era = 'modern' | 'auto' | 'legacy';

/** Runs the Inspector CLI in `era` against `server` (through the tap) and waits for both to end. */
async function inspect(era: Era, server: string, ...args: string[]): Promise<Run> {
    runs += 1;
    const record = join(scratch, `run-${runs}.jsonl`);
    writeFileSync(record, '');
    const child = spawn(
        node22,
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
        {cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe']},
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
    });
    const [code] = (await once(child, 'close')) as [number | null];
    const wire = await finishedTapRecord(record);
    assert.deepEqual(wire.exit, {code: 0, signal: null}, `the server did not exit cleanly: ${stderr}`);
    assert.equal(wire.ended, true);
    assert.deepEqual(wire.errors, []);
    return {code, stdout, stderr, wire};
}

/** Runs one method that must succeed and returns its parsed `result`. */
async function inspectResult(
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
function assertProbedInPlace(wire: TapRecord): void {
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

// One suite around all runs, so that every run, the minute-long one included, goes in parallel.
describe('the Inspector 2.x CLI', GUARD, () => {
    describe('the Inspector 2.x CLI in its modern era with the observatory', GUARD, () => {
        test('probes server/discover in place, then lists the tools with the envelope on the request', async () => {
            const {result, wire} = await inspectResult('modern', OBSERVATORY, '--method', 'tools/list');
            const tools = result.tools as {name: string}[];
            assert.deepEqual(
                tools.map((tool) => tool.name),
                OBSERVATORY_TOOL_NAMES,
            );
            assert.deepEqual(tools[0], SKY_TONIGHT);
            assertProbedInPlace(wire);
            const sent = records(wire.input);
            assert.deepEqual(
                sent.map((message) => message.method),
                ['server/discover', 'tools/list'],
            );
            const request = sent[1] as Wire;
            assert.deepEqual((request.params as {_meta: unknown})._meta, META);
            const line = answerLine(wire.output, request.id);
            assert.equal(
                line,
                JSON.stringify({
                    jsonrpc: '2.0',
                    id: request.id,
                    result: {
                        resultType: 'complete',
                        _meta: OBSERVATORY_META,
                        tools: (JSON.parse(line) as {result: {tools: unknown}}).result.tools,
                        ttlMs: 300000,
                        cacheScope: 'public',
                    },
                }),
            );
        });

        test('calls sky.tonight and prints its structuredContent exactly', async () => {
            const {result, wire} = await inspectResult(
                'modern',
                OBSERVATORY,
                '--method',
                'tools/call',
                '--tool-name',
                'sky.tonight',
                '--tool-arg',
                'site=Kitt Peak',
            );
            const content = [{type: 'text', text: 'Kitt Peak: Moon, Jupiter, Saturn visible; seeing 4/5.'}];
            const structuredContent = {
                site: 'Kitt Peak',
                moonPhase: 'waxing gibbous',
                visible: ['Moon', 'Jupiter', 'Saturn'],
                seeing: 4,
            };
            assert.deepEqual(result, {_meta: OBSERVATORY_META, content, structuredContent});
            const id = lastRequestId(records(wire.input), 'tools/call');
            assert.equal(
                answerLine(wire.output, id),
                JSON.stringify({
                    jsonrpc: '2.0',
                    id,
                    result: {resultType: 'complete', _meta: OBSERVATORY_META, content, structuredContent},
                }),
            );
        });

        test('calls the gallery and gets every content block type', async () => {
            const {result} = await inspectResult(
                'modern',
                OBSERVATORY,
                '--method',
                'tools/call',
                '--tool-name',
                'sky.gallery',
            );
            assert.deepEqual(
                (result.content as {type: string}[]).map((block) => block.type),
                ['text', 'image', 'audio', 'resource_link', 'resource'],
            );
        });

        test('prints an isError result and exits 5', async () => {
            const run = await inspect(
                'modern',
                OBSERVATORY,
                '--method',
                'tools/call',
                '--tool-name',
                'telescope.point',
                '--tool-arg',
                'target=pluto',
            );
            assert.equal(run.code, 5);
            assert.deepEqual(JSON.parse(run.stdout), {
                result: {
                    _meta: OBSERVATORY_META,
                    content: [
                        {
                            type: 'text',
                            text: 'No catalogued object is called "pluto"; try one of moon, jupiter, saturn, m31.',
                        },
                    ],
                    isError: true,
                },
            });
            assert.equal(
                run.stderr,
                `${JSON.stringify({error: {code: 'tool_is_error', message: "Tool 'telescope.point' returned isError:true."}})}\n`,
            );
        });

        test('lists the resources and reads the text and the blob resource with their caching hints', async () => {
            const listed = await inspectResult('modern', OBSERVATORY, '--method', 'resources/list');
            assert.deepEqual(listed.result, {resources: OBSERVATORY_RESOURCES});
            const text = await inspectResult(
                'modern',
                OBSERVATORY,
                '--method',
                'resources/read',
                '--uri',
                'observatory://catalog',
            );
            assert.deepEqual(text.result, {
                _meta: OBSERVATORY_META,
                contents: [
                    {
                        uri: 'observatory://catalog',
                        mimeType: 'application/json',
                        text: JSON.stringify(OBSERVATORY_CATALOG),
                    },
                ],
                ttlMs: 0,
                cacheScope: 'private',
            });
            const blob = await inspectResult(
                'modern',
                OBSERVATORY,
                '--method',
                'resources/read',
                '--uri',
                'observatory://plates/m31.png',
            );
            assert.deepEqual(blob.result, {
                _meta: OBSERVATORY_META,
                contents: [{uri: 'observatory://plates/m31.png', mimeType: 'image/png', blob: PLATE_PNG}],
                ttlMs: 0,
                cacheScope: 'private',
            });
        });

        test('reports the missing resource (-32602 with the uri on the wire) and exits 1', async () => {
            const run = await inspect(
                'modern',
                OBSERVATORY,
                '--method',
                'resources/read',
                '--uri',
                'observatory://nowhere',
            );
            assert.equal(run.code, 1);
            assert.equal(run.stdout, '');
            assert.equal(
                run.stderr,
                `${JSON.stringify({error: {code: 'error', message: 'Resource not found: observatory://nowhere'}})}\n`,
            );
            const id = lastRequestId(records(run.wire.input), 'resources/read');
            assert.equal(
                answerLine(run.wire.output, id),
                `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32602,` +
                    '"message":"Resource not found: observatory://nowhere","data":{"uri":"observatory://nowhere"}}}',
            );
        });

        test('cancels a slow call at its 60 s request timeout: the handler stops with that reason, no answer is written', async () => {
            const run = await inspect(
                'modern',
                OBSERVATORY,
                '--method',
                'tools/call',
                '--tool-name',
                'sky.survey',
                '--tool-arg',
                'sectors=10000',
            );
            assert.equal(run.code, 1);
            assert.equal(run.stdout, '');
            const sent = records(run.wire.input);
            const id = lastRequestId(sent, 'tools/call');
            assert.deepEqual(
                sent.filter((message) => message.method === 'notifications/cancelled'),
                [
                    {
                        jsonrpc: '2.0',
                        method: 'notifications/cancelled',
                        params: {requestId: id, reason: 'SdkError: Request timed out', _meta: ENVELOPE},
                    },
                ],
            );
            assert.deepEqual(
                records(run.wire.output).filter((message) => message.id === id),
                [],
            );
            // The server and the CLI share stderr, so their lines are matched by content, not position.
            const lines = run.stderr.split('\n');
            assert.equal(lines.pop(), '');
            const server = lines.filter((line) => line.startsWith('observatory: '));
            const cli = lines.filter((line) => !line.startsWith('observatory: '));
            assert.equal(server.length, 2);
            assert.equal(server[0], `observatory: survey ${id} started: 10000 sectors`);
            assert.match(
                server[1] as string,
                new RegExp(
                    `^observatory: survey ${id} stopped after \\d+ sectors: SdkError: Request timed out$`,
                ),
            );
            assert.equal(cli.length, 1);
            // The message names measured durations; its fixed parts are checked exactly.
            const envelope = JSON.parse(cli[0] as string) as {
                error: {code: string; message: string; cause: string};
            };
            assert.deepEqual(
                {...envelope.error, message: ''},
                {code: 'error', message: '', cause: 'Request timed out'},
            );
            assert.match(
                envelope.error.message,
                /^Request timed out after 1m00s \(tools\/call\)\. 1 request is unanswered: tools\/call \(sent \d+m\d+s ago\)\. Last response received \d+m\d+s ago \(tools\/list\)\.$/,
            );
        });
    });

    describe('the Inspector 2.x CLI in its auto and legacy eras with the observatory', GUARD, () => {
        test('auto probes in place and chooses 2026-07-28', async () => {
            const {result, wire} = await inspectResult(
                'auto',
                OBSERVATORY,
                '--method',
                'tools/call',
                '--tool-name',
                'sky.tonight',
            );
            assert.deepEqual(result._meta, OBSERVATORY_META);
            assertProbedInPlace(wire);
        });

        test('legacy initializes at 2025-11-25 and gets the result without the modern decoration', async () => {
            const {result, wire} = await inspectResult(
                'legacy',
                OBSERVATORY,
                '--method',
                'tools/call',
                '--tool-name',
                'sky.tonight',
            );
            assert.deepEqual(result, {
                content: [{type: 'text', text: 'Mauna Kea: Moon, Jupiter, Saturn visible; seeing 4/5.'}],
                structuredContent: {
                    site: 'Mauna Kea',
                    moonPhase: 'waxing gibbous',
                    visible: ['Moon', 'Jupiter', 'Saturn'],
                    seeing: 4,
                },
            });
            const sent = records(wire.input);
            assert.deepEqual(
                sent.map((message) => message.method),
                ['initialize', 'notifications/initialized', 'tools/list', 'tools/call'],
            );
            assert.deepEqual(
                (sent[0] as {params: {protocolVersion: unknown}}).params.protocolVersion,
                '2025-11-25',
            );
        });
    });

    describe('the Inspector 2.x CLI with a modern-only server', GUARD, () => {
        const META_CONSTELLATIONS = {[SERVER_INFO_KEY]: {name: 'constellations', version: '1.0.0'}};

        test('prints array structuredContent checked against the array outputSchema', async () => {
            const {result} = await inspectResult(
                'modern',
                CONSTELLATIONS,
                '--method',
                'tools/call',
                '--tool-name',
                'stars.brightest',
                '--tool-arg',
                'count=2',
            );
            assert.deepEqual(result, {
                _meta: META_CONSTELLATIONS,
                content: [{type: 'text', text: 'Sirius, Canopus'}],
                structuredContent: [
                    {name: 'Sirius', magnitude: -1.46},
                    {name: 'Canopus', magnitude: -0.74},
                ],
            });
            const run = await inspect(
                'modern',
                CONSTELLATIONS,
                '--method',
                'tools/call',
                '--tool-name',
                'stars.miscounted',
            );
            assert.equal(run.code, 1);
            assert.equal(
                run.stderr,
                `${JSON.stringify({error: {code: 'error', message: 'data/0 must be object, data/1 must be object, data/2 must be object'}})}\n`,
            );
        });

        test('in its legacy era it is refused at initialize, and prints the -32022 message', async () => {
            const run = await inspect('legacy', CONSTELLATIONS, '--method', 'tools/list');
            assert.equal(run.code, 1);
            assert.equal(run.stdout, '');
            const message =
                'This server serves only 2026-07-28, which has no "initialize": send each request with ' +
                'params._meta["io.modelcontextprotocol/protocolVersion"] and ' +
                'params._meta["io.modelcontextprotocol/clientCapabilities"]';
            assert.equal(run.stderr, `${JSON.stringify({error: {code: 'error', message}})}\n`);
            assert.equal(
                run.wire.output,
                `${JSON.stringify({
                    jsonrpc: '2.0',
                    id: 0,
                    error: {
                        code: -32022,
                        message,
                        data: {supported: ['2026-07-28'], requested: '2025-11-25'},
                    },
                })}\n`,
            );
        });
    });
});
