/**
 * The official `@modelcontextprotocol/client` 2.x in `auto` mode against the dual-era observatory:
 * through the SDK's own transport it probes on a short-lived sibling process, through a subclass
 * it probes in place (see modern-sdk-v2.test.ts for how its source decides).
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {closeAll} from '../../helpers/children.js';
import {OBSERVATORY} from '../../helpers/paths.js';
import type {ProcessTap} from './modern-support.js';
import {answerLine, MODERN, OBSERVATORY_DISCOVERY} from './modern-support.js';
import {assertSiblingProbe, connect, META, observatoryTransport, PROBE_ID} from './sdk-v2-support.js';

after(closeAll);

const GUARD = {timeout: 60_000};

/** A subclass of the SDK's transport: the client probes it in place. */
class InPlaceTransport extends StdioClientTransport {}

describe('the client 2.x in auto mode with the observatory', GUARD, () => {
    test('probes on a sibling process, chooses 2026-07-28, and calls a tool on the session process', async () => {
        const {client, processes} = await connect('auto', observatoryTransport());
        assert.equal(processes.length, 2);
        await assertSiblingProbe(processes[0] as ProcessTap);
        const server = processes[1] as ProcessTap;
        assert.equal(client.getProtocolEra(), 'modern');
        assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
        const result = await client.callTool({name: 'sky.tonight', arguments: {site: 'La Silla'}});
        assert.deepEqual(result.structuredContent, {
            site: 'La Silla',
            moonPhase: 'waxing gibbous',
            visible: ['Moon', 'Jupiter', 'Saturn'],
            seeing: 4,
        });
        // No initialize and no probe on this process; the client lists tools only when asked.
        assert.deepEqual(
            server.sent.map((message) => message.method),
            ['tools/call'],
        );
        await client.close();
        assert.deepEqual(await server.exited, {code: 0, signal: null});
    });

    test('through a transport subclass it probes in place: one process answers the probe, then the session', async () => {
        const transport = new InPlaceTransport({
            command: process.execPath,
            args: [OBSERVATORY],
            stderr: 'pipe',
        });
        const {client, processes} = await connect('auto', transport);
        assert.equal(processes.length, 1);
        const server = processes[0] as ProcessTap;
        assert.equal(client.getProtocolEra(), 'modern');
        await client.readResource({uri: 'observatory://catalog'});
        assert.deepEqual(
            server.sent.map((message) => [message.method, (message.params as {_meta?: unknown})._meta]),
            [
                ['server/discover', META],
                ['resources/read', META],
            ],
        );
        assert.equal(
            answerLine(server.output, PROBE_ID),
            JSON.stringify({jsonrpc: '2.0', id: PROBE_ID, result: OBSERVATORY_DISCOVERY}),
        );
        await client.close();
        assert.deepEqual(await server.exited, {code: 0, signal: null});
    });
});
