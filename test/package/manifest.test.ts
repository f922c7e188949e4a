/**
 * What the package publishes: exactly the bundled entries with their maps, the types, the sources
 * the maps name, the bin, the runtime and the documents; every export resolvable; nothing publint objects to.
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
    test('holds the bundles, the types and sources of lib/, and the bin, runtime and documents', async () => {
        const sources = await filesUnder('lib', '.ts');
        assert.ok(sources.includes('lib/mcp/stdio/index.ts'));
        const bundles = await filesUnder('dist/bundle', '');
        const entries = ['core/host', 'mcp/client', 'mcp/http', 'mcp/stdio', 'native/cli', 'native/runtime'];
        for (const entry of entries) {
            for (const suffix of ['.js', '.js.map']) {
                assert.ok(bundles.includes(`dist/bundle/${entry}${suffix}`), `dist/bundle/${entry}${suffix}`);
            }
        }
        const chunks = bundles.filter(
            (file) => !entries.some((entry) => file.startsWith(`dist/bundle/${entry}.`)),
        );
        for (const chunk of chunks)
            assert.match(chunk, /^dist\/bundle\/shared\/chunk-[A-Z0-9]+\.js(\.map)?$/);
        const expected = [
            'CHANGELOG.md',
            'LICENSE',
            'README.md',
            'bin/arcane-os.mjs',
            'native/arcane-core.mjs',
            'package.json',
            ...(await filesUnder('docs', '.md')),
            ...bundles,
            ...sources.flatMap((source) => [source, `dist/types/${source.slice(0, -'.ts'.length)}.d.ts`]),
        ].sort();
        assert.deepEqual(await packedFiles(), expected);
    });

    test('names in each source map only sources it ships', async () => {
        const packed = new Set(await packedFiles());
        const maps = [...packed].filter((file) => file.endsWith('.js.map'));
        assert.ok(maps.length > 0);
        const named = new Set<string>();
        for (const map of maps) {
            // A bundle that only re-exports from shared chunks has a map that names no source.
            const {sources} = JSON.parse(await readFile(join(REPO_ROOT, map), 'utf8')) as {sources: string[]};
            for (const source of sources) {
                const shipped = posix.normalize(posix.join(posix.dirname(map), source));
                assert.ok(packed.has(shipped), `${map} names ${source} (${shipped}), which is not published`);
                named.add(shipped);
            }
        }
        for (const source of [
            'lib/mcp/server/session.ts',
            'lib/mcp/client/session.ts',
            'lib/native/runtime.ts',
        ]) {
            assert.ok(named.has(source), `no source map names ${source}`);
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
                // The runtime is the bundle of the module the types describe (see bundle.test.ts).
                assert.match(target.types ?? '', /^\.\/dist\/types\/lib\/.+\.d\.ts$/, subpath);
                assert.equal(target.default, `./dist/bundle${subpath.slice(1)}.js`, subpath);
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
