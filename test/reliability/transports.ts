/**
 * Runs a Node script as an MCP client would, over one of the two kinds of stdio a client gives its
 * server, and keeps the child's stdin open until the test lets it go:
 *
 * - `socket`: `spawn` with stdio `pipe`, which Node makes UNIX domain socket pairs.
 * - `fifo`: real OS pipes. Node has no call that makes an anonymous pipe, so each stream is a named
 *   pipe (`mkfifo`) in a temporary folder, opened here at both ends; the child gets one end as its
 *   fd 0, 1 or 2, and this side keeps the other end as a `net.Socket`, the way Node wraps pipes.
 *
 * Node wraps both in the same kind of stream, but the kernel objects behind them differ (buffer
 * sizes, how a write to a reader that is gone fails, how the end arrives), which is why the
 * session-end tests run over both.
 */
import {execFile, spawn} from 'node:child_process';
import {once} from 'node:events';
import {closeSync, constants, openSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {Socket} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {Readable, Writable} from 'node:stream';
import {promisify} from 'node:util';

/**
 * How long a test waits for an app to exit once its session is over. It only turns a hang into a
 * failure: the apps exit in well under a second.
 */
export const HANG_BOUND_MS = 20_000;

export type Transport = 'socket' | 'fifo';
export const TRANSPORTS: readonly Transport[] = ['socket', 'fifo'];

export interface Exit {
    code: number | null;
    signal: NodeJS.Signals | null;
}

export interface Client {
    /** The child's stdin, held open until `release()`. */
    readonly stdin: Writable;
    /** The child's stdout; it is read (and kept) from the start. */
    readonly stdout: Readable;
    /** Resolves once the child has exited. */
    readonly exited: Promise<Exit>;
    /** Everything the child wrote to stdout and stderr so far. */
    stdoutText(): string;
    stderrText(): string;
    /** Resolves once stdout holds `needle`. */
    stdoutIncludes(needle: string): Promise<void>;
    /** Kills the child if it still runs, closes this side's ends and removes any named pipes. */
    release(): Promise<void>;
}

const run = promisify(execFile);

export async function launch(transport: Transport, args: readonly string[], cwd: string): Promise<Client> {
    if (transport === 'socket') {
        const child = spawn(process.execPath, args, {cwd, stdio: ['pipe', 'pipe', 'pipe']});
        const exited = once(child, 'exit').then(([code, signal]) => ({code, signal}) as Exit);
        return client(child.stdin, child.stdout, child.stderr, exited, () => child.kill('SIGKILL'), noop);
    }
    const folder = await mkdtemp(join(tmpdir(), 'arcane-os-fifo-'));
    const paths = ['stdin', 'stdout', 'stderr'].map((name) => join(folder, name));
    await run('mkfifo', paths);
    // Each fifo is opened for reading first (without blocking), so that opening it for writing
    // finds a reader and does not block either.
    const ends = paths.map((path) => {
        const read = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
        return {read, write: openSync(path, constants.O_WRONLY)};
    });
    const [input, output, errors] = ends as [(typeof ends)[0], (typeof ends)[0], (typeof ends)[0]];
    const child = spawn(process.execPath, args, {cwd, stdio: [input.read, output.write, errors.write]});
    const exited = once(child, 'exit').then(([code, signal]) => ({code, signal}) as Exit);
    // The child holds its own ends now; this side keeps only the other ones.
    for (const fd of [input.read, output.write, errors.write]) closeSync(fd);
    return client(
        new Socket({fd: input.write, readable: false, writable: true}),
        new Socket({fd: output.read, readable: true, writable: false}),
        new Socket({fd: errors.read, readable: true, writable: false}),
        exited,
        () => child.kill('SIGKILL'),
        () => rm(folder, {recursive: true, force: true}),
    );
}

/** Resolves with the exit, or rejects once `bound` ms have passed with the child still alive. */
export async function exitWithin(client: Client, bound = HANG_BOUND_MS): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
            reject(
                new Error(
                    `the app was still running ${bound} ms after its session was ended; its stderr:\n${client.stderrText()}`,
                ),
            );
        }, bound);
    });
    try {
        return await Promise.race([client.exited, hang]);
    } finally {
        clearTimeout(timer);
    }
}

function client(
    stdin: Writable,
    stdout: Readable,
    stderr: Readable,
    exited: Promise<Exit>,
    kill: () => void,
    cleanUp: () => Promise<void>,
): Client {
    let out = '';
    let err = '';
    let done = false;
    void exited.then(() => {
        done = true;
    });
    const waiters: {needle: string; resolve: () => void; reject: (error: Error) => void}[] = [];
    const settle = (): void => {
        for (const waiter of waiters.splice(0)) {
            if (out.includes(waiter.needle)) waiter.resolve();
            else if (stdout.readableEnded || stdout.destroyed) {
                waiter.reject(new Error(`stdout closed without ${JSON.stringify(waiter.needle)}: ${out}`));
            } else waiters.push(waiter);
        }
    };
    // Writing to a child that has exited fails with EPIPE on this side too; the tests expect that.
    stdin.on('error', noop);
    stdout.on('error', noop);
    stdout.on('close', settle);
    stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        settle();
    });
    stderr.setEncoding('utf8').on('data', (text: string) => {
        err += text;
    });
    return {
        stdin,
        stdout,
        exited,
        stdoutText: () => out,
        stderrText: () => err,
        stdoutIncludes(needle) {
            return new Promise((resolve, reject) => {
                waiters.push({needle, resolve, reject});
                settle();
            });
        },
        async release() {
            if (!done) kill();
            await exited;
            stdin.destroy();
            stdout.destroy();
            stderr.destroy();
            await cleanUp();
        },
    };
}

function noop(): Promise<void> {
    return Promise.resolve();
}
