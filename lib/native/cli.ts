/**
 * The `arcane-os` command line: `arcane-os pack <app-dir> --out <bundle-dir>`. The bin file calls
 * `runArcaneOsCli` and sets the exit status it resolves with.
 */
import {join, resolve} from 'node:path';
import {BUNDLE_MARKER, packApp} from './pack.js';
import {APP_ENTRY_FLAG} from './runtime.js';

/** Exit statuses: done, the pack failed, the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_PACK_FAILED = 1;
export const EXIT_USAGE = 2;

export const USAGE = `Usage: arcane-os pack <app-dir> --out <bundle-dir>
       arcane-os pack --help

Packs an application into a portable bundle whose runtime starts the application's own module:

    node <bundle-dir>/runtime/arcane-core.mjs ${APP_ENTRY_FLAG} <module> [app arguments]

The bundle holds:

    app/                     exactly what <app-dir>/package.json selects with
                             "package": {"nativeResources": {"include": [...]}}
    runtime/arcane-core.mjs  the runtime; it imports <module> from app/, whatever the working directory
    node_modules/arcane-os/  this package, so the app's imports of arcane-os/mcp/stdio (and the
                             runtime's own) resolve by Node's ordinary package resolution
    ${BUNDLE_MARKER}       marks the folder as a bundle and records the include list
    package.json             {"private": true, "type": "module"}: the bundle's own package scope

Each include entry is a file or folder relative to <app-dir>; folders are copied whole and links
are followed. List the entry module and every local file it imports: pack does not follow imports
and never runs the entry or any other app code. Third-party packages travel only when include
names them (for example "node_modules"); pack warns on stderr when the app declares dependencies
that include does not ship, and when a node_modules folder above <bundle-dir> would let the bundle
work where it is and fail once moved.

If <bundle-dir> is an earlier bundle it is replaced. If it exists and is not a bundle, pack stops
without touching it. pack also stops, with a message and exit status 1, when <app-dir> has no
package.json, when package.json has no package.nativeResources.include or an empty one, or when an
include entry matches nothing. A wrong command line exits with status 2.

Options:
    --out <bundle-dir>   the bundle folder to create or replace (required)
    -h, --help           show this help
`;

/** Where the command line writes: `process.stdout`/`process.stderr`, or test doubles. */
export interface CliStreams {
    readonly stdout: {write(text: string): unknown};
    readonly stderr: {write(text: string): unknown};
    /** The folder relative paths are resolved from. */
    readonly cwd: string;
}

/** Runs the command line (the arguments after the bin's own path) and resolves with the exit status. */
export async function runArcaneOsCli(args: readonly string[], io: CliStreams): Promise<number> {
    const [command, ...rest] = args;
    if (command === '--help' || command === '-h' || command === 'help') {
        io.stdout.write(USAGE);
        return EXIT_OK;
    }
    if (command !== 'pack') {
        const what = command === undefined ? 'No command given' : `Unknown command "${command}"`;
        return usageError(io, `${what}: the command is pack`);
    }
    const parsed = parsePackArgs(rest);
    if (parsed === 'help') {
        io.stdout.write(USAGE);
        return EXIT_OK;
    }
    if (typeof parsed === 'string') return usageError(io, parsed);
    let result: Awaited<ReturnType<typeof packApp>>;
    try {
        result = await packApp({
            appDir: resolve(io.cwd, parsed.appDir),
            outDir: resolve(io.cwd, parsed.outDir),
        });
    } catch (error) {
        io.stderr.write(`arcane-os pack: ${(error as Error).message}\n`);
        return EXIT_PACK_FAILED;
    }
    io.stdout.write(
        `${result.replaced ? 'Replaced the bundle' : 'Packed a bundle'} at ${result.outDir}\n` +
            `    app/ holds ${result.included.map((entry) => JSON.stringify(entry)).join(', ')} from ${result.appDir}\n` +
            `    node_modules/arcane-os is arcane-os ${result.packageVersion}\n` +
            `Start it with: node "${join(result.outDir, 'runtime', 'arcane-core.mjs')}" ${APP_ENTRY_FLAG} <module>\n`,
    );
    for (const warning of result.warnings) io.stderr.write(`arcane-os pack: warning: ${warning}\n`);
    return EXIT_OK;
}

interface PackArgs {
    readonly appDir: string;
    readonly outDir: string;
}

/** The pack arguments, `'help'`, or a message saying what is wrong with them. */
function parsePackArgs(args: readonly string[]): PackArgs | 'help' | string {
    let appDir: string | undefined;
    let outDir: string | undefined;
    for (let index = 0; index < args.length; index += 1) {
        const arg = args[index] as string;
        let out: string | undefined;
        if (arg === '--help' || arg === '-h') return 'help';
        if (arg === '--out') {
            out = args[index + 1];
            index += 1;
            if (out === undefined)
                return '--out is missing its value: give the bundle folder, as in --out dist/bundle';
        } else if (arg.startsWith('--out=')) {
            out = arg.slice('--out='.length);
        } else if (arg.startsWith('-') && arg !== '-') {
            return `Unknown option "${arg}" for pack`;
        } else if (appDir === undefined) {
            appDir = arg;
            continue;
        } else {
            return `pack takes one app folder, got "${appDir}" and "${arg}"`;
        }
        if (out === '') return '--out has an empty value: give the bundle folder, as in --out dist/bundle';
        if (outDir !== undefined) return '--out is given more than once: give it once';
        outDir = out;
    }
    if (appDir === undefined || appDir === '')
        return 'pack needs the app folder: arcane-os pack <app-dir> --out <bundle-dir>';
    if (outDir === undefined) return 'pack needs --out <bundle-dir>: the folder to write the bundle to';
    return {appDir, outDir};
}

function usageError(io: CliStreams, message: string): number {
    io.stderr.write(`arcane-os: ${message}. Run "arcane-os pack --help" for usage.\n`);
    return EXIT_USAGE;
}
