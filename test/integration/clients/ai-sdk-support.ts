/**
 * Shared pieces of the `@ai-sdk/mcp` tests: the client's identity and envelope, and a connect
 * through its default stdio transport that taps the one process the transport starts.
 */
import assert from 'node:assert/strict';
import type {ChildProcess} from 'node:child_process';
import type {Readable} from 'node:stream';
import type {MCPClient} from '@ai-sdk/mcp';
import {createMCPClient} from '@ai-sdk/mcp';
import {StdioMCPTransport} from '@ai-sdk/mcp/mcp-stdio';
import {LineReader, track} from '../../helpers/children.js';
import type {ProcessTap} from './modern-support.js';
import {
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    MODERN,
    PROTOCOL_VERSION_KEY,
    tapped,
} from './modern-support.js';

export const CLIENT_INFO = {name: 'ai-sdk-test', version: '1.0.0'};
export const META = {
    [PROTOCOL_VERSION_KEY]: MODERN,
    [CLIENT_CAPABILITIES_KEY]: {},
    [CLIENT_INFO_KEY]: CLIENT_INFO,
};

export interface Connected {
    client: MCPClient;
    server: ProcessTap;
    stderr: LineReader;
    uncaught: unknown[];
}

/** The transport's spawned process: it keeps it in a private field. */
const childOf = (transport: object) => Reflect.get(transport, 'process') as ChildProcess;

/** Creates a client of `script` as a user would: the default transport, the default probe. */
export async function connect(script: string): Promise<Connected> {
    const transport = new StdioMCPTransport({command: process.execPath, args: [script], stderr: 'pipe'});
    const uncaught: unknown[] = [];
    const {value: client, taps} = await tapped(StdioMCPTransport.prototype, childOf, () =>
        createMCPClient({
            transport,
            clientName: CLIENT_INFO.name,
            version: CLIENT_INFO.version,
            onUncaughtError: (error) => uncaught.push(error),
        }),
    );
    track(client);
    assert.equal(taps.length, 1);
    const server = taps[0] as ProcessTap;
    const stderr = new LineReader(server.child.stderr as Readable);
    return {client, server, stderr, uncaught};
}
