/** Where things are: the repository root, and the examples, which run from source (never compiled). */
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The repository root: this file runs as `dist/test/helpers/paths.js`. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** An example's source path; examples are not compiled, they run from `examples/`. */
export function examplePath(name: string): string {
    return join(REPO_ROOT, 'examples', name);
}

export const OBSERVATORY = examplePath('observatory.mjs');
export const MOON_PANTRY = examplePath('moon-pantry.mjs');
