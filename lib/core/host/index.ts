/**
 * `arcane-os/core/host`: what a launcher passed to a Core host, read only when the application asks.
 *
 * `readCoreLaunchContext()` reads `--arcane-launch-config <file>` (a JSON launch description) and
 * `--arcane-state-root <folder>` from the argv. It returns what it found and applies none of it: no
 * defaults are taken from the launch JSON, no folder is created, no service is started.
 */
import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import type {FlagSpec} from '../../native/flags.js';
import {isArgv, readFlag} from '../../native/flags.js';

export {FlagError} from '../../native/flags.js';

/** The flag that names the launch JSON file. */
export const LAUNCH_CONFIG_FLAG = '--arcane-launch-config';
/** The flag that names the host's state folder. */
export const STATE_ROOT_FLAG = '--arcane-state-root';

const LAUNCH_CONFIG: FlagSpec = {
    flag: LAUNCH_CONFIG_FLAG,
    value: 'the path of the launch JSON file',
    example: 'launch.json',
};
const STATE_ROOT: FlagSpec = {
    flag: STATE_ROOT_FLAG,
    value: 'the path of the state folder',
    example: 'state',
};

export interface ReadCoreLaunchContextOptions {
    /** An argv shaped like `process.argv` (flags are read from index 2 onward); `process.argv` unless given. */
    readonly argv?: readonly string[] | undefined;
    /** The folder relative paths are resolved from; `process.cwd()` unless given. */
    readonly cwd?: string | undefined;
}

export interface CoreLaunchContext {
    /** The absolute path of the launch JSON file, or `undefined` without `--arcane-launch-config`. */
    readonly launchConfigPath: string | undefined;
    /** The launch JSON, parsed and otherwise as written, or `undefined` without `--arcane-launch-config`. */
    readonly launchConfig: unknown;
    /** The absolute path given by `--arcane-state-root`, or `undefined` without it. Nothing is created. */
    readonly stateRoot: string | undefined;
}

/** The launch JSON file could not be read or is not JSON. `cause` is the underlying error. */
export class CoreLaunchConfigError extends Error {
    override name = 'CoreLaunchConfigError';
    /** The absolute path of the launch JSON file. */
    readonly path: string;

    constructor(path: string, message: string, cause: unknown) {
        super(message, {cause});
        this.path = path;
    }
}

/**
 * Reads the launch context from the argv. Relative paths keep their meaning from the caller's
 * working directory. Rejects with a `TypeError` naming the flag when a flag has a missing or empty
 * value or repeats, and with a `CoreLaunchConfigError` naming the file and the fault when the launch
 * JSON cannot be read or does not parse.
 */
export function readCoreLaunchContext(
    options: ReadCoreLaunchContextOptions = {},
): Promise<CoreLaunchContext> {
    if (typeof options !== 'object' || options === null) {
        throw new TypeError(`readCoreLaunchContext(options) needs an options object, got ${String(options)}`);
    }
    const argv = options.argv ?? process.argv;
    const cwd = options.cwd ?? process.cwd();
    if (!isArgv(argv)) {
        throw new TypeError(
            'readCoreLaunchContext: argv must be an array of strings shaped like process.argv',
        );
    }
    if (typeof cwd !== 'string') {
        throw new TypeError('readCoreLaunchContext: cwd must be a folder path string');
    }
    return readContext(argv, cwd);
}

async function readContext(argv: readonly string[], cwd: string): Promise<CoreLaunchContext> {
    const configFlag = readFlag(argv, LAUNCH_CONFIG);
    const stateFlag = readFlag(argv, STATE_ROOT);
    const stateRoot = stateFlag === undefined ? undefined : resolve(cwd, stateFlag);
    if (configFlag === undefined) {
        return {launchConfigPath: undefined, launchConfig: undefined, stateRoot};
    }
    const launchConfigPath = resolve(cwd, configFlag);
    const launchConfig = await readLaunchConfig(launchConfigPath, cwd);
    return {launchConfigPath, launchConfig, stateRoot};
}

async function readLaunchConfig(path: string, cwd: string): Promise<unknown> {
    let text: string;
    try {
        text = await readFile(path, 'utf8');
    } catch (error) {
        throw new CoreLaunchConfigError(
            path,
            `The launch config ${path} (given by ${LAUNCH_CONFIG_FLAG}) cannot be read: ${readFault(error)}. ` +
                `Check the path; a relative path is resolved from the working directory ${cwd}`,
            error,
        );
    }
    try {
        // A byte order mark is not JSON, but editors write one; it carries no content.
        return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
    } catch (error) {
        throw new CoreLaunchConfigError(
            path,
            `The launch config ${path} (given by ${LAUNCH_CONFIG_FLAG}) is not valid JSON: ` +
                `${(error as Error).message}. Fix the file or name another one`,
            error,
        );
    }
}

function readFault(error: unknown): string {
    const {code, message} = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') return 'there is no such file (ENOENT)';
    if (code === 'EISDIR') return 'it is a folder, not a file (EISDIR)';
    return message;
}
