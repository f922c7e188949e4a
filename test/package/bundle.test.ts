/**
 * The package's entries are bundles of dist/lib (scripts/bundle.mjs): each must export exactly what
 * the module its types describe exports, and load none of dist/lib's modules.
 */
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {join, posix} from 'node:path';
import {describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {REPO_ROOT} from './support.js';

interface Exported {
    readonly types: string;
    readonly default: string;
}

async function entries(): Promise<[string, Exported][]> {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        exports: Record<string, string | Exported>;
    };
    return Object.entries(manifest.exports).filter(
        (entry): entry is [string, Exported] => typeof entry[1] !== 'string',
    );
}

function load(path: string): Promise<Record<string, unknown>> {
    return import(pathToFileURL(join(REPO_ROOT, path)).href) as Promise<Record<string, unknown>>;
}

/** What an export is, for comparing two copies of one module: its kind, and its value when it is data. */
function shapeOf(value: unknown): unknown {
    if (typeof value === 'function') return `function ${value.name}/${value.length}`;
    return value;
}

/** The modules a bundle loads, itself first: the relative imports of each file, followed. */
async function graphOf(path: string): Promise<string[]> {
    const seen = [path];
    for (let index = 0; index < seen.length; index += 1) {
        const file = seen[index] as string;
        const text = await readFile(join(REPO_ROOT, file), 'utf8');
        for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?["']([^"']+)["'];?$/gm)) {
            if (specifier === undefined || specifier.startsWith('node:')) continue;
            assert.ok(
                specifier.startsWith('.'),
                `${file} imports ${specifier}, which is neither node: nor ours`,
            );
            const target = posix.normalize(posix.join(posix.dirname(file), specifier));
            if (!seen.includes(target)) seen.push(target);
        }
    }
    return seen;
}

describe('the bundled entries', () => {
    test('export the same names, functions and values as the modules their types describe', async () => {
        for (const [subpath, {types, default: bundle}] of await entries()) {
            const bundled = await load(bundle);
            const compiled = await load(
                types.replace(/^\.\/dist\/types\//, './dist/').replace(/\.d\.ts$/, '.js'),
            );
            assert.deepEqual(Object.keys(bundled).sort(), Object.keys(compiled).sort(), subpath);
            for (const name of Object.keys(compiled)) {
                assert.deepEqual(shapeOf(bundled[name]), shapeOf(compiled[name]), `${subpath}: ${name}`);
            }
        }
    });

    test('load only dist/bundle files and Node built-ins, two modules for the server', async () => {
        for (const [subpath, {default: bundle}] of await entries()) {
            for (const file of await graphOf(posix.normalize(bundle))) {
                assert.match(file, /^dist\/bundle\//, `${subpath} loads ${file}`);
            }
        }
        assert.deepEqual((await graphOf('dist/bundle/mcp/stdio.js')).length, 2);
    });
});
