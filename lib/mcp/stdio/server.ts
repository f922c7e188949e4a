/**
 * The server: binds a session to caller-owned streams and owns the drain/close/closed lifecycle.
 *
 * It listens to the streams it is given and never ends, destroys or writes anything but records to
 * them; `input.ts` reads the input and stops it when the session closes. A stream failure (input
 * `error`, input `close` before `end`, undecodable input, a failed output or diagnostic write)
 * cancels every pending handler with the failure as the reason, is reported on the diagnostic
 * stream where that still works, and closes the session: `closed` rejects with an
 * `AggregateError` of every failure once the owned work has settled and the input is stopped.
 */
import type {Readable, Writable} from 'node:stream';
import type {RequestId} from '../../jsonrpc/records.js';
import {isObject, isRequestId} from '../../jsonrpc/records.js';
import {Utf8DecodeError} from '../../jsonrpc/utf8-error.js';
import {RecordWriter} from '../../jsonrpc/writer.js';
import {describe} from '../../util/describe.js';
import {cancelPendingOf, checkKnownKeys} from '../../util/options.js';
import type {Catalog} from '../server/catalog.js';
import {buildCatalog} from '../server/catalog.js';
import {formatDiagnostic} from '../server/diagnostics.js';
import type {McpStdioServerOptions} from '../server/options.js';
import {Session} from '../server/session.js';
import type {CloseOptions, McpStdioServer, StartOptions} from '../server/types.js';
import {SessionInput} from './input.js';

/** Creates a server for one session over stdio. Nothing starts until `start()`. */
export function createMcpStdioServer(options: McpStdioServerOptions): McpStdioServer {
    return new StdioServer(buildCatalog(options));
}

type State = 'new' | 'open' | 'closing' | 'closed';

/** What `start()` creates: the session, and the ends of its three streams. */
interface Started {
    readonly session: Session;
    readonly input: SessionInput;
    readonly output: RecordWriter;
    readonly diagnostics: RecordWriter;
}

class StdioServer implements McpStdioServer {
    readonly #catalog: Catalog;
    #state: State = 'new';
    #started: Started | undefined;
    #inputPaused = false;
    readonly #failures: Error[] = [];
    #closing: Promise<void> | undefined;
    readonly closed: Promise<void>;
    #resolveClosed!: () => void;
    #rejectClosed!: (error: AggregateError) => void;

    constructor(catalog: Catalog) {
        this.#catalog = catalog;
        this.closed = new Promise((resolve, reject) => {
            this.#resolveClosed = resolve;
            this.#rejectClosed = reject;
        });
    }

    start(options?: StartOptions): McpStdioServer {
        if (this.#state !== 'new') {
            throw new TypeError(
                this.#started === undefined
                    ? 'server.start() after server.close(): a closed server cannot start; create another server'
                    : 'server.start() was already called: a server serves exactly one session; create another server for another session',
            );
        }
        if (options !== undefined) {
            if (!isObject(options)) {
                throw new TypeError(
                    `server.start(options) needs an options object, got ${describe(options)}`,
                );
            }
            // A misspelt key would otherwise fall back to the process's own stream without a word.
            checkKnownKeys('server.start()', options, START_OPTIONS);
        }
        const inputStream = options?.input ?? process.stdin;
        const outputStream = options?.output ?? process.stdout;
        const errorStream = options?.error ?? process.stderr;
        checkReadable(inputStream);
        checkWritable('output', outputStream);
        checkWritable('error', errorStream);
        if ((outputStream as unknown) === errorStream) {
            throw new TypeError(
                'server.start(): output and error must be different streams; diagnostics on the output stream would corrupt the protocol',
            );
        }
        this.#state = 'open';
        const writerEvents = {
            onFailure: (failure: Error) => this.#fail(failure),
            onSettled: () => this.#relieve(),
        };
        const output = new RecordWriter(outputStream, 'output', writerEvents);
        const diagnostics = new RecordWriter(errorStream, 'diagnostic', writerEvents);
        const session = new Session(this.#catalog, {
            send: (record) => {
                output.write(record);
                this.#restrain();
            },
            sendLatest: (record, slot) => {
                output.writeLatest(record, slot);
                this.#restrain();
            },
            withdraw: (slot) => output.withdraw(slot),
            diagnose: (text) => {
                diagnostics.write(text);
                this.#restrain();
            },
        });
        const input = new SessionInput(inputStream, session, this.#catalog.maxMessageBytes, {
            onEnd: () => void this.#shutdown(),
            onFailure: (failure) => this.#fail(failure),
        });
        this.#started = {session, input, output, diagnostics};
        input.start();
        return this;
    }

    cancel(requestId: RequestId, reason?: unknown): boolean {
        if (!isRequestId(requestId)) {
            throw new TypeError(
                'server.cancel(requestId) needs a request id: a string, or an integer of at most 2^53 - 1 in ' +
                    `magnitude; got ${describe(requestId)}`,
            );
        }
        return this.#started?.session.calls.cancel(requestId, reason) ?? false;
    }

    notifyResourceUpdated(uri: string): number {
        if (typeof uri !== 'string') {
            throw new TypeError(
                `server.notifyResourceUpdated(uri) needs the resource URI as a string, got ${describe(uri)}`,
            );
        }
        if (!this.#catalog.subscriptions) {
            throw new TypeError(
                'server.notifyResourceUpdated(): this server serves no subscriptions; create it with subscriptions: true',
            );
        }
        if (this.#state !== 'open') return 0;
        return this.#started?.session.subscriptions.notify(uri) ?? 0;
    }

    async drain(): Promise<void> {
        const started = this.#started;
        if (started === undefined) return;
        const {session, output, diagnostics} = started;
        while (session.calls.running > 0 || !output.idle || !diagnostics.idle) {
            await session.calls.whenAllAnswered();
            await output.whenIdle();
            await diagnostics.whenIdle();
        }
    }

    close(options?: CloseOptions): Promise<void> {
        if (cancelPendingOf('server', options) && this.#state !== 'closed') {
            this.#started?.session.calls.cancelAll(
                new DOMException('The MCP session was closed with cancelPending: true', 'AbortError'),
            );
        }
        return this.#shutdown();
    }

    /**
     * Unwritten output and unwritten diagnostics both count: a client that stops reading stderr
     * while sending lines that each cause a diagnostic would otherwise grow memory without bound.
     */
    #backlog(started: Started): number {
        return started.output.backlog + started.diagnostics.backlog;
    }

    /** Pauses reading while the backlog is above the high-water mark. */
    #restrain(): void {
        const started = this.#started;
        if (
            !this.#inputPaused &&
            this.#state === 'open' &&
            started !== undefined &&
            this.#backlog(started) > this.#catalog.outputHighWaterMark
        ) {
            this.#inputPaused = true;
            started.input.hold();
        }
    }

    /** Resumes reading once a paused backlog is down to half the high-water mark. */
    #relieve(): void {
        const started = this.#started;
        if (!this.#inputPaused || started === undefined) return;
        if (this.#backlog(started) > this.#catalog.outputHighWaterMark / 2) return;
        this.#inputPaused = false;
        started.input.release();
    }

    #fail(error: Error): void {
        this.#failures.push(error);
        const started = this.#started;
        started?.session.calls.cancelAll(error);
        if (started !== undefined && !started.diagnostics.failed) {
            started.diagnostics.write(formatDiagnostic(transportSummary(error), diagnosticDetail(error)));
        }
        this.#shutdown();
    }

    #shutdown(): Promise<void> {
        if (this.#closing !== undefined) return this.#closing;
        const started = this.#started;
        if (started === undefined) {
            this.#state = 'closed';
            this.#resolveClosed();
            this.#closing = Promise.resolve();
            return this.#closing;
        }
        this.#state = 'closing';
        const stopped = started.input.stop();
        // No answer can arrive once input stops: handlers waiting on the client hear so now.
        started.session.ending();
        this.#closing = Promise.all([this.drain(), stopped]).then(() => this.#finish(started));
        return this.#closing;
    }

    #finish(started: Started): void {
        started.input.detach();
        started.output.detach();
        started.diagnostics.detach();
        this.#state = 'closed';
        const failures = this.#failures;
        if (failures.length === 0) {
            this.#resolveClosed();
            return;
        }
        this.#rejectClosed(
            new AggregateError(
                failures,
                `The MCP stdio session failed: ${failures.map((failure) => failure.message).join('; ')}`,
            ),
        );
    }
}

function transportSummary(error: Error): string {
    return `Transport failure, closing the session and cancelling pending requests: ${error.message}`;
}

function diagnosticDetail(error: Error): unknown {
    if (!(error instanceof Utf8DecodeError)) return error;
    return {
        error,
        affectedChunksHex: error.chunks.map((chunk) => chunk.toString('hex')),
        pendingText: error.pendingText,
    };
}

function checkReadable(input: unknown): asserts input is Readable {
    const stream = input as Partial<Readable> | null;
    if (
        typeof stream !== 'object' ||
        stream === null ||
        typeof stream.on !== 'function' ||
        typeof stream.pause !== 'function' ||
        typeof stream.resume !== 'function'
    ) {
        throw new TypeError(`server.start(): input must be a Node readable stream, got ${describe(input)}`);
    }
    if (stream.destroyed === true || stream.readableEnded === true || stream.readable === false) {
        throw new TypeError('server.start(): input must be open: it has already ended or been destroyed');
    }
}

function checkWritable(name: string, output: unknown): asserts output is Writable {
    const stream = output as Partial<Writable> | null;
    if (
        typeof stream !== 'object' ||
        stream === null ||
        typeof stream.write !== 'function' ||
        typeof stream.on !== 'function'
    ) {
        throw new TypeError(
            `server.start(): ${name} must be a Node writable stream, got ${describe(output)}`,
        );
    }
    if (stream.destroyed === true || stream.writableEnded === true || stream.writable === false) {
        throw new TypeError(`server.start(): ${name} must be open: it has already ended or been destroyed`);
    }
}

const START_OPTIONS: readonly string[] = ['input', 'output', 'error'];
