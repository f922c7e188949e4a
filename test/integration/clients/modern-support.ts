/**
 * Shared pieces of the 2026-07-28 client tests: the envelope keys, what the observatory answers in
 * that era, a tap on the processes a client transport spawns (the exact bytes each one received
 * and wrote, and how it ended), and the reader of the wire-tap fixture's record. Nothing here
 * sleeps: every wait is for an event.
 */
import assert from 'node:assert/strict';
import type {ChildProcess} from 'node:child_process';
import {readFileSync, watch} from 'node:fs';
import {OBSERVATORY_INSTRUCTIONS} from '../../helpers/observatory.js';

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

export const MODERN = '2026-07-28';

/** Every revision the observatory lists, newest first, as its discovery result names them. */
export const OBSERVATORY_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export const OBSERVATORY_INFO = {name: 'observatory', version: '1.0.0', title: 'Observatory'};

/** The `_meta` of every result the observatory gives under 2026-07-28. */
export const OBSERVATORY_META = {[SERVER_INFO_KEY]: OBSERVATORY_INFO};

/** The observatory's `server/discover` result, in the order its fields go on the wire. */
export const OBSERVATORY_DISCOVERY = {
    resultType: 'complete',
    _meta: OBSERVATORY_META,
    supportedVersions: OBSERVATORY_REVISIONS,
    capabilities: {tools: {}, resources: {}},
    instructions: OBSERVATORY_INSTRUCTIONS,
    ttlMs: 300000,
    cacheScope: 'public',
};

/** The per-request envelope a 2026-07-28 client sends. */
export function modernMeta(clientInfo: object, clientCapabilities: object = {}): Record<string, unknown> {
    return {
        [PROTOCOL_VERSION_KEY]: MODERN,
        [CLIENT_INFO_KEY]: clientInfo,
        [CLIENT_CAPABILITIES_KEY]: clientCapabilities,
    };
}

export type Wire = {[key: string]: unknown};

/** The records of newline-delimited JSON-RPC text, in order. */
export function records(text: string): Wire[] {
    return lines(text).map((line) => JSON.parse(line) as Wire);
}

/** The complete lines of `text`, without their line feeds. */
export function lines(text: string): string[] {
    const all = text.split('\n');
    assert.equal(all.pop(), '', `the text ends in the middle of a line: ${JSON.stringify(text.slice(-200))}`);
    return all;
}

/** The one line of `text` whose record answers `id`, exactly as written. */
export function answerLine(text: string, id: unknown): string {
    const found = lines(text).filter((line) => (JSON.parse(line) as Wire).id === id);
    assert.equal(found.length, 1, `expected one answer to ${JSON.stringify(id)}, got ${found.length}`);
    return found[0] as string;
}

/** Asserts the exact bytes of the one answer to `id` in `text`: a result response with `result`. */
export function assertAnswer(text: string, id: unknown, result: object): void {
    assert.equal(answerLine(text, id), JSON.stringify({jsonrpc: '2.0', id, result}));
}

/** The id of the last request of `method` in `sent` (and, for tools/call, of tool `name`). */
export function lastRequestId(sent: Wire[], method: string, name?: string): unknown {
    const matching = sent.filter(
        (message) =>
            message.method === method &&
            'id' in message &&
            (name === undefined || (message.params as {name?: unknown}).name === name),
    );
    assert.ok(matching.length > 0, `no ${method} request was sent`);
    return matching.at(-1)?.id;
}

export interface Exit {
    code: number | null;
    signal: NodeJS.Signals | null;
}

/**
 * Everything one spawned server received on stdin and wrote on stdout, as raw text, and how it
 * exited. It wraps the child's `stdin.write`, the one call every client transport writes through,
 * and listens to stdout beside the transport.
 */
export class ProcessTap {
    readonly child: ChildProcess;
    readonly exited: Promise<Exit>;
    #input = '';
    readonly #output: Buffer[] = [];

    constructor(child: ChildProcess) {
        this.child = child;
        // Not `events.once`, which rejects on an 'error' event: a child killed through an abort
        // signal emits one (an AbortError) before it exits.
        this.exited =
            child.exitCode !== null || child.signalCode !== null
                ? Promise.resolve({code: child.exitCode, signal: child.signalCode})
                : new Promise((resolve) => child.once('exit', (code, signal) => resolve({code, signal})));
        const stdin = child.stdin;
        const stdout = child.stdout;
        assert.ok(stdin !== null && stdout !== null, 'the tapped child has no stdin or stdout pipe');
        const write = stdin.write.bind(stdin) as (chunk: unknown, ...rest: unknown[]) => boolean;
        (stdin as unknown as {write: typeof write}).write = (chunk, ...rest) => {
            this.#input +=
                typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
            return write(chunk, ...rest);
        };
        stdout.on('data', (chunk: Buffer) => this.#output.push(chunk));
    }

    /** Every byte written to the server's stdin so far, as text. */
    get input(): string {
        return this.#input;
    }

    /** Every byte the server wrote on stdout so far, as text. */
    get output(): string {
        return Buffer.concat(this.#output).toString('utf8');
    }

    get sent(): Wire[] {
        return records(this.input);
    }

    get received(): Wire[] {
        return records(this.output);
    }
}

/**
 * Runs `work` with every process that a transport class starts tapped, and resolves with its value
 * and the taps in start order. `prototype.start` is wrapped for the duration of `work` only, and
 * `childOf` finds the process a started transport spawned. The tap is installed before `start`
 * resolves, so it sees the first byte either way.
 */
export async function tapped<Value>(
    prototype: {start(): Promise<void>},
    childOf: (transport: object) => ChildProcess,
    work: () => Promise<Value>,
): Promise<{value: Value; taps: ProcessTap[]}> {
    const taps: ProcessTap[] = [];
    const start = prototype.start;
    prototype.start = async function (this: object) {
        await start.call(this);
        taps.push(new ProcessTap(childOf(this)));
    };
    try {
        return {value: await work(), taps};
    } finally {
        prototype.start = start;
    }
}

/** What the wire-tap fixture recorded: both directions as text, and how the server ended. */
export interface TapRecord {
    input: string;
    output: string;
    /** The client closed the server's input. */
    ended: boolean;
    /** Write failures the tap saw; none in a clean session. */
    errors: string[];
    exit: Exit | undefined;
}

export function readTapRecord(file: string): TapRecord {
    const record: TapRecord = {input: '', output: '', ended: false, errors: [], exit: undefined};
    for (const line of lines(readFileSync(file, 'utf8'))) {
        const event = JSON.parse(line) as {
            in?: string;
            out?: string;
            end?: true;
            error?: string;
            exit?: Exit;
        };
        if (event.in !== undefined) record.input += event.in;
        if (event.out !== undefined) record.output += event.out;
        if (event.end === true) record.ended = true;
        if (event.error !== undefined) record.errors.push(event.error);
        if (event.exit !== undefined) record.exit = event.exit;
    }
    return record;
}

/**
 * Resolves with the record once the tapped server's exit is in it. The file must exist; the
 * watcher is in place before the first read, so no append can slip between them.
 */
export function finishedTapRecord(file: string): Promise<TapRecord> {
    return new Promise((resolve, reject) => {
        const check = (): boolean => {
            let record: TapRecord;
            try {
                record = readTapRecord(file);
            } catch (error) {
                // A line still being appended; the next change event completes it.
                if (error instanceof SyntaxError || error instanceof assert.AssertionError) return false;
                throw error;
            }
            if (record.exit === undefined) return false;
            watcher.close();
            resolve(record);
            return true;
        };
        const watcher = watch(file, () => {
            try {
                check();
            } catch (error) {
                watcher.close();
                reject(error);
            }
        });
        try {
            check();
        } catch (error) {
            watcher.close();
            reject(error);
        }
    });
}
