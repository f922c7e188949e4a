/**
 * Shared pieces of the tests of `@modelcontextprotocol/client` 2.x in the 2026-07-28 era: its
 * identity and envelope, a connect that taps every process the transport starts, and the check of
 * the probe it sends to its short-lived sibling process (see modern-sdk-v2.test.ts).
 */
import assert from 'node:assert/strict';
import type {Readable} from 'node:stream';
import {Client} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {LineReader, track} from '../../helpers/children.js';
import {OBSERVATORY} from '../../helpers/paths.js';
import type {ProcessTap} from './modern-support.js';
import {modernMeta, OBSERVATORY_DISCOVERY, tapped} from './modern-support.js';
import {childOf} from './support.js';

export const CLIENT_INFO = {name: 'modern-v2-test', version: '2.0.0'};
export const META = modernMeta(CLIENT_INFO);
export const PROBE_ID = 'server-discover-probe-1';

export interface Connected {
    client: Client;
    /** Every process the transport started, in order. */
    processes: ProcessTap[];
    stderr: LineReader;
    clientErrors: Error[];
}

export type Mode = 'auto' | {pin: string};

/** Connects a client in `mode` through `transport`, tapping every process the transport class starts. */
export async function connect(mode: Mode, transport: StdioClientTransport): Promise<Connected> {
    const stderr = new LineReader(transport.stderr as Readable);
    const client = track(new Client(CLIENT_INFO, {versionNegotiation: {mode}}));
    const clientErrors: Error[] = [];
    client.onerror = (error) => clientErrors.push(error);
    const {taps} = await tapped(StdioClientTransport.prototype, childOf, () => client.connect(transport));
    return {client, processes: taps, stderr, clientErrors};
}

export function observatoryTransport(): StdioClientTransport {
    return new StdioClientTransport({command: process.execPath, args: [OBSERVATORY], stderr: 'pipe'});
}

/** The probe the client sends and the discovery result the observatory writes, byte for byte. */
export async function assertSiblingProbe(probe: ProcessTap): Promise<void> {
    assert.deepEqual(probe.sent, [
        {jsonrpc: '2.0', id: PROBE_ID, method: 'server/discover', params: {_meta: META}},
    ]);
    assert.equal(
        probe.output,
        `${JSON.stringify({jsonrpc: '2.0', id: PROBE_ID, result: OBSERVATORY_DISCOVERY})}\n`,
    );
    // The client reaps its sibling with SIGTERM right after ending its input.
    assert.deepEqual(await probe.exited, {code: null, signal: 'SIGTERM'});
}
