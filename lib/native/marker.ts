/**
 * The marker at a bundle's root, `arcane-bundle.json`: it makes a folder a bundle (pack replaces
 * only such a folder) and records what the bundle was packed from, so the runtime can explain a
 * module it cannot find.
 *
 *     {"format": "arcane-os bundle", "formatVersion": 1, "arcaneOs": "<version>",
 *      "runtime": "runtime/arcane-core.mjs", "include": ["native", "package.json"]}
 *
 * `include` is the app's `package.nativeResources.include` list as written; bundles packed before
 * it was recorded have none.
 */
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';

/** The marker file at a bundle's root; an existing output folder without it is never replaced. */
export const BUNDLE_MARKER = 'arcane-bundle.json';
/** The `format` a bundle marker carries. */
export const BUNDLE_FORMAT = 'arcane-os bundle';

/** What the packer writes into the marker. */
export interface BundleMarker {
    readonly format: typeof BUNDLE_FORMAT;
    readonly formatVersion: 1;
    /** The arcane-os version placed in the bundle's node_modules. */
    readonly arcaneOs: string;
    /** The runtime entry, relative to the bundle root. */
    readonly runtime: string;
    /** The app's include list, as written in its package.json. */
    readonly include: readonly string[];
}

/** Whether `folder` holds a bundle marker written by the packer. */
export async function isBundle(folder: string): Promise<boolean> {
    let marker: unknown;
    try {
        marker = JSON.parse(await readFile(join(folder, BUNDLE_MARKER), 'utf8'));
    } catch {
        // Unreadable or not JSON: not a marker the packer wrote, so not a bundle to replace.
        return false;
    }
    return isRecord(marker) && marker.format === BUNDLE_FORMAT;
}

/**
 * Describes the include list recorded in the marker of the bundle at `bundleRoot`, for a person
 * reading a diagnostic: the list as JSON, or why it is not known.
 */
export async function describeBundleInclude(bundleRoot: string): Promise<string> {
    const file = join(bundleRoot, BUNDLE_MARKER);
    let text: string;
    try {
        text = await readFile(file, 'utf8');
    } catch (error) {
        return `unknown (${file} cannot be read: ${(error as Error).message})`;
    }
    let marker: unknown;
    try {
        marker = JSON.parse(text);
    } catch (error) {
        return `unknown (${file} is not JSON: ${(error as Error).message})`;
    }
    const include = isRecord(marker) ? marker.include : undefined;
    if (!Array.isArray(include) || !include.every((entry) => typeof entry === 'string')) {
        return `unknown (${file} records no include list; pack the app again to record it)`;
    }
    return JSON.stringify(include);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
