/**
 * The packer behind `arcane-os pack`: builds a portable bundle from an application folder.
 *
 *     <bundle>/app/                      what the app's package.nativeResources.include selects
 *     <bundle>/runtime/arcane-core.mjs   the runtime (this package's native/arcane-core.mjs)
 *     <bundle>/node_modules/arcane-os/   this package's published files, so that bare imports such
 *                                        as `arcane-os/mcp/stdio` from app/ and runtime/ resolve by
 *                                        Node's ordinary package resolution
 *     <bundle>/arcane-bundle.json        the marker that makes the folder a bundle (see marker.ts)
 *     <bundle>/package.json              a package scope of the bundle's own (private, no name)
 *
 * The packer copies; it neither follows the entry's imports nor runs any of the app's code, so it
 * cannot know which third-party packages the entry needs: it warns where that trap is likely (see
 * dependencies.ts). The bundle is built beside the output folder and moved into place at the end, so
 * a failed pack leaves an earlier bundle as it was.
 */
import {randomUUID} from 'node:crypto';
import type {Stats} from 'node:fs';
import {cp, mkdir, readdir, readFile, rename, rm, stat, writeFile} from 'node:fs/promises';
import {basename, dirname, isAbsolute, join, normalize, relative, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {dependencyWarnings} from './dependencies.js';
import type {BundleMarker} from './marker.js';
import {BUNDLE_FORMAT, BUNDLE_MARKER, isBundle, isRecord} from './marker.js';

export {BUNDLE_FORMAT, BUNDLE_MARKER, isBundle};

/** The bundle root's package.json: private, nameless, ESM. */
const BUNDLE_PACKAGE = {private: true, type: 'module'};

/** The files npm publishes from a package root whatever "files" says, apart from package.json. */
const ALWAYS_PUBLISHED = /^(?:readme|license|licence|copying)(?:\.[^.]+)?$/i;

/** Where the runtime source sits in this package, and where it goes in a bundle. */
const RUNTIME_SOURCE = 'native/arcane-core.mjs';
const RUNTIME_TARGET = 'runtime/arcane-core.mjs';

/** A pack that cannot be done as asked; the message says what to change. */
export class PackError extends Error {
    override name = 'PackError';
}

export interface PackOptions {
    /** The application folder; its package.json says what to copy. */
    readonly appDir: string;
    /** The bundle folder to create, or an earlier bundle to replace. */
    readonly outDir: string;
    /** The root of the arcane-os package to place in the bundle; the package this module belongs to unless given. */
    readonly packageRoot?: string | undefined;
}

export interface PackResult {
    /** The application folder, absolute. */
    readonly appDir: string;
    /** The bundle folder, absolute. */
    readonly outDir: string;
    /** The include entries that were copied beneath app/, as written in package.json. */
    readonly included: readonly string[];
    /** Whether an earlier bundle was replaced. */
    readonly replaced: boolean;
    /** The arcane-os version placed in the bundle. */
    readonly packageVersion: string;
    /**
     * What the bundle probably lacks, one sentence each: dependencies the app declares that include
     * does not ship, and a node_modules folder above the bundle that hides that until it is moved.
     */
    readonly warnings: readonly string[];
}

/** Builds the bundle. Rejects with a `PackError` whose message says what to fix. */
export async function packApp(options: PackOptions): Promise<PackResult> {
    const appDir = resolve(options.appDir);
    const outDir = resolve(options.outDir);
    // Three folders up from this module as tsc emits it (dist/lib/native/) and as it ships, bundled
    // into dist/bundle/native/cli.js or a chunk in dist/bundle/shared/: every bundle sits two folders
    // below dist/ (scripts/bundle.mjs), and test/native/bundle.test.ts packs with the bundled bin.
    const packageRoot = resolve(options.packageRoot ?? fileURLToPath(new URL('../../../', import.meta.url)));

    await requireFolder(appDir);
    const appManifest = join(appDir, 'package.json');
    const manifest = await readJson(appManifest, 'the app');
    const include = readInclude(manifest, appManifest);
    for (const entry of include) await requireMatch(appDir, entry, appManifest);

    const replaced = await checkOutput(outDir, appDir, include);
    const arcane = await readPackage(packageRoot);
    const warnings = await dependencyWarnings(outDir, manifest, appManifest, include);

    const staging = join(dirname(outDir), `.${basename(outDir)}.packing-${randomUUID()}`);
    await mkdir(dirname(outDir), {recursive: true});
    try {
        await mkdir(staging);
        for (const entry of include) await copy(join(appDir, entry), join(staging, 'app', entry));
        await copy(join(packageRoot, RUNTIME_SOURCE), join(staging, RUNTIME_TARGET));
        const packageTarget = join(staging, 'node_modules', 'arcane-os');
        for (const file of arcane.files) await copy(join(packageRoot, file), join(packageTarget, file));
        const marker: BundleMarker = {
            format: BUNDLE_FORMAT,
            formatVersion: 1,
            arcaneOs: arcane.version,
            runtime: RUNTIME_TARGET,
            include,
        };
        await writeFile(join(staging, BUNDLE_MARKER), `${JSON.stringify(marker, null, 4)}\n`);
        // A package scope of the bundle's own, so that nothing above the install path (a package.json
        // named arcane-os, say, or one with another "type") changes how the runtime resolves or loads.
        await writeFile(join(staging, 'package.json'), `${JSON.stringify(BUNDLE_PACKAGE, null, 4)}\n`);
        await moveIntoPlace(staging, outDir, replaced);
    } catch (error) {
        await rm(staging, {recursive: true, force: true});
        throw error;
    }
    return {appDir, outDir, included: include, replaced, packageVersion: arcane.version, warnings};
}

async function requireFolder(appDir: string): Promise<void> {
    const stats = await statOrUndefined(appDir);
    if (stats === undefined) {
        throw new PackError(
            `The app folder ${appDir} does not exist: give the folder that holds the app's package.json`,
        );
    }
    if (!stats.isDirectory()) {
        throw new PackError(
            `The app folder ${appDir} is not a folder: give the folder that holds the app's package.json`,
        );
    }
}

async function readJson(file: string, owner: string): Promise<unknown> {
    let text: string;
    try {
        text = await readFile(file, 'utf8');
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            throw new PackError(
                `There is no package.json in ${dirname(file)}: ${owner} needs one, and pack reads the files to bundle ` +
                    `from its "package": {"nativeResources": {"include": [...]}}`,
            );
        }
        throw new PackError(`Cannot read ${file}: ${(error as Error).message}`);
    }
    try {
        return JSON.parse(text);
    } catch (error) {
        throw new PackError(
            `${file} is not valid JSON: ${(error as Error).message}. Fix the file and pack again`,
        );
    }
}

function readInclude(manifest: unknown, file: string): string[] {
    const resources =
        isRecord(manifest) && isRecord(manifest.package) ? manifest.package.nativeResources : undefined;
    const sample = '{"package": {"nativeResources": {"include": ["native", "package.json"]}}}';
    if (resources === undefined) {
        throw new PackError(
            `${file} has no "package.nativeResources": add ${sample}, listing the app-relative files and folders ` +
                'the bundle needs (the entry module and everything it imports)',
        );
    }
    const include = isRecord(resources) ? resources.include : undefined;
    if (!Array.isArray(include)) {
        throw new PackError(
            `${file} has no "package.nativeResources.include" list of files and folders: add one, as in ${sample}`,
        );
    }
    if (include.length === 0) {
        throw new PackError(
            `${file} has an empty "package.nativeResources.include" list: name the files and folders the bundle ` +
                `needs (the entry module and everything it imports), as in ${sample}`,
        );
    }
    return include.map((entry, index) => checkEntry(entry, index, file));
}

function checkEntry(entry: unknown, index: number, file: string): string {
    const where = `${file}: package.nativeResources.include[${index}]`;
    if (typeof entry !== 'string' || entry === '') {
        throw new PackError(`${where} is ${JSON.stringify(entry)}: give a non-empty app-relative path`);
    }
    const normal = normalize(entry);
    if (isAbsolute(entry) || normal === '..' || normal.startsWith(`..${sep}`)) {
        throw new PackError(
            `${where} is "${entry}", which is not inside the app folder: give a path relative to the app folder`,
        );
    }
    return entry;
}

async function requireMatch(appDir: string, entry: string, file: string): Promise<void> {
    const source = join(appDir, entry);
    if ((await statOrUndefined(source)) === undefined) {
        throw new PackError(
            `The include entry "${entry}" in ${file} matches nothing: ${source} does not exist. ` +
                'Fix the entry or remove it',
        );
    }
}

/** Checks the output folder; resolves with whether it is an earlier bundle to replace. */
async function checkOutput(outDir: string, appDir: string, include: readonly string[]): Promise<boolean> {
    if (contains(outDir, appDir)) {
        throw new PackError(
            `The output folder ${outDir} holds the app folder ${appDir}: choose an output folder outside the app`,
        );
    }
    for (const entry of include) {
        const source = join(appDir, entry);
        if (contains(source, outDir)) {
            throw new PackError(
                `The output folder ${outDir} is inside the included "${entry}": the bundle would copy itself. ` +
                    'Choose an output folder outside what package.nativeResources.include selects',
            );
        }
    }
    const stats = await statOrUndefined(outDir);
    if (stats === undefined) return false;
    if (stats.isDirectory() && (await isBundle(outDir))) return true;
    throw new PackError(
        `The output folder ${outDir} exists and is not an arcane-os bundle (it has no ${BUNDLE_MARKER}); pack only ` +
            'replaces an earlier bundle. Choose a new --out path, or remove that folder yourself if it is not needed',
    );
}

interface PackageFiles {
    readonly version: string;
    readonly files: readonly string[];
}

async function readPackage(packageRoot: string): Promise<PackageFiles> {
    const manifest = await readJson(join(packageRoot, 'package.json'), 'arcane-os');
    if (!isRecord(manifest) || manifest.name !== 'arcane-os' || typeof manifest.version !== 'string') {
        throw new PackError(
            `${packageRoot} is not the arcane-os package: its package.json does not name arcane-os`,
        );
    }
    const listed = Array.isArray(manifest.files)
        ? manifest.files.filter((file) => typeof file === 'string')
        : [];
    // npm always publishes these beside "files"; the bundle's copy keeps them too (the license above all).
    const always = (await readdir(packageRoot)).filter(
        (name) => ALWAYS_PUBLISHED.test(name) && !listed.includes(name),
    );
    const files = ['package.json', ...listed, ...always.sort()];
    for (const file of [...files, RUNTIME_SOURCE]) {
        if ((await statOrUndefined(join(packageRoot, file))) === undefined) {
            throw new PackError(
                `The arcane-os package at ${packageRoot} is incomplete: ${file} is missing. Build it (npm run build) ` +
                    'or reinstall it, then pack again',
            );
        }
    }
    return {version: manifest.version, files};
}

async function copy(source: string, target: string): Promise<void> {
    await mkdir(dirname(target), {recursive: true});
    // Links are followed so the bundle holds real files wherever it is moved.
    await cp(source, target, {recursive: true, dereference: true, force: true});
}

async function moveIntoPlace(staging: string, outDir: string, replacing: boolean): Promise<void> {
    if (!replacing) {
        await rename(staging, outDir);
        return;
    }
    const previous = `${staging}-previous`;
    await rename(outDir, previous);
    try {
        await rename(staging, outDir);
    } catch (error) {
        // Put the earlier bundle back before the caller removes the staging folder.
        await rename(previous, outDir);
        throw error;
    }
    await rm(previous, {recursive: true, force: true});
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
    try {
        return await stat(path);
    } catch (error) {
        const {code} = error as NodeJS.ErrnoException;
        if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
        throw error;
    }
}

/** Whether `inner` is `outer` or lies beneath it. */
function contains(outer: string, inner: string): boolean {
    const path = relative(outer, inner);
    return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}
