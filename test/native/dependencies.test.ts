/**
 * Third-party packages and bundles: the trap (a bundle packed inside a project runs there on the
 * project's node_modules and fails once moved), pack's warnings about it, and the documented way
 * out (ship node_modules through include), proven with moved bundles.
 */
import assert from 'node:assert/strict';
import {cp, mkdir, rename, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {outerNodeModules, unshippedDependencies} from '../../lib/native/dependencies.js';
import {packApp} from '../../lib/native/pack.js';
import {REPO_ROOT} from '../helpers/paths.js';
import {runNode} from '../helpers/process.js';
import {awkwardTempDir, writeTree} from './support.js';

let root: string;
let project: string;
let app: string;

const HOW_TO = 'see "Third-party dependencies" in the arcane-os README';

/** The two warnings pack gives for the app below packed to `outDir` inside the project. */
function warningsFor(outDir: string): string[] {
    return [
        `${join(app, 'package.json')} declares the dependency "moon-spices", which package.nativeResources.include does not ship: the bundle carries only what include names and arcane-os, so an import of it fails once the bundle is started outside this tree. Add "node_modules" to include after installing only production dependencies, or bundle the entry into one file (${HOW_TO})`,
        `the bundle ${outDir} lies beneath ${join(project, 'node_modules')}, where Node also looks for packages: an import the bundle does not carry still resolves from there while the bundle stays here, and fails with ERR_MODULE_NOT_FOUND once it is moved. Before you ship it, move the bundle out of this tree or pack it to a folder outside it, and try it there (${HOW_TO})`,
    ];
}

function manifest(include: readonly string[]): string {
    return JSON.stringify({
        name: 'spice-rack',
        type: 'module',
        dependencies: {'arcane-os': '*', 'moon-spices': '1.0.0'},
        package: {nativeResources: {include}},
    });
}

const spices = {
    'package.json': JSON.stringify({
        name: 'moon-spices',
        version: '1.0.0',
        type: 'module',
        exports: './index.js',
    }),
    'index.js': "export const spice = 'star anise';\n",
};

before(async () => {
    root = await awkwardTempDir('deps');
    project = join(root, 'project');
    app = join(project, 'spice rack');
    await writeTree(join(project, 'node_modules', 'moon-spices'), spices);
    await writeTree(app, {
        'package.json': manifest(['native', 'package.json']),
        'native/entry.mjs': [
            "import {MCP_PROTOCOL_VERSION} from 'arcane-os/mcp/stdio';",
            "import {spice} from 'moon-spices';",
            '',
            "process.stderr.write('spice: ' + spice + ', protocol ' + MCP_PROTOCOL_VERSION + '\\n');",
            '',
        ].join('\n'),
    });
});

after(async () => {
    await rm(root, {recursive: true, force: true});
});

function pack(appDir: string, outDir: string) {
    return runNode([join(REPO_ROOT, 'bin', 'arcane-os.mjs'), 'pack', appDir, '--out', outDir], {cwd: root});
}

function startEntry(bundle: string) {
    return runNode([join(bundle, 'runtime', 'arcane-core.mjs'), '--arcane-app-entry', 'native/entry.mjs'], {
        cwd: root,
    });
}

describe('a bundle whose entry imports a third-party package', () => {
    test('packed inside the project it runs there, warns twice, and fails once moved', async () => {
        const bundle = join(project, 'bundles', 'spice bundle');
        const packed = await pack(app, bundle);
        assert.equal(packed.code, 0);
        assert.equal(
            packed.stderr,
            warningsFor(bundle)
                .map((warning) => `arcane-os pack: warning: ${warning}\n`)
                .join(''),
        );

        const here = await startEntry(bundle);
        assert.deepEqual(here, {
            code: 0,
            signal: null,
            stdout: '',
            stderr: 'spice: star anise, protocol 2025-11-25\n',
        });

        const moved = join(root, 'elsewhere', 'spice bundle');
        await mkdir(join(root, 'elsewhere'));
        await rename(bundle, moved);
        const there = await startEntry(moved);
        assert.equal(there.code, 1);
        assert.equal(there.stdout, '');
        const [first, ...rest] = there.stderr.split('\n');
        assert.equal(
            first,
            `arcane-core: the app entry ${join(moved, 'app', 'native', 'entry.mjs')} imports a module that cannot be found from the bundle: its app folder ${join(moved, 'app')} holds only what the include list ["native","package.json"] selected, and node_modules/arcane-os. Ship local files through include and third-party packages as the arcane-os README's "Third-party dependencies" says, then pack again. The loader error follows.`,
        );
        const loader = rest.join('\n');
        assert.ok(loader.includes("Cannot find package 'moon-spices'"), loader);
        assert.ok(loader.includes("code: 'ERR_MODULE_NOT_FOUND'"), loader);
    });

    test('ships with node_modules in include, packs outside the project without a warning, and runs once moved', async () => {
        const shipping = join(root, 'shipping app');
        await cp(app, shipping, {recursive: true});
        await writeTree(join(shipping, 'node_modules', 'moon-spices'), spices);
        await writeTree(shipping, {'package.json': manifest(['native', 'node_modules', 'package.json'])});
        const bundle = join(root, 'out', 'shipped bundle');
        const packed = await pack(shipping, bundle);
        assert.equal(packed.stderr, '');
        assert.equal(packed.code, 0);

        const moved = join(root, 'far away', 'shipped bundle');
        await mkdir(join(root, 'far away'));
        await rename(bundle, moved);
        assert.deepEqual(await startEntry(moved), {
            code: 0,
            signal: null,
            stdout: '',
            stderr: 'spice: star anise, protocol 2025-11-25\n',
        });
    });
});

describe('pack warnings', () => {
    test('are part of the pack result, and are empty when include ships the dependencies', async () => {
        const inside = join(project, 'bundles', 'result bundle');
        assert.deepEqual((await packApp({appDir: app, outDir: inside})).warnings, warningsFor(inside));
        const outside = join(root, 'result bundle');
        assert.deepEqual((await packApp({appDir: app, outDir: outside})).warnings, [warningsFor(outside)[0]]);
    });
});

describe('unshippedDependencies', () => {
    test('lists declared dependencies and optional dependencies include does not ship, never arcane-os', () => {
        const manifest = {
            dependencies: {'arcane-os': '1', zod: '3', '@scope/pkg': '1'},
            optionalDependencies: {zod: '3', fsevents: '2'},
            devDependencies: {typescript: '5'},
        };
        assert.deepEqual(unshippedDependencies(manifest, ['native']), ['zod', '@scope/pkg', 'fsevents']);
        assert.deepEqual(
            unshippedDependencies(manifest, ['native', 'node_modules/zod', 'node_modules/@scope/pkg/']),
            ['fsevents'],
        );
        assert.deepEqual(unshippedDependencies(manifest, ['./node_modules/']), []);
    });

    test('finds nothing in a manifest without dependency objects', () => {
        assert.deepEqual(unshippedDependencies([], ['native']), []);
        assert.deepEqual(unshippedDependencies({dependencies: ['zod']}, ['native']), []);
        assert.deepEqual(unshippedDependencies({}, ['native']), []);
    });
});

describe('outerNodeModules', () => {
    test('finds the nearest node_modules folder above the bundle, not its own', async () => {
        assert.equal(
            await outerNodeModules(join(project, 'a', 'b', 'bundle')),
            join(project, 'node_modules'),
        );
        assert.equal(
            await outerNodeModules(join(project, 'node_modules', 'x')),
            join(project, 'node_modules'),
        );
        await writeTree(join(root, 'files'), {node_modules: 'a file, not a folder'});
        assert.equal(await outerNodeModules(join(root, 'files', 'bundle')), undefined);
        assert.equal(await outerNodeModules(join(root, 'bundle')), undefined);
    });
});
