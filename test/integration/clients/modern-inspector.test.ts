/**
 * The MCP Inspector 2.x command line (`@modelcontextprotocol/inspector`, `--cli`) in its modern era
 * (`--protocol-era modern`) with the observatory. Each run launches the server through the wire-tap
 * fixture, performs one method, prints the result as JSON and exits (see inspector-support.ts);
 * each test asserts what the CLI prints, the bytes that crossed the wire, and the server's exit
 * with code 0. Its auto and legacy eras are in modern-inspector-eras.test.ts.
 *
 * In `--cli` mode a request can only be cancelled by the client's built-in 60 s request timeout
 * (the per-server `requestTimeout` setting is not applied to CLI runs), so the cancellation test
 * takes a minute; the runs of this file go in parallel so that minute is spent once.
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {
    OBSERVATORY_CATALOG,
    OBSERVATORY_RESOURCES,
    OBSERVATORY_TOOL_NAMES,
    PLATE_PNG,
    SKY_TONIGHT,
} from '../../helpers/observatory.js';
import {OBSERVATORY} from '../../helpers/paths.js';
import {
    assertProbedInPlace,
    ENVELOPE,
    inspect,
    inspectResult,
    META,
    removeInspectorRecords,
} from './inspector-support.js';
import type {Wire} from './modern-support.js';
import {answerLine, assertAnswer, lastRequestId, OBSERVATORY_META, records} from './modern-support.js';

after(removeInspectorRecords);

/** Each run is its own pair of processes, so the runs go in parallel; the timeout only guards a hang. */
const GUARD = {timeout: 180_000, concurrency: true};

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
        assertAnswer(wire.output, id, {
            resultType: 'complete',
            _meta: OBSERVATORY_META,
            content,
            structuredContent,
        });
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
        // The survey also notes every few sectors scanned; those notes are left out here.
        const server = lines.filter(
            (line) => line.startsWith('observatory: ') && !/: \d+ of \d+ sectors scanned$/.test(line),
        );
        const cli = lines.filter((line) => !line.startsWith('observatory: '));
        assert.equal(server.length, 2);
        assert.equal(server[0], `observatory: survey ${id} started: 10000 sectors`);
        assert.match(
            server[1] as string,
            new RegExp(`^observatory: survey ${id} stopped after \\d+ sectors: SdkError: Request timed out$`),
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
