/**
 * `arcane-os/native/runtime`: the logic behind a bundle's `runtime/arcane-core.mjs`.
 *
 * With `--arcane-app-entry <app-relative-module>` among the user arguments, the runtime imports that
 * module from the bundle's `app/` folder and does nothing else: the module's top-level code owns the
 * process from there (its MCP session, its signals, its shutdown). Without the flag, the runtime
 * takes the host's ordinary start, the `startCore` seam; arcane-os has no Core of its own, so a
 * runtime given no `startCore` reports that it has nothing to start.
 *
 * The argv is only read. Nothing here writes to stdout, installs signal handlers or ends the process.
 */
import {isAbsolute, relative, resolve, sep} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import type {FlagSpec} from './flags.js';
import {FlagError, isArgv, readFlag} from './flags.js';
import {describeLoadFailure} from './load-failure.js';

/** The flag that selects an application entry instead of ordinary start. */
export const APP_ENTRY_FLAG = '--arcane-app-entry';

const APP_ENTRY: FlagSpec = {
    flag: APP_ENTRY_FLAG,
    value: "the module to import, relative to the bundle's app/ folder",
    example: 'native/moon-mcp.mjs',
};

/** What a host's ordinary start receives. */
export interface OrdinaryStartContext {
    /** The argv the runtime was given, unchanged. */
    readonly argv: readonly string[];
    /** The bundle's `app/` folder, as an absolute path. */
    readonly appRoot: string;
}

/** A host's ordinary start (its Core); the runtime awaits what it returns. */
export type OrdinaryStart = (context: OrdinaryStartContext) => unknown;

/**
 * Loads an application entry from its `file:` URL. The default is Node's `import()`; a host with its
 * own loader (a single-executable build, say) passes that instead.
 */
export type ModuleImporter = (url: string) => Promise<unknown>;

export interface ArcaneRuntimeOptions {
    /** An argv shaped like `process.argv`: the flag is read from index 2 onward. It is not changed. */
    readonly argv: readonly string[];
    /** The bundle's `app/` folder: a path or a `file:` URL. App entries resolve from here. */
    readonly appRoot: string | URL;
    /** The host's ordinary start, taken when the flag is absent. */
    readonly startCore?: OrdinaryStart | undefined;
    /** Loads the app entry; `import()` unless given. */
    readonly importModule?: ModuleImporter | undefined;
}

/** What the runtime did. */
export type ArcaneRuntimeOutcome =
    /** The app entry was imported; `module` is its namespace once its top-level code has finished. */
    | {readonly mode: 'app-entry'; readonly entry: URL; readonly module: unknown}
    /** The flag was absent and the host's ordinary start ran; `result` is what it returned, awaited. */
    | {readonly mode: 'ordinary'; readonly result: unknown}
    /** The flag was absent and there is no ordinary start to take. */
    | {readonly mode: 'no-ordinary-start'};

/**
 * Returns the `--arcane-app-entry` value, or `undefined` when the flag is absent. Throws a
 * `TypeError` (a `FlagError`) naming the flag when its value is missing or empty or the flag repeats.
 */
export function readAppEntry(argv: readonly string[]): string | undefined {
    return readFlag(argv, APP_ENTRY);
}

/**
 * Resolves an app-relative module path against the app folder and returns its `file:` URL. Spaces,
 * Unicode, `#` and `%` in either path keep their filesystem meaning. A value that is absolute or
 * leads out of the app folder is a `TypeError` naming the flag.
 */
export function resolveAppEntry(appRoot: string | URL, entry: string): URL {
    const root = appRootPath(appRoot);
    if (isAbsolute(entry)) {
        throw new FlagError(
            APP_ENTRY_FLAG,
            `${APP_ENTRY_FLAG} "${entry}" is an absolute path: give a path relative to the bundle's app folder ` +
                `(${root}), as in "${APP_ENTRY_FLAG} ${APP_ENTRY.example}"`,
        );
    }
    const file = resolve(root, entry);
    const inside = relative(root, file);
    // A drive-relative Windows path ("C:x.mjs") resolves onto another drive: relative() is then absolute.
    if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
        throw new FlagError(
            APP_ENTRY_FLAG,
            `${APP_ENTRY_FLAG} "${entry}" does not name a module inside the bundle's app folder (${root}): ` +
                `give a path relative to that folder, as in "${APP_ENTRY_FLAG} ${APP_ENTRY.example}"`,
        );
    }
    return pathToFileURL(file);
}

/**
 * Runs the runtime once: imports the app entry named by `--arcane-app-entry`, or else takes the
 * ordinary start. A failure to load the entry rejects with that very error; ordinary start is never
 * a fallback for it.
 */
export function runArcaneRuntime(options: ArcaneRuntimeOptions): Promise<ArcaneRuntimeOutcome> {
    checkOptions(options);
    let entry: URL | undefined;
    try {
        entry = plan(options);
    } catch (error) {
        return Promise.reject(error);
    }
    return start(options, entry);
}

/** Programmer errors in the options, thrown at the call site of the runtime's entry points. */
function checkOptions(options: ArcaneRuntimeOptions): void {
    if (typeof options !== 'object' || options === null) {
        throw new TypeError('runArcaneRuntime(options) needs an options object');
    }
    const {argv, appRoot, startCore, importModule} = options;
    if (!isArgv(argv)) {
        throw new TypeError('runArcaneRuntime: argv must be an array of strings shaped like process.argv');
    }
    if (typeof appRoot !== 'string' && !(appRoot instanceof URL)) {
        throw new TypeError(
            "runArcaneRuntime: appRoot must be the bundle's app folder, as a path or a file: URL",
        );
    }
    if (startCore !== undefined && typeof startCore !== 'function') {
        throw new TypeError('runArcaneRuntime: startCore must be a function when given');
    }
    if (importModule !== undefined && typeof importModule !== 'function') {
        throw new TypeError('runArcaneRuntime: importModule must be a function when given');
    }
}

/** Reads and resolves the runtime's own flag: the only step whose `FlagError` is the runtime's. */
function plan(options: ArcaneRuntimeOptions): URL | undefined {
    const entryPath = readAppEntry(options.argv);
    return entryPath === undefined ? undefined : resolveAppEntry(options.appRoot, entryPath);
}

async function start(options: ArcaneRuntimeOptions, entry: URL | undefined): Promise<ArcaneRuntimeOutcome> {
    const {argv, startCore} = options;
    if (entry !== undefined) {
        const importModule = options.importModule ?? importByUrl;
        const module = await importModule(entry.href);
        return {mode: 'app-entry', entry, module};
    }
    if (startCore === undefined) return {mode: 'no-ordinary-start'};
    const result = await startCore({argv, appRoot: appRootPath(options.appRoot)});
    return {mode: 'ordinary', result};
}

/** The stream a runtime reports its own failures on: `process.stderr`, or a test double. */
export interface ReportStream {
    write(text: string, callback: (error?: Error | null) => void): unknown;
}

export interface ArcaneRuntimeMainOptions extends ArcaneRuntimeOptions {
    /** Where the runtime says what went wrong before it asks for a non-zero exit. */
    readonly stderr: ReportStream;
}

/** The exit status for a bad `--arcane-app-entry` (or other runtime flag) value. */
export const EXIT_BAD_ARGUMENT = 1;
/** The exit status when the flag is absent and the host provides no ordinary start. */
export const EXIT_NO_ORDINARY_START = 2;

/**
 * What a runtime entry file runs: `runArcaneRuntime`, with its own failures reported on `stderr`.
 * Resolves with the exit status to set, or `undefined` to leave the process's exit status to the app
 * entry or to the ordinary start. A bad flag value resolves with 1 and starts nothing; a missing
 * ordinary start resolves with 2. Any other failure, an app entry that fails to load included,
 * rejects with that error unchanged. When the entry or a module it imports is missing
 * (`ERR_MODULE_NOT_FOUND`), one line on `stderr` first names the module path tried, the bundle's
 * app folder and the include list recorded in the bundle's marker.
 */
export function runArcaneRuntimeMain(options: ArcaneRuntimeMainOptions): Promise<number | undefined> {
    checkOptions(options);
    if (typeof options.stderr?.write !== 'function') {
        throw new TypeError(
            'runArcaneRuntimeMain: stderr must be a stream with a write(text, callback) method',
        );
    }
    return runMain(options);
}

async function runMain(options: ArcaneRuntimeMainOptions): Promise<number | undefined> {
    let entry: URL | undefined;
    try {
        entry = plan(options);
    } catch (error) {
        if (!(error instanceof FlagError)) throw error;
        await report(options.stderr, `arcane-core: TypeError: ${error.message}. Nothing was started.\n`);
        return EXIT_BAD_ARGUMENT;
    }
    // From here on, a FlagError is the app's or the host's own (readCoreLaunchContext, say): it
    // rejects unchanged like any other failure, since their code has already run.
    let outcome: ArcaneRuntimeOutcome;
    try {
        outcome = await start(options, entry);
    } catch (error) {
        if (entry !== undefined) {
            const value = readAppEntry(options.argv) as string;
            const appRoot = appRootPath(options.appRoot);
            const line = await describeLoadFailure(error, {value, entry, appRoot});
            if (line !== undefined) await report(options.stderr, line);
        }
        throw error;
    }
    if (outcome.mode !== 'no-ordinary-start') return undefined;
    await report(
        options.stderr,
        `arcane-core: there is no ordinary Core start in this runtime: arcane-os has no Core of its own. ` +
            `Start an application module with ${APP_ENTRY_FLAG} <module relative to the bundle's app folder>, ` +
            `or use a host runtime that passes startCore to runArcaneRuntime.\n`,
    );
    return EXIT_NO_ORDINARY_START;
}

function appRootPath(appRoot: string | URL): string {
    if (typeof appRoot === 'string') return resolve(appRoot);
    if (appRoot.protocol !== 'file:') {
        throw new TypeError(`The app root must be a folder path or a file: URL, got the URL ${appRoot.href}`);
    }
    return resolve(fileURLToPath(appRoot));
}

function importByUrl(url: string): Promise<unknown> {
    return import(url);
}

function report(stream: ReportStream, text: string): Promise<void> {
    // A report that cannot be written must not hide the exit status it explains.
    return new Promise((settle) => {
        stream.write(text, () => settle());
    });
}
