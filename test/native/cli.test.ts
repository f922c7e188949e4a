import assert from 'node:assert/strict';
import {cp, readFile, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {EXIT_OK, EXIT_PACK_FAILED, EXIT_USAGE, runArcaneOsCli, USAGE} from '../../lib/native/cli.js';
import {BUNDLE_MARKER, isBundle} from '../../lib/native/pack.js';
import {REPO_ROOT} from '../helpers/paths.js';
import {awkwardTempDir, listFiles, writeTree} from './support.js';

let cwd: string;

before(async () => {
    cwd = await awkwardTempDir('cli');
    await cp(join(REPO_ROOT, 'examples', 'native-app'), join(cwd, 'moon app'), {recursive: true});
});

after(async () => {
    await rm(cwd, {recursive: true, force: true});
});

async function run(...args: string[]): Promise<{status: number; stdout: string; stderr: string}> {
    let stdout = '';
    let stderr = '';
    const status = await runArcaneOsCli(args, {
        stdout: {write: (text: string) => (stdout += text)},
        stderr: {write: (text: string) => (stderr += text)},
        cwd,
    });
    return {status, stdout, stderr};
}

const hint = 'Run "arcane-os pack --help" for usage.\n';

test('prints the usage on stdout for --help, -h, help and pack --help', async () => {
    for (const args of [
        ['--help'],
        ['-h'],
        ['help'],
        ['pack', '--help'],
        ['pack', 'app', '-h', '--out', 'x'],
    ]) {
        assert.deepEqual(await run(...args), {status: EXIT_OK, stdout: USAGE, stderr: ''}, args.join(' '));
    }
});

test('describes the bundle layout, what pack leaves undone and every failure in its usage', () => {
    for (const part of [
        'Usage: arcane-os pack <app-dir> --out <bundle-dir>',
        'node <bundle-dir>/runtime/arcane-core.mjs --arcane-app-entry <module> [app arguments]',
        '"package": {"nativeResources": {"include": [...]}}',
        'node_modules/arcane-os/',
        `${BUNDLE_MARKER}       marks the folder as a bundle and records the include list`,
        'package.json             {"private": true, "type": "module"}: the bundle\'s own package scope',
        'Third-party packages travel only when include\nnames them (for example "node_modules")',
        'pack does not follow imports\nand never runs the entry',
        'If <bundle-dir> is an earlier bundle it is replaced. If it exists and is not a bundle, pack stops',
        'when <app-dir> has no\npackage.json, when package.json has no package.nativeResources.include or an empty one, or when an\ninclude entry matches nothing',
    ]) {
        assert.ok(USAGE.includes(part), part);
    }
});

test('refuses a missing or unknown command with exit status 2', async () => {
    assert.deepEqual(await run(), {
        status: EXIT_USAGE,
        stdout: '',
        stderr: `arcane-os: No command given: the command is pack. ${hint}`,
    });
    assert.deepEqual(await run('bundle', 'app'), {
        status: EXIT_USAGE,
        stdout: '',
        stderr: `arcane-os: Unknown command "bundle": the command is pack. ${hint}`,
    });
});

test('refuses a wrong pack command line with exit status 2, saying what is wrong', async () => {
    const cases: [string[], string][] = [
        [['pack'], 'pack needs the app folder: arcane-os pack <app-dir> --out <bundle-dir>'],
        [
            ['pack', '', '--out', 'b'],
            'pack needs the app folder: arcane-os pack <app-dir> --out <bundle-dir>',
        ],
        [['pack', 'app'], 'pack needs --out <bundle-dir>: the folder to write the bundle to'],
        [
            ['pack', 'app', '--out'],
            '--out is missing its value: give the bundle folder, as in --out dist/bundle',
        ],
        [
            ['pack', 'app', '--out='],
            '--out has an empty value: give the bundle folder, as in --out dist/bundle',
        ],
        [['pack', 'app', '--out', 'a', '--out=b'], '--out is given more than once: give it once'],
        [['pack', 'app', '--force', '--out', 'b'], 'Unknown option "--force" for pack'],
        [['pack', 'app', 'other', '--out', 'b'], 'pack takes one app folder, got "app" and "other"'],
    ];
    for (const [args, message] of cases) {
        assert.deepEqual(
            await run(...args),
            {status: EXIT_USAGE, stdout: '', stderr: `arcane-os: ${message}. ${hint}`},
            args.join(' '),
        );
    }
});

test('packs relative paths from the working directory, then replaces the bundle on a second run', async () => {
    const outDir = join(cwd, 'out', 'moon bundle');
    const {version} = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        version: string;
    };
    const first = await run('pack', 'moon app', '--out=out/moon bundle');
    const tail =
        `    app/ holds "native", "package.json" from ${join(cwd, 'moon app')}\n` +
        `    node_modules/arcane-os is arcane-os ${version}\n` +
        `Start it with: node "${join(outDir, 'runtime', 'arcane-core.mjs')}" --arcane-app-entry <module>\n`;
    assert.deepEqual(first, {status: EXIT_OK, stdout: `Packed a bundle at ${outDir}\n${tail}`, stderr: ''});
    assert.equal(await isBundle(outDir), true);
    assert.deepEqual(await listFiles(join(outDir, 'app')), ['native/moon-mcp.mjs', 'package.json']);
    const second = await run('pack', '--out', 'out/moon bundle', 'moon app');
    assert.deepEqual(second, {
        status: EXIT_OK,
        stdout: `Replaced the bundle at ${outDir}\n${tail}`,
        stderr: '',
    });
});

test('packs with exit status 0 and writes each warning on stderr', async () => {
    await writeTree(join(cwd, 'needy app'), {
        'package.json': JSON.stringify({
            dependencies: {zod: '3'},
            package: {nativeResources: {include: ['package.json']}},
        }),
    });
    const {status, stdout, stderr} = await run('pack', 'needy app', '--out', 'out/needy');
    assert.equal(status, EXIT_OK);
    assert.match(stdout, /^Packed a bundle at /);
    assert.equal(
        stderr,
        `arcane-os pack: warning: ${join(cwd, 'needy app', 'package.json')} declares the dependency "zod", which package.nativeResources.include does not ship: the bundle carries only what include names and arcane-os, so an import of it fails once the bundle is started outside this tree. Add "node_modules" to include after installing only production dependencies, or bundle the entry into one file (see "Third-party dependencies" in the arcane-os README)\n`,
    );
});

test('reports a failed pack on stderr with exit status 1', async () => {
    const appDir = join(cwd, 'moon app', 'native');
    assert.deepEqual(await run('pack', 'moon app/native', '--out', 'elsewhere'), {
        status: EXIT_PACK_FAILED,
        stdout: '',
        stderr: `arcane-os pack: There is no package.json in ${appDir}: the app needs one, and pack reads the files to bundle from its "package": {"nativeResources": {"include": [...]}}\n`,
    });
});
