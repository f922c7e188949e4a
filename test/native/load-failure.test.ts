/**
 * The line the runtime adds before a missing module's loader error: where it looked, the bundle's
 * app folder and the include list its marker records.
 */
import assert from 'node:assert/strict';
import {rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {describeLoadFailure} from '../../lib/native/load-failure.js';
import {BUNDLE_MARKER, describeBundleInclude, isBundle} from '../../lib/native/marker.js';
import {APP_ENTRY_FLAG, runArcaneRuntimeMain} from '../../lib/native/runtime.js';
import {awkwardTempDir, stderrDouble, writeTree} from './support.js';

let root: string;
let bundle: string;
let appRoot: string;

before(async () => {
    root = await awkwardTempDir('load failure');
    bundle = join(root, 'bundle #5');
    appRoot = join(bundle, 'app');
    await writeTree(bundle, {
        [BUNDLE_MARKER]: JSON.stringify({format: 'arcane-os bundle', include: ['native', 'package.json']}),
        'app/native/needs-package.mjs': "import 'no-such-package-anywhere';\n",
        'app/native/needs-file.mjs': "import './missing-sibling.mjs';\n",
    });
});

after(async () => {
    await rm(root, {recursive: true, force: true});
});

function argv(entry: string): readonly string[] {
    return ['/usr/bin/node', join(bundle, 'runtime', 'arcane-core.mjs'), APP_ENTRY_FLAG, entry];
}

const missingEntryLine = (file: string, value: string, include: string) =>
    `arcane-core: no app entry at ${file}: --arcane-app-entry "${value}" is read relative to the bundle's app folder ${appRoot}, which holds what the include list ${include} selected. Give a module from that folder, or add the entry to include and pack again. The loader error follows.\n`;

const missingImportLine = (file: string) =>
    `arcane-core: the app entry ${file} imports a module that cannot be found from the bundle: its app folder ${appRoot} holds only what the include list ["native","package.json"] selected, and node_modules/arcane-os. Ship local files through include and third-party packages as the arcane-os README's "Third-party dependencies" says, then pack again. The loader error follows.\n`;

describe('runArcaneRuntimeMain with a missing module', () => {
    test('names the path tried, the app folder and the include list, then rejects with the loader error itself', async () => {
        const stderr = stderrDouble();
        const file = join(appRoot, 'native', 'absent #1.mjs');
        await assert.rejects(runArcaneRuntimeMain({argv: argv('native/absent #1.mjs'), appRoot, stderr}), {
            code: 'ERR_MODULE_NOT_FOUND',
            url: pathToFileURL(file).href,
        });
        assert.equal(
            stderr.text,
            missingEntryLine(file, 'native/absent #1.mjs', '["native","package.json"]'),
        );
    });

    test('says that the entry imports what the bundle lacks, for a package and for a local file', async () => {
        for (const entry of ['native/needs-package.mjs', 'native/needs-file.mjs']) {
            const stderr = stderrDouble();
            await assert.rejects(runArcaneRuntimeMain({argv: argv(entry), appRoot, stderr}), {
                code: 'ERR_MODULE_NOT_FOUND',
            });
            assert.equal(stderr.text, missingImportLine(join(appRoot, entry)), entry);
        }
    });

    test('also explains a missing module reported by a host importer', async () => {
        const stderr = stderrDouble();
        const file = join(appRoot, 'native', 'host.mjs');
        const failure = Object.assign(new Error('not in the executable'), {
            code: 'ERR_MODULE_NOT_FOUND',
            url: pathToFileURL(file).href,
        });
        await assert.rejects(
            runArcaneRuntimeMain({
                argv: argv('native/host.mjs'),
                appRoot: pathToFileURL(`${appRoot}/`),
                importModule: () => Promise.reject(failure),
                stderr,
            }),
            (error) => error === failure,
        );
        assert.equal(stderr.text, missingEntryLine(file, 'native/host.mjs', '["native","package.json"]'));
    });
});

describe('describeLoadFailure', () => {
    const attempt = () => ({
        value: 'native/x.mjs',
        entry: pathToFileURL(join(appRoot, 'native', 'x.mjs')),
        appRoot,
    });

    test('is undefined for anything but a missing module', async () => {
        for (const error of [new Error('boom'), null, 'ERR_MODULE_NOT_FOUND', {code: 'ENOENT'}]) {
            assert.equal(await describeLoadFailure(error, attempt()), undefined);
        }
    });

    test('treats a missing module without a url as an import of the entry', async () => {
        assert.equal(
            await describeLoadFailure({code: 'ERR_MODULE_NOT_FOUND'}, attempt()),
            missingImportLine(join(appRoot, 'native', 'x.mjs')),
        );
    });
});

describe('describeBundleInclude', () => {
    test('gives the recorded list as JSON', async () => {
        assert.equal(await describeBundleInclude(bundle), '["native","package.json"]');
    });

    test('says why the list is unknown when the marker is missing, not JSON or has no list', async () => {
        const folder = join(root, 'no marker');
        const file = join(folder, BUNDLE_MARKER);
        const missing = await describeBundleInclude(folder);
        assert.ok(
            missing.startsWith(`unknown (${file} cannot be read: ENOENT: no such file or directory`),
            missing,
        );
        await writeTree(folder, {[BUNDLE_MARKER]: '{"include": '});
        assert.match(await describeBundleInclude(folder), /^unknown \(.+ is not JSON: .+\)$/);
        for (const text of ['{"format": "arcane-os bundle"}', '{"include": [1]}', '[]']) {
            await writeFile(file, text);
            assert.equal(
                await describeBundleInclude(folder),
                `unknown (${file} records no include list; pack the app again to record it)`,
                text,
            );
        }
        assert.equal(await isBundle(folder), false);
    });
});
