/**
 * The MCP Inspector 2.x command line in its `auto` and `legacy` eras with the dual-era observatory,
 * and in its modern and legacy eras with a server that serves 2026-07-28 only (see
 * inspector-support.ts for how each run is made and checked).
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {OBSERVATORY} from '../../helpers/paths.js';
import {assertProbedInPlace, inspect, inspectResult, removeInspectorRecords} from './inspector-support.js';
import {OBSERVATORY_META, records, SERVER_INFO_KEY} from './modern-support.js';
import {fixturePath} from './support.js';

after(removeInspectorRecords);

const GUARD = {timeout: 60_000, concurrency: true};

const CONSTELLATIONS = fixturePath('modern-only-server');

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
