// The client configurations of docs/hosts.md, checked by the clients' own command lines: Claude Code and
// Gemini CLI, pinned, installed into node_modules/.cache/arcane-os-clients/ (outside what `npm ci`
// installs; each is installed once, until the next `npm ci`). A packed tarball is installed into
// fresh apps with the README's complete example, each configuration is written exactly as the
// page prints it (the placeholder path replaced by the real one) into a throwaway home folder,
// and each CLI's health check must print the status the page promises. Neither CLI needs an
// account or a model for `mcp list`; their telemetry is switched off.
//
//   node scripts/check-clients.mjs     (after `npm ci` and `npm test`; .ci/run runs it)
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The clients, pinned exactly. */
const CLIENTS = {
    claude: {name: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude'},
    gemini: {name: '@google/gemini-cli', version: '0.61.0', bin: 'gemini'},
};
const PLACEHOLDER = '/abs/path/to/moon-app';

const repo = fileURLToPath(new URL('..', import.meta.url));
const support = new URL('../dist/test/package/support.js', import.meta.url);
if (!existsSync(support)) {
    process.stderr.write('check-clients: dist/test is missing: run npm run build (or npm test) first\n');
    process.exit(2);
}
const {createApp, docBlock, npmInstall, packTarball, readmeBlock, run} = await import(support.href);

let passed = 0;
let failed = 0;
const root = await mkdtemp(join(tmpdir(), 'arcane-os clients '));
try {
    const claude = await install(CLIENTS.claude);
    const gemini = await install(CLIENTS.gemini);
    const home = join(root, 'home');
    await mkdir(join(home, '.claude'), {recursive: true});
    await mkdir(join(home, '.gemini'), {recursive: true});
    const env = {
        PATH: process.env.PATH,
        HOME: home,
        LANG: 'C.UTF-8',
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        GEMINI_TELEMETRY_ENABLED: 'false',
    };
    await writeFile(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({privacy: {usageStatisticsEnabled: false}}),
    );

    const {tarball} = await packTarball(join(root, 'pack'));
    const example = await readmeBlock('A complete example', 'js');
    const defaultApp = await app('moon app', example);
    const olderApp = await app('moon app all revisions', await withOlderRevisions(example));
    const absent = join(root, 'nowhere', 'moon-pantry.mjs');

    await check('claude mcp add, then claude mcp list and get: Connected', async () => {
        const [add, list] = (await docBlock('docs/hosts.md', 'Claude Code', 'sh')).trimEnd().split('\n');
        const argv = (line) =>
            line
                .split(' ')
                .slice(1)
                .map((word) => word.replace(PLACEHOLDER, defaultApp));
        await ok(claude, argv(add), defaultApp);
        const script = join(defaultApp, 'moon-pantry.mjs');
        assert.ok(
            lines((await ok(claude, argv(list), defaultApp)).stdout).includes(
                `moon-pantry: node ${script} - ✔ Connected`,
            ),
        );
        assert.ok(
            lines((await ok(claude, ['mcp', 'get', 'moon-pantry'], defaultApp)).stdout).includes(
                '  Status: ✔ Connected',
            ),
        );
    });

    await check(
        'the mcpServers JSON as an approved project .mcp.json, by claude mcp list: Connected',
        async () => {
            const project = join(root, 'desktop project');
            await mkdir(project);
            await writeFile(
                join(project, '.mcp.json'),
                placed(
                    await docBlock('docs/hosts.md', 'Desktop assistants: `mcpServers` JSON', 'json'),
                    defaultApp,
                ),
            );
            await writeFile(
                join(home, '.claude', 'settings.json'),
                JSON.stringify({enableAllProjectMcpServers: true}),
            );
            const script = join(defaultApp, 'moon-pantry.mjs');
            assert.ok(
                lines((await ok(claude, ['mcp', 'list'], project)).stdout).includes(
                    `moon-pantry: node ${script} - ✔ Connected`,
                ),
            );
        },
    );

    await check('a server Claude Code cannot start is reported as failing', async () => {
        const project = join(root, 'claude failing');
        await mkdir(project);
        await ok(claude, ['mcp', 'add', 'moon-pantry', '--', 'node', absent], project);
        const listed = lines((await ok(claude, ['mcp', 'list'], project)).stdout);
        assert.ok(
            listed.some((line) => line.startsWith(`moon-pantry: node ${absent} - ✘ Failed to connect`)),
            listed.join('\n'),
        );
    });

    const settings = await docBlock('docs/hosts.md', 'Gemini CLI', 'json');
    const trusted = {};
    /** Writes the Gemini settings of docs/hosts.md into `project` for the app at `appDir`, trusted or not. */
    async function geminiProject(name, appDir, trust) {
        const project = join(root, name);
        await mkdir(join(project, '.gemini'), {recursive: true});
        await writeFile(join(project, '.gemini', 'settings.json'), placed(settings, appDir));
        if (trust) trusted[project] = 'TRUST_FOLDER';
        await writeFile(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify(trusted));
        return project;
    }
    const geminiStatus = async (project, script) => {
        // Gemini CLI prints its list on stderr.
        const listed = lines((await ok(gemini, ['mcp', 'list'], project)).stderr);
        const line = listed.find((entry) => entry.includes(`moon-pantry: node ${script} (stdio) - `));
        assert.ok(line !== undefined, listed.join('\n'));
        return line;
    };

    await check(
        'the Gemini CLI settings with the two added lines, by gemini mcp list: Connected',
        async () => {
            const project = await geminiProject('gemini all revisions', olderApp, true);
            const script = join(olderApp, 'moon-pantry.mjs');
            assert.equal(
                await geminiStatus(project, script),
                `✓ moon-pantry: node ${script} (stdio) - Connected`,
            );
        },
    );

    await check(
        'the Gemini CLI settings with the default revisions: Disconnected, as docs/hosts.md says',
        async () => {
            const project = await geminiProject('gemini default', defaultApp, true);
            const script = join(defaultApp, 'moon-pantry.mjs');
            assert.equal(
                await geminiStatus(project, script),
                `✗ moon-pantry: node ${script} (stdio) - Disconnected`,
            );
        },
    );

    await check('Gemini CLI leaves the server Disabled in a folder that is not trusted', async () => {
        const project = await geminiProject('gemini untrusted', olderApp, false);
        const script = join(olderApp, 'moon-pantry.mjs');
        assert.equal(await geminiStatus(project, script), `○ moon-pantry: node ${script} (stdio) - Disabled`);
    });

    await check('a server Gemini CLI cannot start is reported as failing', async () => {
        const project = await geminiProject('gemini failing', join(root, 'nowhere'), true);
        assert.equal(
            await geminiStatus(project, absent),
            `✗ moon-pantry: node ${absent} (stdio) - Disconnected`,
        );
    });

    /** A fresh app folder with the tarball installed (offline) and `source` as moon-pantry.mjs. */
    async function app(name, source) {
        const folder = join(root, name);
        await createApp(folder);
        await npmInstall(folder, [tarball], {offline: true});
        await writeFile(join(folder, 'moon-pantry.mjs'), source);
        return folder;
    }

    /** Runs a client CLI that must exit 0, and resolves with its output. */
    async function ok(bin, args, cwd) {
        const ran = await run(bin, args, {cwd, env});
        assert.equal(
            ran.code,
            0,
            `${bin} ${args.join(' ')} exited ${ran.code}\n${ran.stdout}\n${ran.stderr}`,
        );
        return ran;
    }
} catch (error) {
    failed += 1;
    process.stderr.write(
        `check-clients: could not run the checks\n${error instanceof Error ? error.stack : error}\n`,
    );
} finally {
    await rm(root, {recursive: true, force: true});
}
say(`${passed} passed, ${failed} failed`);
if (failed > 0) process.exitCode = 1;

/** The example with the two Gemini CLI lines of docs/hosts.md applied: the import, and protocolVersions after serverInfo. */
async function withOlderRevisions(example) {
    const [importLine, optionLine] = (await docBlock('docs/hosts.md', 'Gemini CLI', 'js'))
        .trimEnd()
        .split('\n');
    const source = example.split('\n');
    const at = source.findIndex((line) =>
        line.startsWith("import {createMcpStdioServer} from 'arcane-os/mcp/stdio';"),
    );
    const info = source.findIndex((line) => line.trimStart().startsWith('serverInfo:'));
    assert.ok(
        at !== -1 && info !== -1,
        "the README's example no longer has the lines the Gemini CLI note changes",
    );
    source[at] = importLine;
    source.splice(info + 1, 0, optionLine);
    return source.join('\n');
}

/** A JSON configuration of docs/hosts.md with the placeholder folder replaced by `folder` in every string. */
function placed(json, folder) {
    return JSON.stringify(
        JSON.parse(json, (_key, value) =>
            typeof value === 'string' ? value.replace(PLACEHOLDER, folder) : value,
        ),
        null,
        4,
    );
}

/** Installs one client into its cache prefix unless it is there, and returns its bin. */
async function install({name, version, bin}) {
    const prefix = join(
        repo,
        'node_modules',
        '.cache',
        'arcane-os-clients',
        `${name.replace('/', '+')}@${version}`,
    );
    const path = join(prefix, 'node_modules', '.bin', bin);
    if (!existsSync(path)) {
        say(`installing ${name}@${version}`);
        const flags = ['--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error'];
        execFileSync('npm', ['install', ...flags, '--prefix', prefix, `${name}@${version}`], {
            stdio: ['ignore', 'ignore', 'inherit'],
        });
    }
    const installed = JSON.parse(await readFile(join(prefix, 'node_modules', name, 'package.json'), 'utf8'));
    assert.equal(installed.version, version, `${prefix} holds ${name}@${installed.version}`);
    say(`using ${name}@${version}`);
    return path;
}

async function check(name, body) {
    try {
        await body();
        passed += 1;
        say(`ok: ${name}`);
    } catch (error) {
        failed += 1;
        say(`FAILED: ${name}\n${error instanceof Error ? error.message : error}`);
    }
}

/** @param {string} text */
function lines(text) {
    return text.split('\n');
}

/** @param {string} line */
function say(line) {
    process.stdout.write(`check-clients: ${line}\n`);
}
