/** Runs a Node script to its end: the one way the tests spawn a process and collect its output. */
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
    cwd: string;
    /** Written to the child's stdin, which is then ended. Default: nothing. */
    input?: string;
    /** The child's environment. Default: this process's. */
    env?: NodeJS.ProcessEnv;
    /** The `node` executable. Default: the one running the tests. */
    node?: string;
}

/** Spawns `node <args>`, feeds `input`, ends stdin, and resolves once the process has closed. */
export async function runNode(args: readonly string[], options: RunOptions): Promise<Finished> {
    const child = spawn(options.node ?? process.execPath, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
    });
    child.stdin.end(options.input ?? '');
    const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    return {code, signal, stdout, stderr};
}
