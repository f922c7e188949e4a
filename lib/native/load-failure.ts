/**
 * The one line the runtime adds on stderr when an app entry cannot be loaded because a module is
 * missing. The loader's own error stays the failure (the runtime rethrows it unchanged, and Node
 * prints it after this line); the line says where the runtime looked and what the bundle holds,
 * which the loader's message (`... imported from .../runtime.js`) does not.
 */
import {dirname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {describeBundleInclude} from './marker.js';

/** What the runtime tried to load. */
export interface EntryAttempt {
    /** The flag's value, as given. */
    readonly value: string;
    /** The entry's `file:` URL. */
    readonly entry: URL;
    /** The bundle's `app/` folder, absolute. */
    readonly appRoot: string;
}

/**
 * The diagnostic line (ending in a newline) for `error`, or `undefined` when the error is not a
 * missing module (`ERR_MODULE_NOT_FOUND`), which the runtime then reports no further. The include
 * list comes from the marker in the folder above `app/`.
 */
export async function describeLoadFailure(
    error: unknown,
    attempt: EntryAttempt,
): Promise<string | undefined> {
    if (!isMissingModule(error)) return undefined;
    const {value, entry, appRoot} = attempt;
    const include = await describeBundleInclude(dirname(appRoot));
    const file = fileURLToPath(entry);
    if (error.url === entry.href) {
        return (
            `arcane-core: no app entry at ${file}: --arcane-app-entry "${value}" is read relative to the bundle's ` +
            `app folder ${appRoot}, which holds what the include list ${include} selected. Give a module from ` +
            'that folder, or add the entry to include and pack again. The loader error follows.\n'
        );
    }
    return (
        `arcane-core: the app entry ${file} imports a module that cannot be found from the bundle: its app ` +
        `folder ${appRoot} holds only what the include list ${include} selected, and node_modules/arcane-os. ` +
        'Ship local files through include and third-party packages as the arcane-os README\'s "Third-party ' +
        'dependencies" says, then pack again. The loader error follows.\n'
    );
}

function isMissingModule(error: unknown): error is {readonly url?: unknown} {
    return (
        typeof error === 'object' &&
        error !== null &&
        (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND'
    );
}
