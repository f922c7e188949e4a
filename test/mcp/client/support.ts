/**
 * Shared pieces of the client tests: starting the fake server through the client, and reading what
 * it reports on stderr (every line it received, its pid, EOF and SIGTERM). Nothing here sleeps:
 * every wait is for a line or a promise.
 */
import assert from 'node:assert/strict';
import {EventEmitter, once} from 'node:events';
import {fileURLToPath} from 'node:url';
import type {McpClient, McpStdioClientOptions} from '../../../lib/mcp/client/index.js';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import {closeAll, track} from '../../helpers/children.js';
import type {FakeConfig} from './fixtures/fake-server.js';

export const FAKE_SERVER = fileURLToPath(new URL('./fixtures/fake-server.js', import.meta.url));

/** A guard so that a hang fails the test instead of the run. */
export const GUARD = {timeout: 30_000};

/** The initialize request this client sends by default, byte for byte. */
export const INITIALIZE_LINE =
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",' +
    '"capabilities":{},"clientInfo":{"name":"arcane-os","version":"0.1.0"}}}';
export const INITIALIZED_LINE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

/** The fake server's stderr, split into lines as they arrive. */
export class Wire {
    readonly lines: string[] = [];
    readonly #events = new EventEmitter();
    #partial = '';

    /** The `stderr` option of the client. */
    readonly stderr = (text: string): void => {
        this.#partial += text;
        let lf = this.#partial.indexOf('\n');
        while (lf !== -1) {
            const line = this.#partial.slice(0, lf);
            this.#partial = this.#partial.slice(lf + 1);
            this.lines.push(line);
            this.#events.emit('line', line);
            lf = this.#partial.indexOf('\n');
        }
    };

    /** Every line the server read from its stdin, exactly. */
    received(): string[] {
        return this.lines.filter((line) => line.startsWith('RECV ')).map((line) => line.slice(5));
    }

    /**
     * Every line the server read, once it has read `count`. The server reports a line on stderr
     * before it answers on stdout, but the two pipes race, so a test waits for its lines.
     */
    async receivedCount(count: number): Promise<string[]> {
        while (this.received().length < count) await once(this.#events, 'line');
        return this.received();
    }

    /** Resolves with the first line, already seen or still to come, that satisfies `test`. */
    async until(test: (line: string) => boolean): Promise<string> {
        for (;;) {
            const seen = this.lines.find(test);
            if (seen !== undefined) return seen;
            await once(this.#events, 'line');
        }
    }

    /** Resolves once the server has read a line that contains `text`; returns that line. */
    async receivedLine(text: string): Promise<string> {
        const line = await this.until(
            (candidate) => candidate.startsWith('RECV ') && candidate.includes(text),
        );
        return line.slice(5);
    }

    async pid(): Promise<number> {
        return Number((await this.until((line) => line.startsWith('PID '))).slice(4));
    }
}

/** Closes every client a test connected and left open (after a failed assertion, say). */
export {closeAll};

export interface Started {
    connecting: Promise<McpClient>;
    wire: Wire;
}

/** Starts the fake server through `connectMcpClient` without awaiting the handshake. */
export function startFake(config: FakeConfig = {}, options: Partial<McpStdioClientOptions> = {}): Started {
    const wire = new Wire();
    const connecting = connectMcpClient({
        command: process.execPath,
        args: [FAKE_SERVER, JSON.stringify(config)],
        stderr: wire.stderr,
        ...options,
    } as McpStdioClientOptions).then(track);
    return {connecting, wire};
}

export interface Connected {
    client: McpClient;
    wire: Wire;
    pid: number;
}

export async function connectFake(
    config: FakeConfig = {},
    options: Partial<McpStdioClientOptions> = {},
): Promise<Connected> {
    const {connecting, wire} = startFake(config, options);
    const client = await connecting;
    return {client, wire, pid: await wire.pid()};
}

/** True while a process with this pid exists. */
export function isRunning(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (error) {
        assert.equal((error as NodeJS.ErrnoException).code, 'ESRCH');
        return false;
    }
}

/** Asserts that the process is gone. */
export function assertGone(pid: number): void {
    assert.equal(isRunning(pid), false, `process ${pid} is still running`);
}
