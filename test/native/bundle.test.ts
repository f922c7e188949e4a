/**
 * End to end: the sample app packed by the bin into an awkward path, started through the bundle's
 * runtime with plain Node from an unrelated working directory, and driven over its real stdio.
 */
import assert from 'node:assert/strict';
import type {ChildProcessWithoutNullStreams} from 'node:child_process';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {mkdir, readFile, rename, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {MOON_PANTRY_ANSWERS, MOON_PANTRY_SCRIPT} from '../examples/session.js';
import {REPO_ROOT} from '../helpers/paths.js';
import type {Finished} from '../helpers/process.js';
import {runNode} from '../helpers/process.js';
import {awkwardTempDir} from './support.js';

let root: string;
let bundle: string;
let runtime: string;
let elsewhere: string;

/** Starts node with `args`, collecting its output; `finished` settles when the process has closed. */
function start(args: readonly string[], cwd: string) {
    const child: ChildProcessWithoutNullStreams = spawn(process.execPath, args, {cwd, stdio: 'pipe'});
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
        stderr += text;
    });
    const lines: string[] = [];
    let pending = '';
    child.stdout.on('data', (text: string) => {
        stdout += text;
        pending += text;
        let lf = pending.indexOf('\n');
        while (lf !== -1) {
            lines.push(pending.slice(0, lf));
            pending = pending.slice(lf + 1);
            child.stdout.emit('line');
            lf = pending.indexOf('\n');
        }
    });
    const finished: Promise<Finished> = once(child, 'close').then(([code, signal]) => ({
        code: code as number | null,
        signal: signal as NodeJS.Signals | null,
        stdout,
        stderr,
    }));
    return {
        child,
        finished,
        /** Writes one JSON record and a newline to the child's stdin. */
        send(message: unknown): void {
            child.stdin.write(`${JSON.stringify(message)}\n`);
        },
        /** Resolves with the next record the child writes, parsed. */
        async next(): Promise<unknown> {
            while (lines.length === 0) {
                await Promise.race([
                    once(child.stdout, 'line'),
                    finished.then((end) => {
                        throw new Error(
                            `The process closed (status ${end.code}) before a record: ${end.stderr}`,
                        );
                    }),
                ]);
            }
            return JSON.parse(lines.shift() as string);
        },
    };
}

function runToEnd(args: readonly string[], cwd: string): Promise<Finished> {
    return runNode(args, {cwd});
}

before(async () => {
    root = await awkwardTempDir('bundle');
    bundle = join(root, 'moon bündle #2 50%');
    runtime = join(bundle, 'runtime', 'arcane-core.mjs');
    elsewhere = join(root, 'unrelated cwd');
    await mkdir(elsewhere);
    const pack = await runToEnd(
        [join(REPO_ROOT, 'bin', 'arcane-os.mjs'), 'pack', 'examples/native-app', '--out', bundle],
        REPO_ROOT,
    );
    assert.equal(pack.stderr, '');
    assert.equal(pack.code, 0);
});

after(async () => {
    await rm(root, {recursive: true, force: true});
});

test('serves a whole MCP session through the bundle runtime from an unrelated working directory', async () => {
    const userArgs = [
        '--before',
        'first arg #1',
        '--arcane-app-entry',
        'native/moon-mcp.mjs',
        'after 100%',
        '--x=ü',
    ];
    const run = start([runtime, ...userArgs], elsewhere);

    // The session every copy of the moon-pantry example is held to.
    for (const record of MOON_PANTRY_SCRIPT) run.send(record);
    for (const answer of MOON_PANTRY_ANSWERS) assert.deepEqual(await run.next(), answer);

    run.child.stdin.end();
    const finished = await run.finished;
    assert.equal(finished.code, 0);
    assert.equal(finished.signal, null);
    assert.equal(finished.stdout.split('\n').length, 5, 'stdout holds the four responses and nothing else');
    assert.equal(
        finished.stderr,
        `moon-pantry: started with argv ${JSON.stringify([process.execPath, runtime, ...userArgs])}\n`,
    );
});

test('still starts after the bundle folder is moved to another path', async () => {
    const moved = join(root, 'moved', 'second home %23 #');
    await mkdir(join(root, 'moved'));
    await rename(bundle, moved);
    try {
        const movedRuntime = join(moved, 'runtime', 'arcane-core.mjs');
        const run = start([movedRuntime, '--arcane-app-entry', 'native/moon-mcp.mjs'], elsewhere);
        run.send({jsonrpc: '2.0', id: 'ping', method: 'ping'});
        assert.deepEqual(await run.next(), {jsonrpc: '2.0', id: 'ping', result: {}});
        run.child.stdin.end();
        const finished = await run.finished;
        assert.equal(finished.code, 0);
        assert.equal(
            finished.stderr,
            `moon-pantry: started with argv ${JSON.stringify([process.execPath, movedRuntime, '--arcane-app-entry', 'native/moon-mcp.mjs'])}\n`,
        );
    } finally {
        await rename(moved, bundle);
    }
});

test('exits with status 1 and a message naming the flag when its value is missing or empty', async () => {
    const usage =
        'give the module to import, relative to the bundle\'s app/ folder, as in "--arcane-app-entry native/moon-mcp.mjs". Nothing was started.\n';
    assert.deepEqual(await runToEnd([runtime, 'x', '--arcane-app-entry'], elsewhere), {
        code: 1,
        signal: null,
        stdout: '',
        stderr: `arcane-core: TypeError: --arcane-app-entry is missing its value: ${usage}`,
    });
    assert.deepEqual(await runToEnd([runtime, '--arcane-app-entry=', 'x'], elsewhere), {
        code: 1,
        signal: null,
        stdout: '',
        stderr: `arcane-core: TypeError: --arcane-app-entry has an empty value: ${usage}`,
    });
});

test('exits with status 2 and says so when the flag is absent and there is no ordinary start', async () => {
    assert.deepEqual(await runToEnd([runtime, '--arcane-launch-config', 'launch.json'], elsewhere), {
        code: 2,
        signal: null,
        stdout: '',
        stderr: "arcane-core: there is no ordinary Core start in this runtime: arcane-os has no Core of its own. Start an application module with --arcane-app-entry <module relative to the bundle's app folder>, or use a host runtime that passes startCore to runArcaneRuntime.\n",
    });
});

test('fails with the error of a module that throws while loading, and starts nothing else', async () => {
    await writeFile(
        join(bundle, 'app', 'native', 'throws.mjs'),
        "throw new Error('the moon cellar is flooded');\n",
    );
    const finished = await runToEnd([runtime, '--arcane-app-entry', 'native/throws.mjs'], elsewhere);
    assert.equal(finished.code, 1);
    assert.equal(finished.stdout, '');
    assert.match(finished.stderr, /^Error: the moon cellar is flooded$/m);
    assert.doesNotMatch(finished.stderr, /arcane-core:/);
});

test('fails with the loader error for a module path that does not exist, after one line saying where it looked', async () => {
    const finished = await runToEnd([runtime, '--arcane-app-entry', 'native/absent.mjs'], elsewhere);
    assert.equal(finished.code, 1);
    assert.equal(finished.stdout, '');
    const [first, ...rest] = finished.stderr.split('\n');
    const app = join(bundle, 'app');
    assert.equal(
        first,
        `arcane-core: no app entry at ${join(app, 'native', 'absent.mjs')}: --arcane-app-entry "native/absent.mjs" is read relative to the bundle's app folder ${app}, which holds what the include list ["native","package.json"] selected. Give a module from that folder, or add the entry to include and pack again. The loader error follows.`,
    );
    const loader = rest.join('\n');
    assert.ok(loader.includes("code: 'ERR_MODULE_NOT_FOUND'"), loader);
    assert.ok(loader.includes(`url: '${pathToFileURL(join(app, 'native', 'absent.mjs')).href}'`), loader);
    assert.doesNotMatch(loader, /arcane-core:/);
});

test('ships a sample app whose entry is the checked native/moon-mcp.mjs', async () => {
    const checked = await readFile(join(REPO_ROOT, 'native', 'moon-mcp.mjs'), 'utf8');
    const sample = await readFile(
        join(REPO_ROOT, 'examples', 'native-app', 'native', 'moon-mcp.mjs'),
        'utf8',
    );
    const [first, ...rest] = sample.split('\n');
    assert.match(first as string, /^\/\/ @ts-nocheck: /);
    assert.equal(rest.join('\n'), checked);
    assert.equal(await readFile(join(bundle, 'app', 'native', 'moon-mcp.mjs'), 'utf8'), sample);
});
