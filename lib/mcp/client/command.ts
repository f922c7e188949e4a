/**
 * Which program to spawn for a `command`, without a shell.
 *
 * Elsewhere than Windows the command is spawned as given. On Windows, `npx`, `npm`, `pnpm` and the
 * bins of globally installed packages are batch files (`npx.cmd`), and Node refuses to spawn a
 * batch file without a shell; a shell would reparse the arguments, which is what the client must
 * never allow. So the command is looked up the way Windows does (the working directory, then each
 * `PATH` entry, trying each `PATHEXT` extension), and when it is a `.cmd` or `.bat` file written by
 * npm or its `cmd-shim` (they all end by running `node "<dir>\...\cli.js" %*`), the client spawns
 * `node` with that script itself: `node.exe` beside the shim when there is one, else `node` from
 * the PATH. Any other batch file is refused with an error that says what to pass instead.
 *
 * npm's own `npx.cmd` first asks npm for a globally upgraded copy of itself; this reading runs the
 * copy that ships beside the shim instead.
 */
import {readFile, stat} from 'node:fs/promises';
import {win32} from 'node:path';
import {fileURLToPath} from 'node:url';
import {McpConnectionError} from './errors.js';

export interface CommandTarget {
    file: string;
    args: string[];
}

/** The file-system reads the lookup needs, so it can be exercised on any platform. */
export interface CommandFiles {
    isFile(path: string): Promise<boolean>;
    read(path: string): Promise<string>;
}

export interface ResolveContext {
    env: NodeJS.ProcessEnv;
    cwd: string | URL | undefined;
    /** Default: `process.platform`. */
    platform?: NodeJS.Platform;
    /** Default: the real file system. */
    files?: CommandFiles;
}

const nodeFiles: CommandFiles = {
    isFile: (path) =>
        stat(path).then(
            (stats) => stats.isFile(),
            () => false,
        ),
    read: (path) => readFile(path, 'utf8'),
};

export async function resolveCommand(
    command: string,
    args: readonly string[],
    context: ResolveContext,
): Promise<CommandTarget> {
    if ((context.platform ?? process.platform) !== 'win32') return {file: command, args: [...args]};
    const files = context.files ?? nodeFiles;
    const found = await lookUp(command, context, files);
    if (found === undefined || !/\.(cmd|bat)$/i.test(found)) return {file: found ?? command, args: [...args]};
    const script = shimScript(await files.read(found), found);
    if (script === undefined) {
        throw new McpConnectionError(
            `Cannot start ${JSON.stringify(command)}: it is the batch file ${found}, which Windows runs only ` +
                'through a shell, and it is not an npm shim of a Node script. Pass the program it runs as ' +
                '`command` and its arguments as `args`.',
        );
    }
    const beside = win32.join(win32.dirname(found), 'node.exe');
    const node = (await files.isFile(beside)) ? beside : 'node';
    return {file: node, args: [script, ...args]};
}

/** The first existing file the command names, as Windows would find it; undefined when none. */
async function lookUp(
    command: string,
    context: ResolveContext,
    files: CommandFiles,
): Promise<string | undefined> {
    const cwd = context.cwd === undefined ? process.cwd() : toPath(context.cwd);
    const extensions = win32.extname(command) === '' ? extensionsOf(context.env) : [''];
    const hasDirectory = /[\\/]/.test(command) || win32.isAbsolute(command);
    const directories = hasDirectory ? [cwd] : [cwd, ...pathOf(context.env)];
    for (const directory of directories) {
        for (const extension of extensions) {
            const candidate = win32.resolve(directory, command + extension);
            if (await files.isFile(candidate)) return candidate;
        }
    }
    return undefined;
}

/**
 * The Node script a shim runs: on its last line that passes `%*`, the first quoted token that
 * names a `.js`, `.cjs` or `.mjs` file once `%~dp0`, `%dp0%` and the shim's own `SET "NAME=…"`
 * variables are expanded. Undefined when there is none.
 */
export function shimScript(text: string, shimPath: string): string | undefined {
    const directory = `${win32.dirname(shimPath)}\\`;
    const variables = new Map<string, string>();
    const lines = text.split(/\r?\n/);
    for (const line of lines) {
        const match = /^\s*@?set\s+"([^=]+)=([^"]*)"\s*$/i.exec(line);
        // The first assignment is the unconditional one; later ones are overrides under conditions.
        if (match !== null && !variables.has((match[1] as string).toUpperCase())) {
            variables.set((match[1] as string).toUpperCase(), match[2] as string);
        }
    }
    const expand = (value: string, depth: number): string =>
        value.replace(/%~dp0\\?|%dp0%\\?|%([A-Za-z_][\w]*)%/g, (whole, name: string | undefined) => {
            if (name === undefined) return directory;
            const assigned = variables.get(name.toUpperCase());
            return assigned === undefined || depth > 4 ? whole : expand(assigned, depth + 1);
        });
    const last = lines.findLast((line) => line.includes('%*'));
    if (last === undefined) return undefined;
    for (const [, token] of last.matchAll(/"([^"]*)"/g)) {
        const expanded = expand(token as string, 0);
        if (/\.[cm]?js$/i.test(expanded) && !expanded.includes('%')) return win32.normalize(expanded);
    }
    return undefined;
}

function toPath(cwd: string | URL): string {
    return typeof cwd === 'string' ? cwd : fileURLToPath(cwd);
}

/** A Windows environment variable, whatever the case of its name. */
function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
    const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
    return key === undefined ? undefined : env[key];
}

function pathOf(env: NodeJS.ProcessEnv): string[] {
    return (variable(env, 'PATH') ?? '')
        .split(';')
        .map((entry) => entry.replaceAll('"', ''))
        .filter((entry) => entry !== '');
}

function extensionsOf(env: NodeJS.ProcessEnv): string[] {
    const listed = (variable(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD')
        .split(';')
        .filter((entry) => entry !== '');
    return listed.map((extension) => extension.toLowerCase());
}
