/**
 * In-memory stream doubles and a session harness. Nothing here sleeps: every wait is for an event
 * or a promise.
 */
import {EventEmitter, once} from 'node:events';
import {Readable, Writable} from 'node:stream';
import type {McpStdioServer, McpStdioServerOptions} from '../../lib/mcp/stdio/index.js';
import {createMcpStdioServer, MCP_PROTOCOL_VERSION} from '../../lib/mcp/stdio/index.js';

/** A readable fed by hand: `push(chunk)` delivers, `push(null)` ends. */
export function inputStream(): Readable {
    return new Readable({read() {}});
}

/**
 * A writable that keeps everything written, as text, and announces each complete line.
 * Callbacks are called at once unless `hold` is set, in which case `release()` calls them.
 */
export class Sink extends Writable {
    text = '';
    chunks: string[] = [];
    readonly lines = new EventEmitter();
    #held: (() => void)[] = [];
    hold = false;
    #consumed = 0;
    #lineCount = 0;

    constructor() {
        super({decodeStrings: false});
    }

    override _write(
        chunk: unknown,
        _encoding: BufferEncoding,
        callback: (error?: Error | null) => void,
    ): void {
        const text = typeof chunk === 'string' ? chunk : String(chunk);
        this.chunks.push(text);
        this.text += text;
        let lf = this.text.indexOf('\n', this.#consumed);
        while (lf !== -1) {
            this.#lineCount += 1;
            this.lines.emit('line', this.text.slice(this.#consumed, lf));
            this.#consumed = lf + 1;
            lf = this.text.indexOf('\n', this.#consumed);
        }
        if (this.hold) this.#held.push(() => callback());
        else callback();
    }

    /** Completed lines so far. */
    get lineCount(): number {
        return this.#lineCount;
    }

    /** Every complete line written so far, parsed. */
    records(): unknown[] {
        return this.text
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as unknown);
    }

    /** Calls the held write callbacks; returns how many. */
    release(): number {
        const held = this.#held;
        this.#held = [];
        for (const callback of held) callback();
        return held.length;
    }

    get heldCount(): number {
        return this.#held.length;
    }

    /** Resolves with the line that makes `count` complete lines in all. */
    async waitForLines(count: number): Promise<void> {
        while (this.#lineCount < count) {
            await once(this.lines, 'line');
        }
    }
}

/** A writable whose every write fails through its callback with `error`. */
export function failingWritable(error: Error): Writable {
    return new Writable({
        write(_chunk, _encoding, callback) {
            callback(error);
        },
    });
}

export interface Harness {
    server: McpStdioServer;
    input: Readable;
    output: Sink;
    errors: Sink;
    /** Sends one message as a JSON line. */
    send(message: unknown): void;
    /** Sends raw text or bytes as they are. */
    sendRaw(chunk: string | Buffer): void;
    /** Resolves with the response records parsed, once `count` records have been written in all. */
    records(count: number): Promise<unknown[]>;
    /** Initializes the session and returns the initialize response. */
    initialize(params?: Record<string, unknown>): Promise<unknown>;
}

export function harness(options: McpStdioServerOptions): Harness {
    const input = inputStream();
    const output = new Sink();
    const errors = new Sink();
    const server = createMcpStdioServer(options).start({input, output, error: errors});
    const h: Harness = {
        server,
        input,
        output,
        errors,
        send(message) {
            input.push(`${JSON.stringify(message)}\n`);
        },
        sendRaw(chunk) {
            input.push(chunk);
        },
        async records(count) {
            await output.waitForLines(count);
            return output.records();
        },
        async initialize(params) {
            const before = output.lineCount;
            h.send({
                jsonrpc: '2.0',
                id: 'init',
                method: 'initialize',
                params: params ?? {
                    protocolVersion: MCP_PROTOCOL_VERSION,
                    capabilities: {},
                    clientInfo: {name: 'test-client', version: '1.0.0'},
                },
            });
            h.send({jsonrpc: '2.0', method: 'notifications/initialized'});
            const all = await h.records(before + 1);
            return all[before];
        },
    };
    return h;
}

/** Every complete output line so far, as exact text. */
export function lines(h: Harness): string[] {
    return h.output.text.split('\n').slice(0, -1);
}

/** Ends the input and waits for the server to close. */
export async function finish(h: Harness): Promise<void> {
    h.input.push(null);
    await h.server.closed;
}

/** Sends one message and returns its answer's raw line. */
export async function answer(h: Harness, message: object): Promise<string> {
    const before = h.output.lineCount;
    h.send(message);
    await h.output.waitForLines(before + 1);
    return h.output.text.split('\n')[before] as string;
}
