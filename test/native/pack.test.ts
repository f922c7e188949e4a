import assert from 'node:assert/strict';
import {mkdir, readdir, readFile, rm, stat, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {BUNDLE_FORMAT, BUNDLE_MARKER, isBundle, PackError, packApp} from '../../lib/native/pack.js';
import {REPO_ROOT} from '../helpers/paths.js';
import {awkwardTempDir, listFiles, writeTree} from './support.js';

let root: string;
/** A stand-in arcane-os package, so the bundle's exact contents are known. */
let packageRoot: string;
let counter = 0;

const packageManifest = {
    name: 'arcane-os',
    version: '9.8.7',
    files: ['dist/lib/', 'native/arcane-core.mjs', 'README.md'],
};

before(async () => {
    root = await awkwardTempDir('pack');
    packageRoot = join(root, 'arcane-os package');
    await writeTree(packageRoot, {
        'package.json': JSON.stringify(packageManifest),
        'dist/lib/mcp/stdio/index.js': 'export const stdio = 1;\n',
        'dist/lib/native/runtime.js': 'export const runtime = 1;\n',
        'dist/test/not-published.js': '',
        'native/arcane-core.mjs': '// runtime source\n',
        'native/moon-mcp.mjs': '// not published\n',
        'README.md': '# arcane-os\n',
        LICENSE: 'MIT License\n',
        'licensed-fonts.txt': 'not published\n',
        'lib/source.ts': '',
    });
});

after(async () => {
    await rm(root, {recursive: true, force: true});
});

/** A fresh folder for one test, holding an app made of `files` and the path for its bundle. */
async function scene(
    files: Record<string, string>,
): Promise<{appDir: string; outDir: string; folder: string}> {
    counter += 1;
    const folder = join(root, `scene ${counter} #`);
    const appDir = join(folder, 'app ü');
    await mkdir(appDir, {recursive: true});
    await writeTree(appDir, files);
    return {appDir, outDir: join(folder, 'out %20 bundle'), folder};
}

function manifest(include: unknown): string {
    return JSON.stringify({name: 'moon', type: 'module', package: {nativeResources: {include}}});
}

const appFiles = {
    'package.json': manifest(['native', 'package.json', 'src/util.mjs']),
    'native/moon-mcp.mjs': "import '../src/util.mjs';\n",
    'native/deep/more.mjs': 'export {};\n',
    'src/util.mjs': 'export {};\n',
    'src/other.mjs': 'export {};\n',
    'secret.txt': 'not selected\n',
};

test('copies exactly what the include list selects beneath app/, with the runtime, the package and the marker', async () => {
    const {appDir, outDir} = await scene(appFiles);
    const result = await packApp({appDir, outDir, packageRoot});
    assert.deepEqual(result, {
        appDir,
        outDir,
        included: ['native', 'package.json', 'src/util.mjs'],
        replaced: false,
        packageVersion: '9.8.7',
        warnings: [],
    });
    assert.deepEqual(await listFiles(outDir), [
        'app/native/deep/more.mjs',
        'app/native/moon-mcp.mjs',
        'app/package.json',
        'app/src/util.mjs',
        BUNDLE_MARKER,
        'node_modules/arcane-os/LICENSE',
        'node_modules/arcane-os/README.md',
        'node_modules/arcane-os/dist/lib/mcp/stdio/index.js',
        'node_modules/arcane-os/dist/lib/native/runtime.js',
        'node_modules/arcane-os/native/arcane-core.mjs',
        'node_modules/arcane-os/package.json',
        'package.json',
        'runtime/arcane-core.mjs',
    ]);
    for (const file of ['native/moon-mcp.mjs', 'native/deep/more.mjs', 'package.json', 'src/util.mjs']) {
        assert.equal(
            await readFile(join(outDir, 'app', file), 'utf8'),
            appFiles[file as keyof typeof appFiles],
        );
    }
    assert.equal(await readFile(join(outDir, 'runtime', 'arcane-core.mjs'), 'utf8'), '// runtime source\n');
    assert.equal(
        await readFile(join(outDir, 'node_modules', 'arcane-os', 'package.json'), 'utf8'),
        JSON.stringify(packageManifest),
    );
    assert.deepEqual(JSON.parse(await readFile(join(outDir, BUNDLE_MARKER), 'utf8')), {
        format: BUNDLE_FORMAT,
        formatVersion: 1,
        arcaneOs: '9.8.7',
        runtime: 'runtime/arcane-core.mjs',
        include: ['native', 'package.json', 'src/util.mjs'],
    });
    assert.equal(
        await readFile(join(outDir, 'package.json'), 'utf8'),
        '{\n    "private": true,\n    "type": "module"\n}\n',
    );
    assert.equal(await isBundle(outDir), true);
});

test('neither follows the entry imports nor runs the entry', async () => {
    const {appDir, outDir, folder} = await scene({
        'package.json': manifest(['native/entry.mjs']),
        'native/entry.mjs':
            "import './not-there.mjs';\nimport {writeFileSync} from 'node:fs';\nwriteFileSync(new URL('../../ran', import.meta.url), 'ran');\n",
    });
    await packApp({appDir, outDir, packageRoot});
    assert.deepEqual((await listFiles(join(outDir, 'app'))).sort(), ['native/entry.mjs']);
    await assert.rejects(stat(join(folder, 'ran')), {code: 'ENOENT'});
});

test('places the real arcane-os package, built files and runtime included, when no package root is given', async () => {
    const {appDir, outDir} = await scene({'package.json': manifest(['package.json'])});
    const result = await packApp({appDir, outDir});
    const published = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        version: string;
    };
    assert.equal(result.packageVersion, published.version);
    const installed = join(outDir, 'node_modules', 'arcane-os');
    assert.equal(
        await readFile(join(installed, 'package.json'), 'utf8'),
        await readFile(join(REPO_ROOT, 'package.json'), 'utf8'),
    );
    for (const file of [
        'dist/bundle/mcp/stdio.js',
        'dist/bundle/native/runtime.js',
        'dist/bundle/core/host.js',
        'dist/types/lib/mcp/stdio/index.d.ts',
    ]) {
        assert.ok((await stat(join(installed, file))).isFile(), file);
    }
    assert.equal(
        await readFile(join(installed, 'LICENSE'), 'utf8'),
        await readFile(join(REPO_ROOT, 'LICENSE'), 'utf8'),
    );
    assert.equal(
        await readFile(join(outDir, 'runtime', 'arcane-core.mjs'), 'utf8'),
        await readFile(join(REPO_ROOT, 'native', 'arcane-core.mjs'), 'utf8'),
    );
    await assert.rejects(stat(join(installed, 'dist', 'test')), {code: 'ENOENT'});
});

test('replaces an earlier bundle with the new selection and leaves nothing beside it', async () => {
    const {appDir, outDir, folder} = await scene(appFiles);
    await packApp({appDir, outDir, packageRoot});
    await rm(join(appDir, 'native', 'deep'), {recursive: true});
    await writeFile(join(appDir, 'native', 'added.mjs'), 'export {};\n');
    await writeFile(join(outDir, 'app', 'stale.txt'), 'from before\n');
    const result = await packApp({appDir, outDir, packageRoot});
    assert.equal(result.replaced, true);
    assert.deepEqual((await listFiles(join(outDir, 'app'))).sort(), [
        'native/added.mjs',
        'native/moon-mcp.mjs',
        'package.json',
        'src/util.mjs',
    ]);
    assert.deepEqual((await readdir(folder)).sort(), ['app ü', 'out %20 bundle']);
});

test('creates the missing parent folders of the output folder', async () => {
    const {appDir, folder} = await scene(appFiles);
    const outDir = join(folder, 'a', 'b', 'bundle');
    await packApp({appDir, outDir, packageRoot});
    assert.equal(await isBundle(outDir), true);
});

test('leaves an earlier bundle untouched and nothing beside it when copying fails', async () => {
    const {appDir, outDir, folder} = await scene(appFiles);
    await packApp({appDir, outDir, packageRoot});
    const before = await listFiles(outDir);
    await symlink(join(appDir, 'nowhere'), join(appDir, 'native', 'dangling'));
    await assert.rejects(packApp({appDir, outDir, packageRoot}), {code: 'ENOENT'});
    assert.deepEqual(await listFiles(outDir), before);
    assert.deepEqual((await readdir(folder)).sort(), ['app ü', 'out %20 bundle']);
});

async function rejectsWith(promise: Promise<unknown>, message: string): Promise<void> {
    await assert.rejects(promise, (error: unknown) => {
        assert.ok(error instanceof PackError);
        assert.equal(error.name, 'PackError');
        assert.equal(error.message, message);
        return true;
    });
}

test('refuses an app folder that does not exist or is a file', async () => {
    const {appDir, outDir} = await scene({'file.txt': ''});
    const missing = join(appDir, 'missing');
    await rejectsWith(
        packApp({appDir: missing, outDir, packageRoot}),
        `The app folder ${missing} does not exist: give the folder that holds the app's package.json`,
    );
    const file = join(appDir, 'file.txt');
    await rejectsWith(
        packApp({appDir: file, outDir, packageRoot}),
        `The app folder ${file} is not a folder: give the folder that holds the app's package.json`,
    );
    await assert.rejects(stat(outDir), {code: 'ENOENT'});
});

test('refuses an app folder without package.json', async () => {
    const {appDir, outDir} = await scene({'native/moon-mcp.mjs': ''});
    await rejectsWith(
        packApp({appDir, outDir, packageRoot}),
        `There is no package.json in ${appDir}: the app needs one, and pack reads the files to bundle from its "package": {"nativeResources": {"include": [...]}}`,
    );
    await assert.rejects(stat(outDir), {code: 'ENOENT'});
});

test('refuses a package.json that cannot be read or is not JSON', async () => {
    const {appDir, outDir} = await scene({});
    const file = join(appDir, 'package.json');
    await mkdir(file);
    // Node's own message for reading a folder, which names the path from Node 26 on.
    const unreadable = await readFile(file, 'utf8').then(
        () => assert.fail('a folder was read as a file'),
        (error: Error) => error.message,
    );
    await rejectsWith(packApp({appDir, outDir, packageRoot}), `Cannot read ${file}: ${unreadable}`);
    await rm(file, {recursive: true});
    await writeFile(file, '{"package": ');
    let fault = '';
    try {
        JSON.parse('{"package": ');
    } catch (error) {
        fault = (error as Error).message;
    }
    await rejectsWith(
        packApp({appDir, outDir, packageRoot}),
        `${file} is not valid JSON: ${fault}. Fix the file and pack again`,
    );
});

test('refuses a package.json without package.nativeResources', async () => {
    const sample = '{"package": {"nativeResources": {"include": ["native", "package.json"]}}}';
    for (const text of ['{"name": "moon"}', '[]', '{"package": "native"}', '{"package": {"other": 1}}']) {
        const {appDir, outDir} = await scene({'package.json': text});
        await rejectsWith(
            packApp({appDir, outDir, packageRoot}),
            `${join(appDir, 'package.json')} has no "package.nativeResources": add ${sample}, listing the app-relative files and folders the bundle needs (the entry module and everything it imports)`,
        );
    }
});

test('refuses a nativeResources without an include list', async () => {
    const sample = '{"package": {"nativeResources": {"include": ["native", "package.json"]}}}';
    for (const resources of [{}, {include: 'native'}, 'native']) {
        const {appDir, outDir} = await scene({
            'package.json': JSON.stringify({package: {nativeResources: resources}}),
        });
        await rejectsWith(
            packApp({appDir, outDir, packageRoot}),
            `${join(appDir, 'package.json')} has no "package.nativeResources.include" list of files and folders: add one, as in ${sample}`,
        );
    }
});

test('refuses an empty include list, saying that it is empty', async () => {
    const sample = '{"package": {"nativeResources": {"include": ["native", "package.json"]}}}';
    const {appDir, outDir} = await scene({'package.json': manifest([])});
    await rejectsWith(
        packApp({appDir, outDir, packageRoot}),
        `${join(appDir, 'package.json')} has an empty "package.nativeResources.include" list: name the files and folders the bundle needs (the entry module and everything it imports), as in ${sample}`,
    );
    await assert.rejects(stat(outDir), {code: 'ENOENT'});
});

test('refuses an include entry that is not a non-empty string', async () => {
    for (const [entry, shown] of [
        [3, '3'],
        ['', '""'],
        [null, 'null'],
    ] as const) {
        const {appDir, outDir} = await scene({'package.json': manifest(['package.json', entry])});
        await rejectsWith(
            packApp({appDir, outDir, packageRoot}),
            `${join(appDir, 'package.json')}: package.nativeResources.include[1] is ${shown}: give a non-empty app-relative path`,
        );
    }
});

test('refuses an include entry outside the app folder', async () => {
    for (const entry of ['/etc', '..', '../sibling', 'native/../../x']) {
        const {appDir, outDir} = await scene({'package.json': manifest([entry])});
        await rejectsWith(
            packApp({appDir, outDir, packageRoot}),
            `${join(appDir, 'package.json')}: package.nativeResources.include[0] is "${entry}", which is not inside the app folder: give a path relative to the app folder`,
        );
    }
});

test('refuses an include entry that matches nothing', async () => {
    const {appDir, outDir} = await scene({'package.json': manifest(['package.json', 'src'])});
    await rejectsWith(
        packApp({appDir, outDir, packageRoot}),
        `The include entry "src" in ${join(appDir, 'package.json')} matches nothing: ${join(appDir, 'src')} does not exist. Fix the entry or remove it`,
    );
    await assert.rejects(stat(outDir), {code: 'ENOENT'});
});

test('refuses an output folder that exists and is not a bundle, and leaves it as it was', async () => {
    const {appDir, outDir} = await scene(appFiles);
    const message = `The output folder ${outDir} exists and is not an arcane-os bundle (it has no ${BUNDLE_MARKER}); pack only replaces an earlier bundle. Choose a new --out path, or remove that folder yourself if it is not needed`;
    await mkdir(outDir);
    await rejectsWith(packApp({appDir, outDir, packageRoot}), message);
    assert.deepEqual(await readdir(outDir), []);
    await writeFile(join(outDir, 'precious.txt'), 'keep me');
    await writeFile(join(outDir, BUNDLE_MARKER), '{"format": "something else"}');
    await rejectsWith(packApp({appDir, outDir, packageRoot}), message);
    assert.deepEqual((await readdir(outDir)).sort(), [BUNDLE_MARKER, 'precious.txt']);
    await rm(outDir, {recursive: true});
    await writeFile(outDir, 'a file');
    await rejectsWith(packApp({appDir, outDir, packageRoot}), message);
    assert.equal(await readFile(outDir, 'utf8'), 'a file');
});

test('refuses an output folder that holds the app folder', async () => {
    const {appDir, folder} = await scene(appFiles);
    await rejectsWith(
        packApp({appDir, outDir: folder, packageRoot}),
        `The output folder ${folder} holds the app folder ${appDir}: choose an output folder outside the app`,
    );
});

test('refuses an output folder inside what the include list selects', async () => {
    const {appDir} = await scene(appFiles);
    const outDir = join(appDir, 'native', 'bundle');
    await rejectsWith(
        packApp({appDir, outDir, packageRoot}),
        `The output folder ${outDir} is inside the included "native": the bundle would copy itself. Choose an output folder outside what package.nativeResources.include selects`,
    );
    await assert.rejects(stat(outDir), {code: 'ENOENT'});
});

test('refuses a package root that is not arcane-os or is incomplete', async () => {
    const {appDir, outDir, folder} = await scene(appFiles);
    const other = join(folder, 'other');
    await writeTree(other, {'package.json': JSON.stringify({name: 'not-arcane', version: '1.0.0'})});
    await rejectsWith(
        packApp({appDir, outDir, packageRoot: other}),
        `${other} is not the arcane-os package: its package.json does not name arcane-os`,
    );
    const unbuilt = join(folder, 'unbuilt');
    await writeTree(unbuilt, {
        'package.json': JSON.stringify({name: 'arcane-os', version: '1.0.0', files: ['dist/lib/', 7]}),
        'native/arcane-core.mjs': '',
    });
    await rejectsWith(
        packApp({appDir, outDir, packageRoot: unbuilt}),
        `The arcane-os package at ${unbuilt} is incomplete: dist/lib/ is missing. Build it (npm run build) or reinstall it, then pack again`,
    );
    const noRuntime = join(folder, 'no runtime');
    await writeTree(noRuntime, {'package.json': JSON.stringify({name: 'arcane-os', version: '1.0.0'})});
    await rejectsWith(
        packApp({appDir, outDir, packageRoot: noRuntime}),
        `The arcane-os package at ${noRuntime} is incomplete: native/arcane-core.mjs is missing. Build it (npm run build) or reinstall it, then pack again`,
    );
    await assert.rejects(stat(outDir), {code: 'ENOENT'});
});

test('recognises a bundle only by a marker with the bundle format', async () => {
    const {folder} = await scene({});
    assert.equal(await isBundle(folder), false);
    await writeFile(join(folder, BUNDLE_MARKER), 'not json');
    assert.equal(await isBundle(folder), false);
    await writeFile(join(folder, BUNDLE_MARKER), '["arcane-os bundle"]');
    assert.equal(await isBundle(folder), false);
    await writeFile(join(folder, BUNDLE_MARKER), JSON.stringify({format: BUNDLE_FORMAT}));
    assert.equal(await isBundle(folder), true);
});
