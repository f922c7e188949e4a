/**
 * The README's install path, offline: `npm pack` (lifecycle scripts and all) makes a tarball, a
 * fresh app installs it with npm, and the README's complete example runs there unchanged. The
 * tarball is also held to arethetypeswrong, and its types to a strict `nodenext` consumer.
 */
import assert from 'node:assert/strict';
import {mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {USAGE} from '../../lib/native/cli.js';
import {MOON_PANTRY_ANSWERS, MOON_PANTRY_INPUT, recordsOf} from '../examples/session.js';
import {runNode} from '../helpers/process.js';
import type {PackedTarball, Ran} from './support.js';
import {createApp, npmInstall, packTarball, REPO_ROOT, readmeBlock, run} from './support.js';

/** Packing, installing and the checks below each take a few seconds; the timeout only turns a hang into a failure. */
const GUARD = {timeout: 240_000};

let root: string;
let packed: PackedTarball;
let app: string;
let installed: Ran;

before(async () => {
    root = await mkdtemp(join(tmpdir(), 'arcane-os install '));
    packed = await packTarball(root);
    app = join(root, 'moon app');
    await createApp(app);
    installed = await npmInstall(app, [packed.tarball], {offline: true});
    await writeFile(join(app, 'moon-pantry.mjs'), await readmeBlock('A complete example', 'js'));
}, GUARD);

after(async () => {
    await rm(root, {recursive: true, force: true});
});

interface Manifest {
    scripts: Record<string, string>;
    exports: Record<string, string | {types: string; default: string}>;
}

async function repoManifest(): Promise<Manifest> {
    return JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
}

describe('npm pack', GUARD, () => {
    test('builds, packs, and leaves package.json byte for byte as it was', async () => {
        assert.equal(packed.manifestAfter, packed.manifestBefore);
        assert.deepEqual(
            (await readdir(packed.source)).filter((name) => name.startsWith('package.json')),
            ['package.json'],
        );
        for (const file of ['dist/bundle/mcp/stdio.js', 'dist/types/lib/mcp/stdio/index.d.ts', 'LICENSE']) {
            assert.ok(packed.files.includes(file), file);
        }
    });

    test('packs the manifest without prepare, so a consumer sees no install script', async () => {
        const shipped = JSON.parse(
            await readFile(join(app, 'node_modules', 'arcane-os', 'package.json'), 'utf8'),
        ) as Manifest;
        const expected = await repoManifest();
        delete expected.scripts.prepare;
        assert.deepEqual(shipped, expected);
        assert.doesNotMatch(installed.stderr, /install-scripts|prepare/);
    });
});

describe('a fresh app with the tarball installed', GUARD, () => {
    test('records the tarball as its dependency and installs nothing else', async () => {
        const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as {
            dependencies: Record<string, string>;
        };
        assert.deepEqual(Object.keys(manifest.dependencies), ['arcane-os']);
        assert.match(manifest.dependencies['arcane-os'] as string, /^file:.*arcane-os-\d+\.\d+\.\d+\.tgz$/);
        assert.deepEqual(
            (await readdir(join(app, 'node_modules'))).filter((name) => !name.startsWith('.')),
            ['arcane-os'],
        );
    });

    test("runs the README's complete example unchanged and answers a session exactly", async () => {
        const {code, signal, stdout, stderr} = await runNode([join(app, 'moon-pantry.mjs')], {
            cwd: app,
            input: MOON_PANTRY_INPUT,
        });
        assert.equal(stderr, '');
        assert.deepEqual({code, signal}, {code: 0, signal: null});
        assert.deepEqual(recordsOf(stdout), MOON_PANTRY_ANSWERS);
    });

    test('runs the arcane-os bin', async () => {
        const ran = await run(join(app, 'node_modules', '.bin', 'arcane-os'), ['pack', '--help'], {cwd: app});
        assert.deepEqual(ran, {code: 0, signal: null, stdout: USAGE, stderr: ''});
    });

    test('type-checks every export under strict nodenext', async () => {
        await writeFile(
            join(app, 'check.mts'),
            [
                "import {createMcpStdioServer, MCP_PROTOCOL_VERSION, type ToolHandler} from 'arcane-os/mcp/stdio';",
                "import {connectMcpClient, McpClientError, type McpClient} from 'arcane-os/mcp/client';",
                "import {readCoreLaunchContext} from 'arcane-os/core/host';",
                "import {APP_ENTRY_FLAG, runArcaneRuntime} from 'arcane-os/native/runtime';",
                '',
                'const handler: ToolHandler = (_args, {signal}) => {',
                '    signal.throwIfAborted();',
                "    return {content: [{type: 'text', text: MCP_PROTOCOL_VERSION}]};",
                '};',
                "const server = createMcpStdioServer({serverInfo: {name: 'n', version: '1'}, tools: [{name: 't', inputSchema: {type: 'object'}, handler}]});",
                'const closed: Promise<void> = server.closed;',
                'const context: Promise<{stateRoot: string | undefined}> = readCoreLaunchContext();',
                "const outcome = runArcaneRuntime({argv: ['node', 'x', APP_ENTRY_FLAG, 'a.mjs'], appRoot: '/bundle/app'});",
                "const client: Promise<McpClient> = connectMcpClient({command: 'node', args: ['moon-pantry.mjs']});",
                'const failed = (error: unknown): boolean => error instanceof McpClientError;',
                'export {client, closed, context, failed, outcome};',
                '',
            ].join('\n'),
        );
        const config = {
            compilerOptions: {
                module: 'nodenext',
                moduleResolution: 'nodenext',
                target: 'es2023',
                strict: true,
                noEmit: true,
                skipLibCheck: false,
                types: ['node'],
                typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
            },
            files: ['check.mts'],
        };
        await writeFile(join(app, 'tsconfig.json'), JSON.stringify(config));
        const tsc = await run(join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
            cwd: app,
        });
        assert.deepEqual(tsc, {code: 0, signal: null, stdout: '', stderr: ''});
    });
});

describe('arethetypeswrong', GUARD, () => {
    test('resolves every export of the tarball to its types and its module under node16 ESM and bundlers', async () => {
        const attw = join(REPO_ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
        // The registry is never asked: --no-definitely-typed, and the tarball is a local file.
        const ran = await runNode(
            [attw, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'json', packed.tarball],
            {cwd: root},
        );
        assert.equal(ran.code, 0, ran.stderr);
        const {analysis} = JSON.parse(ran.stdout) as {
            analysis: {
                entrypoints: Record<
                    string,
                    {
                        resolutions: Record<
                            string,
                            {
                                resolution?: {fileName: string};
                                implementationResolution?: {fileName: string};
                            }
                        >;
                    }
                >;
                problems: {resolutionKind?: string}[];
            };
        };
        const {exports} = await repoManifest();
        assert.deepEqual(Object.keys(analysis.entrypoints), Object.keys(exports));
        const esm = analysis.problems.filter(
            (problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind ?? ''),
        );
        assert.deepEqual(esm, []);
        for (const [subpath, target] of Object.entries(exports)) {
            if (typeof target === 'string') continue;
            const resolved = analysis.entrypoints[subpath]?.resolutions['node16-esm'];
            const at = (file: string) => `/node_modules/arcane-os/${file.replace(/^\.\//, '')}`;
            assert.equal(resolved?.resolution?.fileName, at(target.types), subpath);
            assert.equal(resolved?.implementationResolution?.fileName, at(target.default), subpath);
        }
    });
});
