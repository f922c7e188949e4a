/** Runs a command to its end: the one way the tests spawn a process and collect its output. */
import {spawn} from 'node:child_process';
import {once} from 'node:events';

export interface Finished {
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
}

export interface RunOptions {
    /** The working directory of the child. */
    readonly cwd: string;
    /** Written to the child's stdin, which is then ended. Default: nothing. */
    readonly input?: string | undefined;
    /** The child's environment. Default: this process's. */
    readonly env?: NodeJS.ProcessEnv | undefined;
    /** The `node` executable, for `runNode`. Default: the one running the tests. */
    readonly node?: string | undefined;
}

/** Spawns `node <args>`, feeds `input`, ends stdin, and resolves once the process has closed. */
export function runNode(args: readonly string[], options: RunOptions): Promise<Finished> {
    return runCommand(options.node ?? process.execPath, args, options);
}

/** Spawns `command` (found on PATH, no shell), feeds `input`, ends stdin, and resolves once it has closed. */
export async function runCommand(
    command: string,
    args: readonly string[],
    options: RunOptions,
): Promise<Finished> {
    const child = spawn(command, args, {cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe'});
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
    });
    // A child that exits without reading its stdin (git, say) makes a write fail with EPIPE: no data
    // is written without input, and with input the child's exit status, which callers assert, tells.
    let stdinError: NodeJS.ErrnoException | undefined;
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
        stdinError = error;
    });
    child.stdin.end(options.input ?? '');
    const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    if (stdinError !== undefined && stdinError.code !== 'EPIPE') throw stdinError;
    return {code, signal, stdout, stderr};
}
