/**
 * `connectInProcess(server, options)`: a client of a server in this same process, for an
 * application's tests of its own server. The server is started on two streams this function
 * creates, so no process is spawned, and the session keeps the guarantees of stdio: the same
 * framing and limits, timeouts, cancellation, and a close that leaves nothing running.
 *
 * What the server writes is read as over stdio: a line that is not JSON, too long or not UTF-8 is
 * told to `onProtocolError` and skipped, or ends the session under `strict`.
 *
 * Closing ends the server's input, as a child's stdin is ended, and waits `exitGraceMs` for the
 * server to close by itself; then it closes the server with `cancelPending`. The server closing
 * on its own, or failing, ends the session with an `McpConnectionError`.
 */
import type {Readable} from 'node:stream';
import {PassThrough, Writable} from 'node:stream';
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {RecordWriter} from '../../jsonrpc/writer.js';
import {describe} from '../../util/describe.js';
import {messageOf} from '../../util/message.js';
import {checkKeys, checkNumber, DEFAULT_MAX_MESSAGE_BYTES} from '../../util/options.js';
import type {McpClient} from './client-types.js';
import type {McpClientCommonOptions} from './connect-types.js';
import {McpConnectionError} from './errors.js';
import {readLines, sendLine} from './lines.js';
import {openSession} from './session.js';
import {COMMON_OPTION_NAMES, sessionSettings} from './settings.js';
import {checkStderr, DEFAULT_EXIT_GRACE_MS, GRACE_RULE, LINE_BYTES_RULE} from './stdio-options.js';
import type {ClientTransport, TransportHandlers} from './transport.js';

/** What `connectInProcess` needs of a server: this package's `createMcpStdioServer(...)` has it. */
export interface InProcessServer {
    start(options: {input: Readable; output: Writable; error?: Writable}): unknown;
    close(options?: {cancelPending?: boolean}): Promise<void>;
    readonly closed: Promise<void>;
}

export interface McpInProcessClientOptions extends McpClientCommonOptions {
    /**
     * The server's diagnostics: `'inherit'` leaves them on the server's default (`process.stderr`),
     * `'ignore'` discards them, a function receives them as text chunks. Default: `'inherit'`.
     */
    stderr?: 'inherit' | 'ignore' | ((text: string) => void);
    /** The longest line accepted from the server, in bytes, line feed excluded. Default: 64 MiB. */
    maxMessageBytes?: number;
    /** After the server's input is ended, how long it may take to close before it is closed with `cancelPending`, in ms. Default: 2000. */
    exitGraceMs?: number;
}

const WHERE = 'connectInProcess';

/** Starts `server` on a pair of streams and connects a client to it. Rejects, with the server closed, when the handshake fails. */
export function connectInProcess(
    server: InProcessServer,
    options: McpInProcessClientOptions = {},
): Promise<McpClient> {
    if (!isObject(server) || typeof server.start !== 'function' || typeof server.close !== 'function') {
        throw new TypeError(
            `${WHERE}(server) needs a server not yet started, as createMcpStdioServer(...) returns, got ${describe(server)}`,
        );
    }
    if (!isObject(options))
        throw new TypeError(`${WHERE}(server, options) needs an options object, got ${describe(options)}`);
    checkKeys(WHERE, options, [...COMMON_OPTION_NAMES, 'stderr', 'maxMessageBytes', 'exitGraceMs']);
    const settings = sessionSettings(options, WHERE);
    const transport = new InProcessTransport(server, {
        stderr: checkStderr(options.stderr, WHERE),
        strict: settings.strict,
        maxMessageBytes: checkNumber(
            WHERE,
            'maxMessageBytes',
            options.maxMessageBytes,
            DEFAULT_MAX_MESSAGE_BYTES,
            LINE_BYTES_RULE,
        ),
        exitGraceMs: checkNumber(
            WHERE,
            'exitGraceMs',
            options.exitGraceMs,
            DEFAULT_EXIT_GRACE_MS,
            GRACE_RULE,
        ),
    });
    return openSession(transport, settings);
}

interface InProcessSettings {
    stderr: 'inherit' | 'ignore' | ((text: string) => void);
    maxMessageBytes: number;
    strict: boolean;
    exitGraceMs: number;
}

class InProcessTransport implements ClientTransport {
    /** A line written to a stream has no exchange to abort. */
    readonly exchanges = false;
    readonly #server: InProcessServer;
    readonly #settings: InProcessSettings;
    readonly #toServer = new PassThrough();
    readonly #fromServer = new PassThrough();
    #writer: RecordWriter | undefined;
    #handlers: TransportHandlers | undefined;
    #serverClosed = false;
    #reported = false;
    #closing: Promise<void> | undefined;

    constructor(server: InProcessServer, settings: InProcessSettings) {
        this.#server = server;
        this.#settings = settings;
    }

    async start(handlers: TransportHandlers): Promise<void> {
        this.#handlers = handlers;
        const error = diagnostics(this.#settings.stderr, (problem) => this.#lost(problem));
        this.#server.start({
            input: this.#toServer,
            output: this.#fromServer,
            ...(error === undefined ? {} : {error}),
        });
        const whenClosed = (failure: unknown): void => {
            this.#serverClosed = true;
            const why = failure === undefined ? 'closed' : `failed: ${messageOf(failure)}`;
            this.#lost(new McpConnectionError(`The in-process MCP server ${why}`, {cause: failure}));
        };
        this.#server.closed.then(() => whenClosed(undefined), whenClosed);
        const {maxMessageBytes, strict} = this.#settings;
        const lines = readLines(handlers, {maxMessageBytes, strict, channel: 'its output', hint: ''});
        this.#fromServer.on('data', (chunk: Buffer) => lines.push(chunk));
        this.#writer = new RecordWriter(this.#toServer, 'MCP server input', {
            onFailure: (problem) =>
                this.#lost(
                    new McpConnectionError(
                        `Could not write to the in-process MCP server (${problem.message})`,
                    ),
                ),
            onSettled: () => {},
        });
    }

    send(message: JsonObject): Promise<void> {
        const accepting = this.#closing === undefined && !this.#serverClosed;
        const refusal = 'The in-process MCP server is not accepting input';
        return sendLine(this.#writer as RecordWriter, accepting, refusal, message);
    }

    negotiated(): void {}

    close(): Promise<void> {
        this.#closing ??= this.#end();
        return this.#closing;
    }

    async #end(): Promise<void> {
        const writer = this.#writer;
        if (writer !== undefined) {
            if (!this.#serverClosed) {
                await writer.whenIdle();
                this.#toServer.end();
                if (!(await settlesWithin(this.#server.closed, this.#settings.exitGraceMs))) {
                    await this.#server.close({cancelPending: true}).then(undefined, () => {});
                }
            }
            this.#toServer.destroy();
            this.#fromServer.destroy();
        }
        if (!this.#reported) {
            this.#reported = true;
            this.#handlers?.closed(undefined);
        }
    }

    #lost(error: Error): void {
        if (this.#reported || this.#closing !== undefined) return;
        this.#reported = true;
        (this.#handlers as TransportHandlers).closed(error);
    }
}

/** True when `promise` settles (either way) within `ms`; the timer never outlives the wait. */
function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        const done = (): void => {
            clearTimeout(timer);
            resolve(true);
        };
        promise.then(done, done);
    });
}

/** The server's `error` stream for a `stderr` option; undefined leaves the server's default. */
function diagnostics(
    stderr: InProcessSettings['stderr'],
    lost: (error: Error) => void,
): Writable | undefined {
    if (stderr === 'inherit') return undefined;
    const decoder = new TextDecoder();
    return new Writable({
        write(chunk: Buffer, _encoding, done) {
            if (typeof stderr === 'function') {
                try {
                    stderr(decoder.decode(chunk, {stream: true}));
                } catch (error) {
                    lost(
                        new McpConnectionError(`The stderr callback threw: ${messageOf(error)}`, {
                            cause: error,
                        }),
                    );
                }
            }
            done();
        },
    });
}
