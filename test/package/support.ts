/**
 * Shared pieces of the packaging and install tests, and of the install and client checks that
 * `.ci/run` runs after the tests (`scripts/check-*.mjs` import the compiled copy of this module).
 */
import {copyFile, mkdir, readFile, stat, symlink, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {REPO_ROOT} from '../helpers/paths.js';
import type {Finished, RunOptions} from '../helpers/process.js';
import {runCommand} from '../helpers/process.js';

export {REPO_ROOT};

export type Ran = Finished;

/** The options of `run`; its `env` defaults to this process's own, less NODE_V8_COVERAGE. */
export type {RunOptions};

/**
 * Runs `command` (found on PATH, no shell) to its end and collects its output. The commands run
 * this way are tools (npm, npx, git, tsc) and installed copies of the package, none of which c8
 * measures: without NODE_V8_COVERAGE they write no coverage files for c8 to read and discard.
 */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
    const {NODE_V8_COVERAGE: _measured, ...unmeasured} = process.env;
    return runCommand(command, args, {...options, env: options.env ?? unmeasured});
}

/** Like `run`, but a non-zero exit is an error that shows the command and its output. */
export async function runOk(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
    const ran = await run(command, args, options);
    if (ran.code !== 0) {
        throw new Error(
            `${command} ${args.join(' ')} (in ${options.cwd}) exited ${ran.code ?? ran.signal}\n` +
                `stdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`,
        );
    }
    return ran;
}

/** What `npm pack` made of a copy of the working tree. */
export interface PackedTarball {
    /** The tarball, absolute. */
    readonly tarball: string;
    /** The copy of the working tree it was packed from. */
    readonly source: string;
    /** The paths npm packed, as it lists them. */
    readonly files: readonly string[];
    /** The copy's package.json before and after `npm pack`. */
    readonly manifestBefore: string;
    readonly manifestAfter: string;
}

/**
 * Runs `npm pack`, lifecycle scripts and all, as a user does after cloning, into `destination`.
 * It packs a copy of the working tree (every tracked and every unignored file, with the
 * repository's node_modules linked in), because `prepack` rebuilds dist/ and rewrites package.json
 * for a moment, which must not happen under tests that run from the repository's own dist/.
 */
export async function packTarball(destination: string): Promise<PackedTarball> {
    const source = join(destination, 'source');
    const listed = await runOk('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
        cwd: REPO_ROOT,
    });
    for (const file of listed.stdout.split('\0')) {
        // A tracked file deleted in the working tree is listed too: the copy leaves it out, as a clone of that tree would.
        if (file === '' || !(await exists(join(REPO_ROOT, file)))) continue;
        await mkdir(dirname(join(source, file)), {recursive: true});
        await copyFile(join(REPO_ROOT, file), join(source, file));
    }
    await symlink(join(REPO_ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
    const manifestBefore = await readFile(join(source, 'package.json'), 'utf8');
    const packed = await runOk('npm', ['pack', '--json', '--pack-destination', destination], {cwd: source});
    const [info] = JSON.parse(packed.stdout) as [{filename: string; files: {path: string}[]}];
    return {
        tarball: join(destination, info.filename),
        source,
        files: info.files.map((file) => file.path),
        manifestBefore,
        manifestAfter: await readFile(join(source, 'package.json'), 'utf8'),
    };
}

/** Writes a fresh consumer app's package.json into `folder`: nothing installed yet. */
export async function createApp(folder: string): Promise<void> {
    await mkdir(folder, {recursive: true});
    await writeFile(
        join(folder, 'package.json'),
        `${JSON.stringify({name: 'moon-app', version: '1.0.0', private: true}, null, 2)}\n`,
    );
}

/**
 * `npm install <specs>` in `app`, quietly. With `offline`, npm may not ask the registry for
 * anything, so an install that needs more than `specs` fails instead of fetching.
 */
export function npmInstall(
    app: string,
    specs: readonly string[],
    {offline}: {offline: boolean},
): Promise<Ran> {
    const flags = ['--no-audit', '--no-fund', ...(offline ? ['--offline'] : [])];
    return runOk('npm', ['install', ...flags, ...specs], {cwd: app});
}

/**
 * The `index`th fenced code block of language `lang` (```js, ```sh, ...; words after the language,
 * such as `run` or `no-check`, are the docs test's marks and do not count) that follows the
 * heading `heading` (any level) of the markdown file `file` (relative to the repository root),
 * before the next heading of the same or a higher level.
 */
export async function docBlock(file: string, heading: string, lang: string, index = 0): Promise<string> {
    const lines = (await readFile(join(REPO_ROOT, file), 'utf8')).split('\n');
    const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '') === heading);
    if (start === -1) throw new Error(`${file} has no heading "${heading}"`);
    const level = (lines[start] as string).indexOf(' ');
    const blocks: string[] = [];
    let block: string[] | undefined;
    for (const line of lines.slice(start + 1)) {
        if (block === undefined) {
            const match = /^(#+) /.exec(line);
            if (match !== null && (match[1] as string).length <= level) break;
            if (line.startsWith('```') && line.slice(3).split(' ')[0] === lang) block = [];
        } else if (line === '```') {
            blocks.push(`${block.join('\n')}\n`);
            block = undefined;
        } else {
            block.push(line);
        }
    }
    const found = blocks[index];
    if (found === undefined) throw new Error(`${file} has no ${lang} block ${index} under "${heading}"`);
    return found;
}

/** {@link docBlock} of the README. */
export function readmeBlock(heading: string, lang: string, index = 0): Promise<string> {
    return docBlock('README.md', heading, lang, index);
}

async function exists(path: string): Promise<boolean> {
    try {
        await stat(path);
        return true;
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
    }
}
