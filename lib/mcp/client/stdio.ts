/**
 * The stdio transport: the server is a child process the client spawns (never through a shell)
 * and owns until it is gone. Messages go to its stdin one JSON object a line, through the ordered
 * writer; its stdout is read as lines of at most `maxMessageBytes`; its stderr is the caller's.
 *
 * Ending the child, on `close()` for any reason: pending writes finish, stdin is ended, and the
 * child gets `exitGraceMs` to exit by itself; then SIGTERM and `terminateGraceMs`; then SIGKILL.
 * On POSIX the child leads a process group of its own and the signals go to the group, so a server
 * the command starts (`npx`, `sh -c`) ends with it; once the child has exited, what is left of the
 * group gets SIGTERM, `terminateGraceMs`, then SIGKILL. A process that leaves the group (`setsid`)
 * is out of reach.
 * Once it has exited, its pipes get `exitGraceMs` to deliver what is left (a grandchild holding
 * them open cannot keep them longer); then they are destroyed, so no handle keeps the process alive.
 *
 * The connection is reported lost (`closed` with an error) when the child exits by itself, closes
 * its stdout and does not exit within `exitGraceMs`, or stops reading its stdin. A line that is not
 * JSON, is too long or is not UTF-8 is skipped and reported as stray, and reading goes on; under
 * `strict`, bytes that are not UTF-8 stop the reading, since the session ends with them anyway.
 */
import type {ChildProcess, StdioOptions} from 'node:child_process';
import {spawn} from 'node:child_process';
import type {JsonObject} from '../../jsonrpc/records.js';
import {RecordWriter} from '../../jsonrpc/writer.js';
import {messageOf} from '../../util/message.js';
import {resolveCommand} from './command.js';
import {McpConnectionError} from './errors.js';
import {groupAlive, OWN_GROUP, signalGroup} from './group.js';
import {readLines, sendLine} from './lines.js';
import type {ClientTransport, TransportHandlers} from './transport.js';

export interface StdioTransportSettings {
    command: string;
    args: readonly string[];
    env: NodeJS.ProcessEnv | undefined;
    cwd: string | URL | undefined;
    stderr: 'inherit' | 'ignore' | ((text: string) => void);
    maxMessageBytes: number;
    /** Keeps the reader's own error for bytes that are not UTF-8, as the strict session reports it. */
    strict: boolean;
    exitGraceMs: number;
    terminateGraceMs: number;
}

export class StdioTransport implements ClientTransport {
    /** A line written to a pipe has no exchange to abort. */
    readonly exchanges = false;
    readonly #settings: StdioTransportSettings;
    #handlers: TransportHandlers | undefined;
    #child: ChildProcess | undefined;
    #writer: RecordWriter | undefined;
    #exited = false;
    /** Resolves when the child has exited. */
    #exit: Promise<void> | undefined;
    /** Resolves when the child has exited and its pipes have closed. */
    #gone: Promise<void> | undefined;
    #reported = false;
    #closing: Promise<void> | undefined;
    readonly #timers = new Set<ReturnType<typeof setTimeout>>();

    constructor(settings: StdioTransportSettings) {
        this.#settings = settings;
    }

    async start(handlers: TransportHandlers): Promise<void> {
        this.#handlers = handlers;
        const {command, args, env, cwd, stderr} = this.#settings;
        const target = await resolveCommand(command, args, {env: env ?? process.env, cwd});
        const stdio: StdioOptions = ['pipe', 'pipe', typeof stderr === 'function' ? 'pipe' : stderr];
        const child = spawn(target.file, target.args, {
            cwd,
            env,
            stdio,
            shell: false,
            windowsHide: true,
            // Its own process group, so closing can reach what the command started (`npx`, `sh -c`).
            detached: OWN_GROUP,
        });
        await new Promise<void>((resolve, reject) => {
            const onSpawn = (): void => {
                child.off('error', onError);
                resolve();
            };
            const onError = (error: Error): void => {
                child.off('spawn', onSpawn);
                reject(startFailure(command, cwd, error));
            };
            child.once('spawn', onSpawn);
            child.once('error', onError);
        });
        this.#child = child;
        this.#attach(child);
    }

    send(message: JsonObject): Promise<void> {
        const refusal = 'The MCP server process is not accepting input';
        return sendLine(this.#writer as RecordWriter, this.#closing === undefined, refusal, message);
    }

    negotiated(): void {}

    close(): Promise<void> {
        this.#closing ??= this.#terminate();
        return this.#closing;
    }

    #attach(child: ChildProcess): void {
        const {maxMessageBytes, stderr, strict} = this.#settings;
        const handlers = this.#handlers as TransportHandlers;
        const lines = readLines(handlers, {
            maxMessageBytes,
            strict,
            channel: 'stdout',
            hint: ' An MCP server over stdio must write only JSON-RPC messages to stdout (logs belong on stderr).',
        });
        const stdout = child.stdout as NonNullable<ChildProcess['stdout']>;
        stdout.on('data', (chunk: Buffer) => lines.push(chunk));
        stdout.on('end', () => {
            lines.end();
            if (!this.#exited) {
                this.#after(this.#settings.exitGraceMs, () => {
                    if (!this.#exited) {
                        this.#lost(
                            new McpConnectionError('The MCP server closed its stdout but did not exit'),
                        );
                    }
                });
            }
        });
        if (typeof stderr === 'function') {
            const errors = child.stderr as NonNullable<ChildProcess['stderr']>;
            errors.setEncoding('utf8');
            errors.on('data', (text: string) => {
                try {
                    stderr(text);
                } catch (error) {
                    this.#lost(
                        new McpConnectionError(`The stderr callback threw: ${messageOf(error)}`, {
                            cause: error,
                        }),
                    );
                }
            });
        }
        this.#writer = new RecordWriter(
            child.stdin as NonNullable<ChildProcess['stdin']>,
            'MCP server stdin',
            {
                onFailure: (error) =>
                    this.#lost(
                        new McpConnectionError(
                            `Could not write to the MCP server's stdin (${error.message}): it stopped reading or exited`,
                            {cause: error},
                        ),
                    ),
                onSettled: () => {},
            },
        );
        child.on('error', (error) =>
            this.#lost(
                new McpConnectionError(`The MCP server process failed: ${error.message}`, {cause: error}),
            ),
        );
        this.#exit = new Promise((resolve) => {
            child.once('exit', (code, signal) => {
                this.#exited = true;
                resolve();
                if (this.#closing === undefined) {
                    void this.#drained().then(() =>
                        this.#lost(exitError(this.#settings.command, code, signal)),
                    );
                }
            });
        });
        this.#gone = new Promise((resolve) => child.once('close', () => resolve()));
    }

    async #terminate(): Promise<void> {
        const child = this.#child;
        if (child === undefined) return;
        const {exitGraceMs, terminateGraceMs} = this.#settings;
        if (!this.#exited) {
            const writer = this.#writer as RecordWriter;
            void writer.whenIdle().then(() => {
                if (!child.stdin?.destroyed && !child.stdin?.writableEnded) child.stdin?.end();
            });
            if (!(await this.#exitWithin(exitGraceMs))) {
                this.#signal(child, 'SIGTERM');
                if (!(await this.#exitWithin(terminateGraceMs))) {
                    this.#signal(child, 'SIGKILL');
                    await this.#exit;
                }
            }
        }
        await this.#endGroup(child);
        await this.#drained();
        for (const timer of this.#timers) clearTimeout(timer);
        this.#timers.clear();
        child.stdin?.destroy();
        child.stdout?.destroy();
        child.stderr?.destroy();
        if (!this.#reported) {
            this.#reported = true;
            this.#handlers?.closed(undefined);
        }
    }

    /** SIGTERM or SIGKILL to the child's whole group on POSIX, to the child alone on Windows. */
    #signal(child: ChildProcess, signal: NodeJS.Signals): void {
        if (!OWN_GROUP || child.pid === undefined || !signalGroup(child.pid, signal)) child.kill(signal);
    }

    /**
     * The child has exited; what it started may not have. What is left of its group gets SIGTERM,
     * `terminateGraceMs` to go, then SIGKILL. A group has no exit event, so it is looked at every
     * few milliseconds meanwhile.
     */
    async #endGroup(child: ChildProcess): Promise<void> {
        const group = child.pid;
        if (!OWN_GROUP || group === undefined || !(await groupAlive(group))) return;
        signalGroup(group, 'SIGTERM');
        if (await this.#groupGoneWithin(group, this.#settings.terminateGraceMs)) return;
        signalGroup(group, 'SIGKILL');
        // SIGKILL cannot be refused but lands a moment later, longer on a loaded machine: close
        // resolves once the group is gone, bounded for a member stuck in an uninterruptible wait.
        await this.#groupGoneWithin(group, KILL_WAIT_MS);
    }

    /** Looks at the group every few milliseconds until none of it lives or `ms` have passed. */
    async #groupGoneWithin(group: number, ms: number): Promise<boolean> {
        const deadline = performance.now() + ms;
        while (await groupAlive(group)) {
            if (performance.now() >= deadline) return false;
            await new Promise<void>((resolve) => this.#after(GROUP_POLL_MS, resolve));
        }
        return true;
    }

    /** Once exited: waits for the pipes to close, at most `exitGraceMs`. */
    #drained(): Promise<void> {
        return this.#within(this.#gone as Promise<void>, this.#settings.exitGraceMs).then(() => {});
    }

    #exitWithin(ms: number): Promise<boolean> {
        return this.#within(this.#exit as Promise<void>, ms);
    }

    /** Resolves true when `event` happens within `ms`, false otherwise; the timer never outlives it. */
    #within(event: Promise<void>, ms: number): Promise<boolean> {
        return new Promise((resolve) => {
            const timer = this.#after(ms, () => resolve(false));
            void event.then(() => {
                clearTimeout(timer);
                this.#timers.delete(timer);
                resolve(true);
            });
        });
    }

    #after(ms: number, run: () => void): ReturnType<typeof setTimeout> {
        const timer = setTimeout(() => {
            this.#timers.delete(timer);
            run();
        }, ms);
        this.#timers.add(timer);
        return timer;
    }

    #lost(error: Error): void {
        if (this.#reported || this.#closing !== undefined) return;
        this.#reported = true;
        (this.#handlers as TransportHandlers).closed(error);
    }
}

/** How often a group still alive after its leader is looked at again, in ms. */
const GROUP_POLL_MS = 10;
/** How long close waits for SIGKILL to take the group, in ms. */
const KILL_WAIT_MS = 1000;

function exitError(command: string, code: number | null, signal: NodeJS.Signals | null): McpConnectionError {
    const how = code === null ? `was killed by ${signal}` : `exited with code ${code}`;
    return new McpConnectionError(`The MCP server process (${command}) ${how}; its stderr may say why`);
}

function startFailure(command: string, cwd: string | URL | undefined, error: Error): McpConnectionError {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
        code === 'ENOENT'
            ? cwd === undefined
                ? '; check that the command exists and is on the PATH'
                : '; check that the command exists and is on the PATH, and that cwd exists'
            : '';
    return new McpConnectionError(
        `Could not start the MCP server ${JSON.stringify(command)}: ${error.message}${hint}`,
        {cause: error},
    );
}
