/**
 * The MCP Inspector 2.x command line (`--cli`) with the star-atlas example, in its legacy
 * (2025-11-25, `initialize`) and modern (2026-07-28, probed `server/discover`) eras: it lists and
 * gets the prompt, lists the template and reads a resource through it. Each run launches the
 * server through the wire-tap fixture (see inspector-support.ts), so each test asserts what the CLI
 * prints and the exact answer the server wrote. The CLI offers no completion method (its
 * `--method` list has none), so completion is covered by the SDK clients.
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {
    ATLAS_CAPABILITIES,
    ATLAS_INFO,
    OBJECT_TEMPLATE,
    OBSERVE_PROMPT,
    objectContents,
    observeResult,
    STAR_ATLAS,
} from '../../examples/star-atlas-session.js';
import type {Era} from './inspector-support.js';
import {ENVELOPE, inspect, inspectResult, META, removeInspectorRecords} from './inspector-support.js';
import type {TapRecord, Wire} from './modern-support.js';
import {answerLine, lastRequestId, records, SERVER_INFO_KEY} from './modern-support.js';

after(removeInspectorRecords);

/** Each run is its own pair of processes, so the runs go in parallel; the timeout only guards a hang. */
const GUARD = {timeout: 180_000, concurrency: true};

const IDENTITY = {_meta: {[SERVER_INFO_KEY]: ATLAS_INFO}};
const LIST_HINTS = {ttlMs: 300000, cacheScope: 'public'};

/** The exact answer line the server wrote to the last request of `method`, parsed. */
function answer(wire: TapRecord, method: string): Wire {
    return JSON.parse(answerLine(wire.output, lastRequestId(records(wire.input), method))) as Wire;
}

/** The era's own preamble: `initialize` and its notification, or the probe in place, answered exactly. */
function assertOpening(era: 'legacy' | 'modern', wire: TapRecord): void {
    const sent = records(wire.input);
    if (era === 'legacy') {
        assert.equal(sent[0]?.method, 'initialize');
        assert.equal(
            (sent[0]?.params as {protocolVersion?: string} | undefined)?.protocolVersion,
            '2025-11-25',
        );
        assert.deepEqual(answer(wire, 'initialize').result, {
            protocolVersion: '2025-11-25',
            capabilities: ATLAS_CAPABILITIES,
            serverInfo: ATLAS_INFO,
        });
        assert.deepEqual(sent[1], {jsonrpc: '2.0', method: 'notifications/initialized'});
        return;
    }
    assert.deepEqual(sent[0], {
        jsonrpc: '2.0',
        id: 'server-discover-probe-1',
        method: 'server/discover',
        params: {_meta: ENVELOPE},
    });
    assert.deepEqual(answer(wire, 'server/discover').result, {
        resultType: 'complete',
        ...IDENTITY,
        supportedVersions: ['2026-07-28', '2025-11-25'],
        capabilities: ATLAS_CAPABILITIES,
        ...LIST_HINTS,
    });
    assert.equal(
        sent.some((message) => message.method === 'initialize'),
        false,
    );
}

for (const era of ['legacy', 'modern'] as const satisfies readonly Era[]) {
    const modern = era === 'modern';
    /** What the modern era adds to a result on the wire. */
    const head = modern ? {resultType: 'complete', ...IDENTITY} : {};

    describe(`the Inspector 2.x CLI in its ${era} era with the star atlas`, GUARD, () => {
        test('initialize shows prompts, resources and completions offered', async () => {
            const {result, wire} = await inspectResult(era, STAR_ATLAS, '--method', 'initialize');
            assert.deepEqual(result, {
                serverInfo: ATLAS_INFO,
                protocolVersion: modern ? '2026-07-28' : '2025-11-25',
                capabilities: ATLAS_CAPABILITIES,
            });
            assertOpening(era, wire);
        });

        test('lists the prompt', async () => {
            const {result, wire} = await inspectResult(era, STAR_ATLAS, '--method', 'prompts/list');
            assert.deepEqual(result, {prompts: [OBSERVE_PROMPT]});
            assertOpening(era, wire);
            assert.deepEqual(
                answer(wire, 'prompts/list').result,
                modern ? {...head, prompts: [OBSERVE_PROMPT], ...LIST_HINTS} : {prompts: [OBSERVE_PROMPT]},
            );
        });

        test('gets the prompt with its arguments', async () => {
            const {result, wire} = await inspectResult(
                era,
                STAR_ATLAS,
                '--method',
                'prompts/get',
                '--prompt-name',
                'observe',
                '--prompt-args',
                'object=m42',
                'instrument=eyes',
            );
            assert.deepEqual(
                result,
                modern ? {...IDENTITY, ...observeResult('m42', 'eyes')} : observeResult('m42', 'eyes'),
            );
            const request = records(wire.input).find((message) => message.method === 'prompts/get') as Wire;
            assert.deepEqual(request.params, {
                name: 'observe',
                arguments: {object: 'm42', instrument: 'eyes'},
                ...(modern ? {_meta: META} : {}),
            });
            assert.deepEqual(answer(wire, 'prompts/get'), {
                jsonrpc: '2.0',
                id: request.id,
                result: {...head, ...observeResult('m42', 'eyes')},
            });
        });

        test('a prompt without its required argument fails with the server’s message', async () => {
            const run = await inspect(era, STAR_ATLAS, '--method', 'prompts/get', '--prompt-name', 'observe');
            assert.equal(run.code, 1);
            assert.equal(run.stdout, '');
            const message = 'prompts/get of prompt "observe" is missing the required argument "object"';
            assert.equal(run.stderr, `${JSON.stringify({error: {code: 'error', message}})}\n`);
            const request = records(run.wire.input).find(
                (message) => message.method === 'prompts/get',
            ) as Wire;
            assert.deepEqual(answer(run.wire, 'prompts/get'), {
                jsonrpc: '2.0',
                id: request.id,
                error: {
                    code: -32602,
                    message: 'prompts/get of prompt "observe" is missing the required argument "object"',
                },
            });
        });

        test('lists the template', async () => {
            const {result, wire} = await inspectResult(
                era,
                STAR_ATLAS,
                '--method',
                'resources/templates/list',
            );
            assert.deepEqual(result, {resourceTemplates: [OBJECT_TEMPLATE]});
            assert.deepEqual(
                answer(wire, 'resources/templates/list').result,
                modern
                    ? {...head, resourceTemplates: [OBJECT_TEMPLATE], ...LIST_HINTS}
                    : {resourceTemplates: [OBJECT_TEMPLATE]},
            );
        });

        test('reads a resource through the template', async () => {
            const {result, wire} = await inspectResult(
                era,
                STAR_ATLAS,
                '--method',
                'resources/read',
                '--uri',
                'atlas://objects/m45',
            );
            const read = modern
                ? {...IDENTITY, contents: [objectContents('m45')], ttlMs: 0, cacheScope: 'private'}
                : {contents: [objectContents('m45')]};
            assert.deepEqual(result, read);
            assert.deepEqual(answer(wire, 'resources/read').result, {...head, ...read});
        });
    });
}
