// The README's git install, for real: a fresh clone of this repository's HEAD is installed into a
// fresh app with `npm install git+file://...`, exactly as a git dependency from any host is (npm
// clones it, installs its dev tools there and runs `prepare`, which builds dist/), and the README's
// complete example then answers a scripted MCP session exactly.
//
//   node scripts/check-git-install.mjs     (after `npm ci` and `npm test`; .ci/run runs it)
//
// It checks what is committed: uncommitted changes are not part of the clone. npm's preparation
// installs the dev dependencies, from npm's cache where it can (--prefer-offline).
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

const support = new URL('../dist/test/package/support.js', import.meta.url);
if (!existsSync(support)) {
    process.stderr.write('check-git-install: dist/test is missing: run npm run build (or npm test) first\n');
    process.exit(2);
}
const {createApp, readmeBlock, REPO_ROOT, run, runOk} = await import(support.href);
const {MOON_PANTRY_ANSWERS, MOON_PANTRY_INPUT, recordsOf} = await import(
    new URL('../dist/test/examples/session.js', import.meta.url).href
);

const root = await mkdtemp(join(tmpdir(), 'arcane-os git install '));
try {
    const head = (await runOk('git', ['rev-parse', 'HEAD'], {cwd: REPO_ROOT})).stdout.trim();
    const dirty = (await runOk('git', ['status', '--porcelain'], {cwd: REPO_ROOT})).stdout !== '';
    say(
        `checking the git install of ${head}${dirty ? ' (the working tree has uncommitted changes, which are not checked)' : ''}`,
    );
    const clone = join(root, 'arcane-os');
    await runOk('git', ['clone', '--quiet', '--no-local', REPO_ROOT, clone], {cwd: root});

    const app = join(root, 'moon app');
    await createApp(app);
    const spec = `git+${pathToFileURL(clone).href}`;
    const installed = await runOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', spec], {
        cwd: app,
    });
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(manifest.dependencies), ['arcane-os']);
    assert.ok(manifest.dependencies['arcane-os'].startsWith('git+file:'), manifest.dependencies['arcane-os']);
    const packageRoot = join(app, 'node_modules', 'arcane-os');
    for (const file of ['dist/bundle/mcp/stdio.js', 'dist/types/lib/mcp/stdio/index.d.ts', 'LICENSE']) {
        assert.ok(existsSync(join(packageRoot, file)), `the git install lacks ${file}`);
    }
    assert.equal(
        existsSync(join(packageRoot, 'node_modules')),
        false,
        'the git install brought dependencies',
    );
    say(`npm install ${spec}: built dist/ in npm's clone and installed arcane-os alone`);
    if (/install-scripts/.test(installed.stderr)) {
        say(
            `npm's notice about install scripts (npm already ran prepare in its clone):\n${installed.stderr.trim()}`,
        );
    }

    await writeFile(join(app, 'moon-pantry.mjs'), await readmeBlock('A complete example', 'js'));
    const served = await run(process.execPath, [join(app, 'moon-pantry.mjs')], {
        cwd: app,
        input: MOON_PANTRY_INPUT,
    });
    assert.deepEqual(
        {code: served.code, signal: served.signal, stderr: served.stderr},
        {code: 0, signal: null, stderr: ''},
    );
    assert.deepEqual(recordsOf(served.stdout), MOON_PANTRY_ANSWERS);
    say("the README's complete example answered the scripted session exactly");
    say('1 passed, 0 failed');
} catch (error) {
    process.exitCode = 1;
    process.stderr.write(
        `check-git-install: FAILED\n${error instanceof Error ? error.stack : String(error)}\n`,
    );
    say('0 passed, 1 failed');
} finally {
    await rm(root, {recursive: true, force: true});
}

/** @param {string} line */
function say(line) {
    process.stdout.write(`check-git-install: ${line}\n`);
}
