/**
 * The works-here, breaks-there trap of third-party packages. A bundle carries only what the app's
 * include list names, plus arcane-os in its own node_modules. Node resolves a bare import by
 * walking up from the importing file, through the bundle and on through every folder above it, so a
 * bundle packed inside a project finds that project's node_modules and runs, then fails with
 * ERR_MODULE_NOT_FOUND once it is moved. pack cannot see the entry's imports (it never follows or
 * runs them), so it warns about the two things it can see: a node_modules folder above the bundle,
 * and dependencies the app declares that the include list does not ship.
 */
import type {Stats} from 'node:fs';
import {stat} from 'node:fs/promises';
import {dirname, join, normalize, sep} from 'node:path';
import {isRecord} from './marker.js';

/** The README section that says how to ship third-party packages. */
const HOW_TO = 'see "Third-party dependencies" in the arcane-os README';

/**
 * The warnings for a bundle at `outDir` packed from the app whose parsed package.json is
 * `manifest` (read from `manifestPath`) with `include`. Empty when neither trap is there.
 */
export async function dependencyWarnings(
    outDir: string,
    manifest: unknown,
    manifestPath: string,
    include: readonly string[],
): Promise<string[]> {
    const warnings: string[] = [];
    const unshipped = unshippedDependencies(manifest, include);
    if (unshipped.length > 0) {
        warnings.push(
            `${manifestPath} declares the ${unshipped.length === 1 ? 'dependency' : 'dependencies'} ` +
                `${unshipped.map((name) => `"${name}"`).join(', ')}, which package.nativeResources.include does ` +
                'not ship: the bundle carries only what include names and arcane-os, so an import of ' +
                `${unshipped.length === 1 ? 'it' : 'them'} fails once the bundle is started outside this tree. ` +
                `Add "node_modules" to include after installing only production dependencies, or bundle the entry into one file (${HOW_TO})`,
        );
    }
    const outer = await outerNodeModules(outDir);
    if (outer !== undefined) {
        warnings.push(
            `the bundle ${outDir} lies beneath ${outer}, where Node also looks for packages: an import the bundle ` +
                'does not carry still resolves from there while the bundle stays here, and fails with ' +
                'ERR_MODULE_NOT_FOUND once it is moved. Before you ship it, move the bundle out of this tree or ' +
                `pack it to a folder outside it, and try it there (${HOW_TO})`,
        );
    }
    return warnings;
}

/**
 * The names in the app's `dependencies` and `optionalDependencies` that the include list does not
 * ship, in the order written; arcane-os is left out, since every bundle carries it. An entry
 * `node_modules` ships them all, an entry `node_modules/<name>` ships that one.
 */
export function unshippedDependencies(manifest: unknown, include: readonly string[]): string[] {
    if (!isRecord(manifest)) return [];
    const shipped = include.map((entry) => normalize(entry).split(sep).join('/').replace(/\/+$/, ''));
    if (shipped.includes('node_modules')) return [];
    const names: string[] = [];
    for (const field of ['dependencies', 'optionalDependencies']) {
        const declared = manifest[field];
        if (!isRecord(declared)) continue;
        for (const name of Object.keys(declared)) {
            if (name === 'arcane-os' || names.includes(name)) continue;
            if (!shipped.includes(`node_modules/${name}`)) names.push(name);
        }
    }
    return names;
}

/**
 * The nearest `node_modules` folder in a folder above `outDir` (the bundle's own node_modules does
 * not count), or `undefined` when there is none up to the filesystem root.
 */
export async function outerNodeModules(outDir: string): Promise<string | undefined> {
    let folder = dirname(outDir);
    for (;;) {
        const candidate = join(folder, 'node_modules');
        if ((await statOrUndefined(candidate))?.isDirectory()) return candidate;
        const parent = dirname(folder);
        if (parent === folder) return undefined;
        folder = parent;
    }
}

/**
 * Failures that mean "no usable folder there": a folder above the bundle that cannot be searched
 * does not stop the pack, since Node cannot resolve from it either.
 */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM']);

async function statOrUndefined(path: string): Promise<Stats | undefined> {
    try {
        return await stat(path);
    } catch (error) {
        if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
        throw error;
    }
}
