/**
 * Child processes and what tests open: a reader of a stream's lines, how a child exited, a server
 * spawned by hand for tests that speak the wire themselves, and `track`/`closeAll`, which close
 * whatever a failed test left open. Nothing here sleeps: every wait is for an event.
 */
import type {ChildProcess} from 'node:child_process';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {createInterface} from 'node:readline';
import type {Readable} from 'node:stream';

/** One JSON-RPC record as parsed from the wire. */
export type JsonRecord = {[key: string]: unknown};

/** Announces each line of a stream and keeps them all. */
export class LineReader {
    readonly lines: string[] = [];
    #waiters: {ready: () => boolean; settle: () => void; fail: (error: Error) => void}[] = [];
    #closed = false;

    constructor(stream: Readable) {
        const reader = createInterface({input: stream, crlfDelay: Number.POSITIVE_INFINITY});
        reader.on('line', (line) => {
            this.lines.push(line);
            this.#waiters = this.#waiters.filter((waiter) => {
                if (!waiter.ready()) return true;
                waiter.settle();
                return false;
            });
        });
        reader.on('close', () => {
            this.#closed = true;
            for (const waiter of this.#waiters) waiter.fail(this.#ended());
            this.#waiters = [];
        });
    }

    /** Resolves with the first line, already read or still to come, that `match` accepts. */
    waitFor(match: (line: string) => boolean): Promise<string> {
        return this.#when(
            () => this.lines.some(match),
            () => this.lines.find(match) as string,
        );
    }

    /** Resolves with line number `index` (from 0) once it has been read. */
    line(index: number): Promise<string> {
        return this.#when(
            () => this.lines.length > index,
            () => this.lines[index] as string,
        );
    }

    #when(ready: () => boolean, value: () => string): Promise<string> {
        if (ready()) return Promise.resolve(value());
        if (this.#closed) return Promise.reject(this.#ended());
        return new Promise((resolve, reject) => {
            this.#waiters.push({ready, settle: () => resolve(value()), fail: reject});
        });
    }

    #ended(): Error {
        return new Error(`The stream ended before the awaited line; it had: ${JSON.stringify(this.lines)}`);
    }
}

/** Resolves with how `child` exited, and stays valid when it already has. */
export async function exitOf(
    child: ChildProcess,
): Promise<{code: number | null; signal: NodeJS.Signals | null}> {
    if (child.exitCode !== null || child.signalCode !== null) {
        return {code: child.exitCode, signal: child.signalCode};
    }
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    return {code, signal};
}

const cleanups: (() => Promise<unknown>)[] = [];

/**
 * Registers something a test opened (a client, a transport, a child) to be closed by
 * `closeAll`, so that a failing test cannot leave a server running and the test file hanging.
 */
export function track<Closable extends {close(): Promise<unknown>}>(closable: Closable): Closable {
    cleanups.push(() => closable.close());
    return closable;
}

/** Closes everything `track` registered; errors are ignored, since this runs after the verdicts. */
export async function closeAll(): Promise<void> {
    const pending = cleanups.splice(0);
    await Promise.all(pending.map((close) => close().catch(() => undefined)));
}

/** A server spawned by hand, for tests that speak the wire themselves. */
export interface RawServer {
    child: ChildProcess;
    stdout: LineReader;
    stderr: LineReader;
    /** Writes one record (objects are serialized; strings are written as they are) plus a line feed. */
    send(record: unknown): void;
    /** Resolves with the next stdout record, parsed, in order. */
    next(): Promise<JsonRecord>;
    /** Ends stdin and resolves with how the process exited. */
    end(): Promise<{code: number | null; signal: NodeJS.Signals | null}>;
}

export function spawnRaw(script: string, args: readonly string[] = []): RawServer {
    const child = spawn(process.execPath, [script, ...args], {stdio: ['pipe', 'pipe', 'pipe']});
    const stdout = new LineReader(child.stdout as Readable);
    const stderr = new LineReader(child.stderr as Readable);
    let consumed = 0;
    track({
        async close() {
            if (child.exitCode === null && child.signalCode === null) child.kill();
        },
    });
    return {
        child,
        stdout,
        stderr,
        send(record) {
            child.stdin?.write(`${typeof record === 'string' ? record : JSON.stringify(record)}\n`);
        },
        async next() {
            const index = consumed;
            consumed += 1;
            return JSON.parse(await stdout.line(index)) as JsonRecord;
        },
        async end() {
            const exited = exitOf(child);
            child.stdin?.end();
            return exited;
        },
    };
}
