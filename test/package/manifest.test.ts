/**
 * What the package publishes: exactly the built modules with their types, the sources their maps
 * name, the bin, the runtime and the documents; every export resolvable; nothing publint objects to.
 * The listing comes from `npm pack --dry-run --ignore-scripts`, which changes nothing in the tree.
 */
import assert from 'node:assert/strict';
import {readdir, readFile} from 'node:fs/promises';
import {join, posix, relative} from 'node:path';
import {describe, test} from 'node:test';
import {publint} from 'publint';
import {formatMessage} from 'publint/utils';
import {REPO_ROOT, runOk} from './support.js';

interface PackageJson {
    name: string;
    exports: Record<string, string | Record<string, string>>;
    scripts: Record<string, string>;
    files: string[];
}

async function manifest(): Promise<PackageJson> {
    return JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
}

let listing: Promise<string[]> | undefined;

/** What `npm pack` would publish, sorted; listed once for all the tests of this file. */
function packedFiles(): Promise<string[]> {
    listing ??= runOk('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: REPO_ROOT}).then(
        ({stdout}) => {
            const [info] = JSON.parse(stdout) as [{files: {path: string}[]}];
            return info.files.map((file) => file.path).sort();
        },
    );
    return listing;
}

/** Every file beneath `folder` whose name ends with `suffix`, relative to the repository, `/`-separated. */
async function filesUnder(folder: string, suffix: string): Promise<string[]> {
    const entries = await readdir(join(REPO_ROOT, folder), {recursive: true, withFileTypes: true});
    return entries
        .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
        .map((entry) => relative(REPO_ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
        .sort();
}

describe('the published package', () => {
    test('holds each module of lib/ built with its types, map and source, and the bin, runtime and documents', async () => {
        const sources = await filesUnder('lib', '.ts');
        assert.ok(sources.includes('lib/mcp/stdio/index.ts'));
        const expected = [
            'CHANGELOG.md',
            'LICENSE',
            'README.md',
            'bin/arcane-os.mjs',
            'native/arcane-core.mjs',
            'package.json',
            ...sources.flatMap((source) => {
                const built = `dist/${source.slice(0, -'.ts'.length)}`;
                return [source, `${built}.js`, `${built}.js.map`, `${built}.d.ts`];
            }),
        ].sort();
        assert.deepEqual(await packedFiles(), expected);
    });

    test('names in each source map only sources it ships', async () => {
        const packed = new Set(await packedFiles());
        const maps = [...packed].filter((file) => file.endsWith('.js.map'));
        assert.ok(maps.length > 0);
        for (const map of maps) {
            const {sources} = JSON.parse(await readFile(join(REPO_ROOT, map), 'utf8')) as {sources: string[]};
            assert.ok(sources.length > 0, map);
            for (const source of sources) {
                const shipped = posix.normalize(posix.join(posix.dirname(map), source));
                assert.ok(packed.has(shipped), `${map} names ${source} (${shipped}), which is not published`);
            }
        }
    });

    test('resolves every export, types and runtime, to a published file', async () => {
        const packed = new Set(await packedFiles());
        const {exports} = await manifest();
        for (const [subpath, target] of Object.entries(exports)) {
            const targets = typeof target === 'string' ? [target] : Object.values(target);
            for (const file of targets) {
                assert.ok(packed.has(posix.normalize(file)), `${subpath} -> ${file} is not published`);
            }
            if (typeof target !== 'string') {
                assert.deepEqual(
                    Object.keys(target),
                    ['types', 'default'],
                    `${subpath}: types first, then default`,
                );
                assert.equal(target.types, target.default?.replace(/\.js$/, '.d.ts'), subpath);
            }
        }
    });

    test('passes publint, suggestions included', async () => {
        const {messages, pkg} = await publint({pkgDir: REPO_ROOT, level: 'suggestion', strict: true});
        assert.deepEqual(
            messages.map((message) => formatMessage(message, pkg) ?? message.code),
            [],
        );
    });

    test('builds dist/ on npm ci and npm pack, and strips prepare from the packed manifest', async () => {
        const {scripts, files} = await manifest();
        assert.equal(scripts.prepare, 'npm run build');
        assert.equal(scripts.prepack, 'npm run build && node scripts/pack-manifest.mjs strip');
        assert.equal(scripts.postpack, 'node scripts/pack-manifest.mjs restore');
        for (const script of ['preinstall', 'install', 'postinstall'])
            assert.equal(scripts[script], undefined);
        assert.ok(!files.includes('package.json.prepack'));
    });
});
