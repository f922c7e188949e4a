/** Shared pieces for the native launch tests: awkward temp folders, file listings, a report stream double. */
import {mkdir, mkdtemp, readdir, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join, relative} from 'node:path';
import type {ReportStream} from '../../lib/native/runtime.js';

/** A fresh temp folder whose path holds spaces, Unicode, `#` and `%` (and `%41`, which must stay three characters). */
export function awkwardTempDir(label: string): Promise<string> {
    return mkdtemp(join(tmpdir(), `arcane ${label} ü月 #1 100%41 `));
}

/** Writes each `relative path -> text` beneath `root`, creating folders as needed. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(root, path)), {recursive: true});
        await writeFile(join(root, path), text);
    }
}

/** Every file beneath `root`, as sorted `/`-separated relative paths. */
export async function listFiles(root: string): Promise<string[]> {
    const found: string[] = [];
    async function walk(folder: string): Promise<void> {
        for (const entry of await readdir(folder, {withFileTypes: true})) {
            const path = join(folder, entry.name);
            if (entry.isDirectory()) await walk(path);
            else found.push(relative(root, path).split('\\').join('/'));
        }
    }
    await walk(root);
    return found.sort();
}

/** A stderr double that keeps what is written and calls each callback at once. */
export function stderrDouble(): ReportStream & {text: string} {
    const stream = {
        text: '',
        write(chunk: string, callback: (error?: Error | null) => void) {
            stream.text += chunk;
            callback();
            return true;
        },
    };
    return stream;
}
