import assert from 'node:assert/strict';
import {rm} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {FlagError} from '../../lib/native/flags.js';
import type {OrdinaryStartContext, ReportStream} from '../../lib/native/runtime.js';
import {
    APP_ENTRY_FLAG,
    EXIT_BAD_ARGUMENT,
    EXIT_NO_ORDINARY_START,
    readAppEntry,
    resolveAppEntry,
    runArcaneRuntime,
    runArcaneRuntimeMain,
} from '../../lib/native/runtime.js';
import {awkwardTempDir, stderrDouble, writeTree} from './support.js';

const USAGE =
    'give the module to import, relative to the bundle\'s app/ folder, as in "--arcane-app-entry native/moon-mcp.mjs"';
const NO_CORE =
    "arcane-core: there is no ordinary Core start in this runtime: arcane-os has no Core of its own. Start an application module with --arcane-app-entry <module relative to the bundle's app folder>, or use a host runtime that passes startCore to runArcaneRuntime.\n";

/** Where the fixture modules leave what they saw. */
const seen = Symbol.for('arcane-os.test.native.seen');
const failure = Symbol.for('arcane-os.test.native.failure');
const shared = globalThis as unknown as Record<symbol, unknown>;

let root: string;
let appRoot: string;

before(async () => {
    root = await awkwardTempDir('runtime');
    appRoot = join(root, 'bundle #2', 'app');
    const record = `globalThis[Symbol.for('arcane-os.test.native.seen')].push(import.meta.url);`;
    await writeTree(appRoot, {
        'native/entry %41 #3 ü.mjs': `${record}\nexport const marker = 'entry';\n`,
        'native/second.mjs': `${record}\nexport const marker = 'second';\n`,
        'native/url-root.mjs': `${record}\nexport const marker = 'url-root';\n`,
        'native/main.mjs': `${record}\nexport const marker = 'main';\n`,
        'native/with-default.mjs': `${record}\nexport default function start() {\n    globalThis[Symbol.for('arcane-os.test.native.seen')].push('default export called');\n}\n`,
        'native/throws.mjs': `throw globalThis[Symbol.for('arcane-os.test.native.failure')];\n`,
        'native/main-throws.mjs': `throw globalThis[Symbol.for('arcane-os.test.native.failure')];\n`,
        'native/flag-error.mjs': `throw globalThis[Symbol.for('arcane-os.test.native.failure')];\n`,
    });
});

after(async () => {
    await rm(root, {recursive: true, force: true});
});

function argvWith(...user: string[]): readonly string[] {
    return Object.freeze(['/usr/bin/node', '/bundle/runtime/arcane-core.mjs', ...user]);
}

/** A startCore that records its calls. */
function spyStart(result: unknown = 'core started') {
    const calls: OrdinaryStartContext[] = [];
    const startCore = (context: OrdinaryStartContext) => {
        calls.push(context);
        return Promise.resolve(result);
    };
    return {calls, startCore};
}

describe('readAppEntry', () => {
    test('returns the value that follows the flag', () => {
        assert.equal(
            readAppEntry(argvWith('--port', '7', APP_ENTRY_FLAG, 'native/moon-mcp.mjs', 'x')),
            'native/moon-mcp.mjs',
        );
    });

    test('returns the value of the --flag=value form', () => {
        assert.equal(readAppEntry(argvWith(`${APP_ENTRY_FLAG}=native/a b.mjs`)), 'native/a b.mjs');
    });

    test('returns undefined when the flag is absent', () => {
        assert.equal(readAppEntry(argvWith('--arcane-app-entryx', 'y', '-arcane-app-entry', 'z')), undefined);
    });

    test('reads user arguments only, from index 2 onward', () => {
        assert.equal(
            readAppEntry([APP_ENTRY_FLAG, 'x.mjs', APP_ENTRY_FLAG, 'native/moon-mcp.mjs']),
            'native/moon-mcp.mjs',
        );
        assert.equal(readAppEntry(['/usr/bin/node', APP_ENTRY_FLAG, 'native/moon-mcp.mjs']), undefined);
    });

    test('throws a TypeError naming the flag when the value is missing', () => {
        assert.throws(
            () => readAppEntry(argvWith('a', APP_ENTRY_FLAG)),
            (error: unknown) => {
                assert.ok(error instanceof TypeError);
                assert.ok(error instanceof FlagError);
                assert.equal(error.flag, APP_ENTRY_FLAG);
                assert.equal(error.message, `--arcane-app-entry is missing its value: ${USAGE}`);
                return true;
            },
        );
    });

    test('throws a TypeError when another option stands where the value should be', () => {
        assert.throws(() => readAppEntry(argvWith(APP_ENTRY_FLAG, '--verbose', 'native/moon-mcp.mjs')), {
            name: 'TypeError',
            message: `--arcane-app-entry is missing its value (the next argument is "--verbose"): ${USAGE}`,
        });
    });

    test('throws a TypeError naming the flag when the value is empty, in either form', () => {
        const expected = {name: 'TypeError', message: `--arcane-app-entry has an empty value: ${USAGE}`};
        assert.throws(() => readAppEntry(argvWith(APP_ENTRY_FLAG, '', 'after')), expected);
        assert.throws(() => readAppEntry(argvWith(`${APP_ENTRY_FLAG}=`)), expected);
    });

    test('throws a TypeError when the flag is given twice', () => {
        assert.throws(() => readAppEntry(argvWith(APP_ENTRY_FLAG, 'a.mjs', `${APP_ENTRY_FLAG}=b.mjs`)), {
            name: 'TypeError',
            message: '--arcane-app-entry is given more than once ("a.mjs" and "b.mjs"): give it once',
        });
    });
});

describe('resolveAppEntry', () => {
    test('keeps spaces, Unicode, # and % as filesystem characters in the file URL', () => {
        const url = resolveAppEntry(appRoot, 'native/entry %41 #3 ü.mjs');
        assert.equal(url.protocol, 'file:');
        assert.equal(url.hash, '');
        assert.equal(url.search, '');
        assert.equal(fileURLToPath(url), join(appRoot, 'native', 'entry %41 #3 ü.mjs'));
        assert.equal(url.href, pathToFileURL(join(appRoot, 'native', 'entry %41 #3 ü.mjs')).href);
    });

    test('accepts the app root as a file URL', () => {
        const url = resolveAppEntry(pathToFileURL(`${appRoot}/`), './native/../native/main.mjs');
        assert.equal(fileURLToPath(url), join(appRoot, 'native', 'main.mjs'));
    });

    test('refuses an absolute module path', () => {
        assert.throws(() => resolveAppEntry(appRoot, '/etc/passwd.mjs'), {
            name: 'TypeError',
            message: `--arcane-app-entry "/etc/passwd.mjs" is an absolute path: give a path relative to the bundle's app folder (${appRoot}), as in "--arcane-app-entry native/moon-mcp.mjs"`,
        });
    });

    test('refuses a path that leads out of the app folder', () => {
        for (const entry of ['../runtime/arcane-core.mjs', '..', 'native/../../x.mjs', '.']) {
            assert.throws(() => resolveAppEntry(appRoot, entry), {
                name: 'TypeError',
                message: `--arcane-app-entry "${entry}" does not name a module inside the bundle's app folder (${appRoot}): give a path relative to that folder, as in "--arcane-app-entry native/moon-mcp.mjs"`,
            });
        }
    });

    test('accepts a name that merely starts with two dots', () => {
        assert.equal(fileURLToPath(resolveAppEntry(appRoot, '..hidden.mjs')), join(appRoot, '..hidden.mjs'));
    });

    test('refuses an app root URL that is not a file: URL', () => {
        assert.throws(() => resolveAppEntry(new URL('https://example.com/app/'), 'a.mjs'), {
            name: 'TypeError',
            message:
                'The app root must be a folder path or a file: URL, got the URL https://example.com/app/',
        });
    });
});

describe('runArcaneRuntime', () => {
    test('imports the app entry from the app folder and leaves the argv unchanged', async () => {
        shared[seen] = [];
        const argv = argvWith('before', APP_ENTRY_FLAG, 'native/entry %41 #3 ü.mjs', 'after', '--x=1');
        const copy = [...argv];
        const {calls, startCore} = spyStart();
        const outcome = await runArcaneRuntime({argv, appRoot, startCore});
        const file = join(appRoot, 'native', 'entry %41 #3 ü.mjs');
        assert.equal(outcome.mode, 'app-entry');
        assert.ok(outcome.mode === 'app-entry');
        assert.equal(outcome.entry.href, pathToFileURL(file).href);
        assert.equal((outcome.module as {marker: string}).marker, 'entry');
        assert.deepEqual(shared[seen], [pathToFileURL(file).href]);
        assert.deepEqual(argv, copy);
        assert.deepEqual(calls, [], 'app-entry mode must not take the ordinary start');
    });

    test('calls no default export and installs no signal handlers', async () => {
        shared[seen] = [];
        const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
        const before = signals.map((signal) => process.listenerCount(signal));
        const outcome = await runArcaneRuntime({
            argv: argvWith(APP_ENTRY_FLAG, 'native/with-default.mjs'),
            appRoot,
        });
        assert.ok(outcome.mode === 'app-entry');
        assert.equal(typeof (outcome.module as {default: unknown}).default, 'function');
        assert.deepEqual(shared[seen], [pathToFileURL(join(appRoot, 'native', 'with-default.mjs')).href]);
        assert.deepEqual(
            signals.map((signal) => process.listenerCount(signal)),
            before,
        );
    });

    test('imports relative to an app root given as a file URL', async () => {
        shared[seen] = [];
        const outcome = await runArcaneRuntime({
            argv: argvWith(APP_ENTRY_FLAG, 'native/url-root.mjs'),
            appRoot: pathToFileURL(`${appRoot}/`),
        });
        assert.ok(outcome.mode === 'app-entry');
        assert.equal((outcome.module as {marker: string}).marker, 'url-root');
        assert.equal(fileURLToPath(outcome.entry), join(appRoot, 'native', 'url-root.mjs'));
    });

    test('loads the entry through the host importer when one is given', async () => {
        const loaded: string[] = [];
        const namespace = {marker: 'host-loaded'};
        const outcome = await runArcaneRuntime({
            argv: argvWith(APP_ENTRY_FLAG, 'native/second.mjs'),
            appRoot,
            importModule: (url) => {
                loaded.push(url);
                return Promise.resolve(namespace);
            },
        });
        const href = pathToFileURL(join(appRoot, 'native', 'second.mjs')).href;
        assert.deepEqual(loaded, [href]);
        assert.ok(outcome.mode === 'app-entry');
        assert.equal(outcome.module, namespace);
    });

    test('rejects with the very error a module throws while loading, and never takes the ordinary start', async () => {
        const thrown = new Error('the moon cellar is flooded');
        shared[failure] = thrown;
        const {calls, startCore} = spyStart();
        await assert.rejects(
            runArcaneRuntime({argv: argvWith(APP_ENTRY_FLAG, 'native/throws.mjs'), appRoot, startCore}),
            (error) => error === thrown,
        );
        assert.deepEqual(calls, []);
    });

    test('rejects with the loader error for a module that does not exist, and never takes the ordinary start', async () => {
        const {calls, startCore} = spyStart();
        const file = join(appRoot, 'native', 'absent #4.mjs');
        await assert.rejects(
            runArcaneRuntime({argv: argvWith(APP_ENTRY_FLAG, 'native/absent #4.mjs'), appRoot, startCore}),
            {
                code: 'ERR_MODULE_NOT_FOUND',
                url: pathToFileURL(file).href,
            },
        );
        assert.deepEqual(calls, []);
    });

    test('throws the flag TypeError before importing or starting anything', async () => {
        const {calls, startCore} = spyStart();
        const loaded: string[] = [];
        await assert.rejects(
            runArcaneRuntime({
                argv: argvWith(APP_ENTRY_FLAG),
                appRoot,
                startCore,
                importModule: (url) => {
                    loaded.push(url);
                    return Promise.resolve({});
                },
            }),
            {name: 'TypeError', message: `--arcane-app-entry is missing its value: ${USAGE}`},
        );
        assert.deepEqual(calls, []);
        assert.deepEqual(loaded, []);
    });

    test('takes the ordinary start when the flag is absent, with the argv and the app folder', async () => {
        const argv = argvWith('--arcane-launch-config', 'launch.json');
        const {calls, startCore} = spyStart({core: 'running'});
        const loaded: string[] = [];
        const outcome = await runArcaneRuntime({
            argv,
            appRoot: pathToFileURL(`${appRoot}/`),
            startCore,
            importModule: (url) => {
                loaded.push(url);
                return Promise.resolve({});
            },
        });
        assert.deepEqual(outcome, {mode: 'ordinary', result: {core: 'running'}});
        assert.equal(calls.length, 1);
        assert.equal(calls[0]?.argv, argv);
        assert.equal(calls[0]?.appRoot, appRoot);
        assert.deepEqual(loaded, [], 'ordinary start must not import an app entry');
    });

    test('reports that there is no ordinary start when the flag is absent and none is given', async () => {
        assert.deepEqual(await runArcaneRuntime({argv: argvWith('--port', '7'), appRoot}), {
            mode: 'no-ordinary-start',
        });
    });
});

describe('runArcaneRuntimeMain', () => {
    test('leaves the exit status to the app entry and writes nothing', async () => {
        shared[seen] = [];
        const stderr = stderrDouble();
        const status = await runArcaneRuntimeMain({
            argv: argvWith(APP_ENTRY_FLAG, 'native/main.mjs'),
            appRoot,
            stderr,
        });
        assert.equal(status, undefined);
        assert.equal(stderr.text, '');
        assert.equal((shared[seen] as unknown[]).length, 1);
    });

    test('leaves the exit status to the ordinary start and writes nothing', async () => {
        const stderr = stderrDouble();
        const {calls, startCore} = spyStart();
        assert.equal(await runArcaneRuntimeMain({argv: argvWith(), appRoot, startCore, stderr}), undefined);
        assert.equal(calls.length, 1);
        assert.equal(stderr.text, '');
    });

    test('says on stderr that a flag value is missing and asks for exit status 1', async () => {
        const stderr = stderrDouble();
        const {calls, startCore} = spyStart();
        const status = await runArcaneRuntimeMain({
            argv: argvWith(`${APP_ENTRY_FLAG}=`),
            appRoot,
            startCore,
            stderr,
        });
        assert.equal(status, EXIT_BAD_ARGUMENT);
        assert.equal(status, 1);
        assert.equal(
            stderr.text,
            `arcane-core: TypeError: --arcane-app-entry has an empty value: ${USAGE}. Nothing was started.\n`,
        );
        assert.deepEqual(calls, []);
    });

    test('says on stderr that there is no ordinary start and asks for exit status 2', async () => {
        const stderr = stderrDouble();
        const status = await runArcaneRuntimeMain({argv: argvWith('--port', '7'), appRoot, stderr});
        assert.equal(status, EXIT_NO_ORDINARY_START);
        assert.equal(status, 2);
        assert.equal(stderr.text, NO_CORE);
    });

    test('still asks for its exit status when stderr reports a failed write', async () => {
        const written: string[] = [];
        const stderr: ReportStream = {
            write(text, callback) {
                written.push(text);
                callback(new Error('EPIPE'));
                return false;
            },
        };
        assert.equal(await runArcaneRuntimeMain({argv: argvWith(), appRoot, stderr}), 2);
        assert.deepEqual(written, [NO_CORE]);
    });

    test("rejects with an app entry's own FlagError unchanged instead of reporting it as the runtime's", async () => {
        const thrown = new FlagError('--arcane-launch-config', '--arcane-launch-config is missing its value');
        shared[failure] = thrown;
        const stderr = stderrDouble();
        await assert.rejects(
            runArcaneRuntimeMain({argv: argvWith(APP_ENTRY_FLAG, 'native/flag-error.mjs'), appRoot, stderr}),
            (error) => error === thrown,
        );
        assert.equal(stderr.text, '');
    });

    test("rejects with a host start's own FlagError unchanged", async () => {
        const thrown = new FlagError('--arcane-state-root', '--arcane-state-root is missing its value');
        const stderr = stderrDouble();
        await assert.rejects(
            runArcaneRuntimeMain({
                argv: argvWith(),
                appRoot,
                startCore: () => {
                    throw thrown;
                },
                stderr,
            }),
            (error) => error === thrown,
        );
        assert.equal(stderr.text, '');
    });

    test('rejects with the very error an app entry throws while loading, writing nothing', async () => {
        const thrown = new TypeError('a TypeError from the app itself is not a flag error');
        shared[failure] = thrown;
        const stderr = stderrDouble();
        const {calls, startCore} = spyStart();
        await assert.rejects(
            runArcaneRuntimeMain({
                argv: argvWith(APP_ENTRY_FLAG, 'native/main-throws.mjs'),
                appRoot,
                startCore,
                stderr,
            }),
            (error) => error === thrown,
        );
        assert.equal(stderr.text, '');
        assert.deepEqual(calls, []);
    });
});

describe('programmer errors', () => {
    test('are thrown at the call site, naming the option to fix', () => {
        const appRoot = '/bundle/app';
        const cases: [unknown, string][] = [
            [null, 'runArcaneRuntime(options) needs an options object'],
            [
                {argv: 'node x --arcane-app-entry a.mjs', appRoot},
                'runArcaneRuntime: argv must be an array of strings shaped like process.argv',
            ],
            [
                {argv: ['node', 'x'], appRoot: 42},
                "runArcaneRuntime: appRoot must be the bundle's app folder, as a path or a file: URL",
            ],
            [
                {argv: ['node', 'x'], appRoot, startCore: 'yes'},
                'runArcaneRuntime: startCore must be a function when given',
            ],
            [
                {argv: ['node', 'x'], appRoot, importModule: {}},
                'runArcaneRuntime: importModule must be a function when given',
            ],
        ];
        for (const [options, message] of cases) {
            assert.throws(() => runArcaneRuntime(options as never), {name: 'TypeError', message});
        }
        assert.throws(() => runArcaneRuntimeMain({argv: ['node', 'x'], appRoot} as never), {
            name: 'TypeError',
            message: 'runArcaneRuntimeMain: stderr must be a stream with a write(text, callback) method',
        });
    });
});
