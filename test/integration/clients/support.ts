/**
 * Shared pieces of the real-client tests: where the examples are, what the observatory serves,
 * a reader for a child's stderr lines, and a recorder of the JSON-RPC traffic a client transport
 * carries. Nothing here sleeps: every wait is for an event.
 */
import assert from 'node:assert/strict';
import type {ChildProcess} from 'node:child_process';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {join} from 'node:path';
import {createInterface} from 'node:readline';
import type {Readable} from 'node:stream';
import {fileURLToPath} from 'node:url';

/** The repository root: this file runs as `dist/test/integration/clients/support.js`. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** An example's source path; examples are not compiled, they run from `examples/`. */
export function examplePath(name: string): string {
    return join(REPO_ROOT, 'examples', name);
}

/** A compiled fixture server of this folder, by its base name. */
export function fixturePath(name: string): string {
    return fileURLToPath(new URL(`./fixtures/${name}.js`, import.meta.url));
}

export const OBSERVATORY = examplePath('observatory.mjs');
export const MOON_PANTRY = examplePath('moon-pantry.mjs');

/** The 8x8 PNG the observatory serves, base64-encoded. */
export const PLATE_PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAH0lEQVR4nGPgEjDAihiIlfj//wGJOtAl4CaQbjkcAQA1+RepgbCOIwAAAABJRU5ErkJggg==';

export const OBSERVATORY_INSTRUCTIONS =
    'Call sky.tonight for what is visible, telescope.point to aim at a catalogued object, ' +
    'and read observatory://catalog for the objects it knows.';

export const OBSERVATORY_CATALOG = {
    moon: {name: 'Moon', kind: 'satellite', magnitude: -12.7},
    jupiter: {name: 'Jupiter', kind: 'planet', magnitude: -2.5},
    saturn: {name: 'Saturn', kind: 'planet', magnitude: 0.6},
    m31: {name: 'Andromeda Galaxy', kind: 'galaxy', magnitude: 3.4},
};

const ICON_SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">' +
    '<circle cx="8" cy="8" r="6" fill="#0a1030"/><circle cx="10" cy="6" r="1" fill="#ffe"/></svg>';

/** `sky.tonight` exactly as the observatory authors it, handler left out. */
export const SKY_TONIGHT = {
    name: 'sky.tonight',
    title: "Tonight's sky",
    description: 'What can be seen from the observatory tonight.',
    inputSchema: {
        type: 'object',
        properties: {site: {type: 'string', description: 'Observing site name.'}},
        additionalProperties: false,
    },
    outputSchema: {
        type: 'object',
        properties: {
            site: {type: 'string'},
            moonPhase: {type: 'string'},
            visible: {type: 'array', items: {type: 'string'}},
            seeing: {type: 'integer', minimum: 1, maximum: 5},
        },
        required: ['site', 'moonPhase', 'visible', 'seeing'],
        additionalProperties: false,
    },
    annotations: {readOnlyHint: true, openWorldHint: false},
    icons: [
        {
            src: `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString('base64')}`,
            mimeType: 'image/svg+xml',
            sizes: ['any'],
        },
    ],
};

export const OBSERVATORY_TOOL_NAMES = ['sky.tonight', 'sky.gallery', 'telescope.point', 'sky.survey'];

export const OBSERVATORY_RESOURCES = [
    {
        uri: 'observatory://catalog',
        name: 'catalog',
        title: 'Object catalogue',
        description: 'Every object the telescope can point at.',
        mimeType: 'application/json',
    },
    {
        uri: 'observatory://plates/m31.png',
        name: 'm31-plate',
        title: 'Photographic plate of M31',
        mimeType: 'image/png',
        size: Buffer.from(PLATE_PNG, 'base64').length,
    },
];

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

/** The structural part of both SDKs' client transports that the recorder hooks. */
interface HookableTransport {
    onmessage?: ((message: never, extra?: never) => void) | undefined;
    onerror?: ((error: Error) => void) | undefined;
    send(message: never, options?: never): Promise<void>;
}

type Wire = {[key: string]: unknown};

/**
 * Records every message a client transport sends and receives, and every transport error.
 * Install it before `connect`: both SDKs chain handlers that were set before they connect.
 */
export class WireRecorder {
    readonly sent: Wire[] = [];
    readonly received: Wire[] = [];
    readonly errors: Error[] = [];

    constructor(transport: HookableTransport) {
        const send = transport.send.bind(transport) as (message: Wire, options?: unknown) => Promise<void>;
        const hooked = transport as unknown as {
            onmessage: (message: Wire) => void;
            onerror: (error: Error) => void;
            send: (message: Wire, options?: unknown) => Promise<void>;
        };
        hooked.send = (message, options) => {
            this.sent.push(message);
            return send(message, options);
        };
        hooked.onmessage = (message) => {
            this.received.push(message);
        };
        hooked.onerror = (error) => {
            this.errors.push(error);
        };
    }

    /** The first sent request of `method`. */
    request(method: string): Wire {
        const found = this.sent.find((message) => message.method === method && 'id' in message);
        if (found === undefined) throw new Error(`No ${method} request was sent`);
        return found;
    }

    /** Every received message answering `id`. */
    answersTo(id: unknown): Wire[] {
        return this.received.filter((message) => message.id === id);
    }
}

/**
 * The child process a stdio client transport spawned. Neither SDK exposes it publicly; the tests
 * read it to observe how the process exits.
 */
export function childOf(transport: object): ChildProcess {
    const child: unknown = Reflect.get(transport, '_process');
    if (child === undefined || child === null)
        throw new Error('The transport has no child process; start it first');
    return child as ChildProcess;
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
    next(): Promise<Wire>;
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
            return JSON.parse(await stdout.line(index)) as Wire;
        },
        async end() {
            const exited = exitOf(child);
            child.stdin?.end();
            return exited;
        },
    };
}

/** The id of the last tools/call of `name` the client sent. */
export function lastCallId(wire: WireRecorder, name: string): number {
    const calls = wire.sent.filter(
        (message) => message.method === 'tools/call' && (message.params as {name?: unknown}).name === name,
    );
    const id = calls.at(-1)?.id;
    assert.equal(typeof id, 'number');
    return id as number;
}

/** Matches the observatory's stderr line about survey `id`: exactly `what`, or matching it. */
export function survey(id: number, what: RegExp | string): (line: string) => boolean {
    const prefix = `observatory: survey ${id} `;
    return (line) =>
        line.startsWith(prefix) &&
        (typeof what === 'string'
            ? line.slice(prefix.length) === what
            : what.test(line.slice(prefix.length)));
}
