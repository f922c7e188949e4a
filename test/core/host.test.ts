import assert from 'node:assert/strict';
import {mkdir, rm, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {
    CoreLaunchConfigError,
    FlagError,
    LAUNCH_CONFIG_FLAG,
    readCoreLaunchContext,
    STATE_ROOT_FLAG,
} from '../../lib/core/host/index.js';
import {awkwardTempDir, writeTree} from '../native/support.js';

const launch = {
    services: ['moon.kitchen'],
    defaults: {stateRoot: '/should/not/be/applied', localAi: true},
    greeting: 'Moon soup\nExtra tentacles available.',
};

let cwd: string;

before(async () => {
    cwd = await awkwardTempDir('host');
    await writeTree(cwd, {
        'config/launch #1.json': JSON.stringify(launch),
        'config/bom.json': `\uFEFF${JSON.stringify({bom: true})}`,
        'config/broken.json': '{"services": [',
        'config/not-a-folder': 'plain text',
    });
    await mkdir(join(cwd, 'config', 'folder.json'));
});

after(async () => {
    await rm(cwd, {recursive: true, force: true});
});

function argvWith(...user: string[]): readonly string[] {
    return ['/usr/bin/node', '/bundle/app/native/moon-mcp.mjs', ...user];
}

function parseFault(text: string): string {
    try {
        JSON.parse(text);
    } catch (error) {
        return (error as Error).message;
    }
    throw new Error('the text parsed');
}

test('finds nothing when neither flag is given', async () => {
    assert.deepEqual(await readCoreLaunchContext({argv: argvWith('--port', '7'), cwd}), {
        launchConfigPath: undefined,
        launchConfig: undefined,
        stateRoot: undefined,
    });
});

test('reads both flags, resolving relative paths from the working directory', async () => {
    const argv = argvWith(
        'a',
        LAUNCH_CONFIG_FLAG,
        'config/launch #1.json',
        STATE_ROOT_FLAG,
        'state dir',
        'b',
    );
    const context = await readCoreLaunchContext({argv, cwd});
    assert.deepEqual(context, {
        launchConfigPath: join(cwd, 'config', 'launch #1.json'),
        launchConfig: launch,
        stateRoot: join(cwd, 'state dir'),
    });
});

test('applies nothing from the launch JSON and creates no state folder', async () => {
    const argv = argvWith(`${LAUNCH_CONFIG_FLAG}=config/launch #1.json`, `${STATE_ROOT_FLAG}=fresh state`);
    const context = await readCoreLaunchContext({argv, cwd});
    assert.equal(context.stateRoot, join(cwd, 'fresh state'));
    assert.deepEqual(context.launchConfig, launch);
    await assert.rejects(stat(join(cwd, 'fresh state')), {code: 'ENOENT'});
});

test('keeps an absolute path as it is', async () => {
    const file = join(cwd, 'config', 'launch #1.json');
    const context = await readCoreLaunchContext({argv: argvWith(LAUNCH_CONFIG_FLAG, file), cwd: '/'});
    assert.equal(context.launchConfigPath, file);
    assert.deepEqual(context.launchConfig, launch);
});

test('reads the state root alone without touching any file', async () => {
    assert.deepEqual(await readCoreLaunchContext({argv: argvWith(STATE_ROOT_FLAG, '/var/lib/moon'), cwd}), {
        launchConfigPath: undefined,
        launchConfig: undefined,
        stateRoot: '/var/lib/moon',
    });
});

test('reads process.argv and the process working directory when given neither', async () => {
    const previous = process.cwd();
    const added = [LAUNCH_CONFIG_FLAG, 'config/launch #1.json', STATE_ROOT_FLAG, 'state'];
    process.argv.push(...added);
    process.chdir(cwd);
    try {
        assert.deepEqual(await readCoreLaunchContext(), {
            launchConfigPath: join(cwd, 'config', 'launch #1.json'),
            launchConfig: launch,
            stateRoot: join(cwd, 'state'),
        });
    } finally {
        process.chdir(previous);
        process.argv.splice(process.argv.length - added.length, added.length);
    }
});

test('ignores a byte order mark before the JSON', async () => {
    const context = await readCoreLaunchContext({argv: argvWith(LAUNCH_CONFIG_FLAG, 'config/bom.json'), cwd});
    assert.deepEqual(context.launchConfig, {bom: true});
});

test('rejects a missing launch file with an error naming the file and the fault', async () => {
    const file = join(cwd, 'config', 'absent.json');
    await assert.rejects(
        readCoreLaunchContext({argv: argvWith(LAUNCH_CONFIG_FLAG, 'config/absent.json'), cwd}),
        (error: unknown) => {
            assert.ok(error instanceof CoreLaunchConfigError);
            assert.equal(error.name, 'CoreLaunchConfigError');
            assert.equal(error.path, file);
            assert.equal(
                error.message,
                `The launch config ${file} (given by --arcane-launch-config) cannot be read: there is no such file (ENOENT). Check the path; a relative path is resolved from the working directory ${cwd}`,
            );
            assert.equal((error.cause as NodeJS.ErrnoException).code, 'ENOENT');
            return true;
        },
    );
});

test('rejects a folder given as the launch file', async () => {
    const file = join(cwd, 'config', 'folder.json');
    await assert.rejects(readCoreLaunchContext({argv: argvWith(LAUNCH_CONFIG_FLAG, file), cwd}), {
        name: 'CoreLaunchConfigError',
        message: `The launch config ${file} (given by --arcane-launch-config) cannot be read: it is a folder, not a file (EISDIR). Check the path; a relative path is resolved from the working directory ${cwd}`,
    });
});

test('passes on the system message for any other read fault', async () => {
    const file = join(cwd, 'config', 'not-a-folder', 'launch.json');
    await assert.rejects(
        readCoreLaunchContext({argv: argvWith(LAUNCH_CONFIG_FLAG, 'config/not-a-folder/launch.json'), cwd}),
        {
            name: 'CoreLaunchConfigError',
            message: `The launch config ${file} (given by --arcane-launch-config) cannot be read: ENOTDIR: not a directory, open '${file}'. Check the path; a relative path is resolved from the working directory ${cwd}`,
        },
    );
});

test('rejects malformed JSON with an error naming the file and the fault', async () => {
    const file = join(cwd, 'config', 'broken.json');
    await assert.rejects(
        readCoreLaunchContext({argv: argvWith(LAUNCH_CONFIG_FLAG, 'config/broken.json'), cwd}),
        (error: unknown) => {
            assert.ok(error instanceof CoreLaunchConfigError);
            assert.equal(error.path, file);
            assert.equal(
                error.message,
                `The launch config ${file} (given by --arcane-launch-config) is not valid JSON: ${parseFault('{"services": [')}. Fix the file or name another one`,
            );
            assert.ok(error.cause instanceof SyntaxError);
            return true;
        },
    );
});

test('throws a TypeError naming the flag when a flag has no value', async () => {
    await assert.rejects(
        readCoreLaunchContext({argv: argvWith(LAUNCH_CONFIG_FLAG), cwd}),
        (error: unknown) => {
            assert.ok(error instanceof TypeError);
            assert.ok(error instanceof FlagError);
            assert.equal(error.flag, LAUNCH_CONFIG_FLAG);
            assert.equal(
                error.message,
                '--arcane-launch-config is missing its value: give the path of the launch JSON file, as in "--arcane-launch-config launch.json"',
            );
            return true;
        },
    );
    await assert.rejects(readCoreLaunchContext({argv: argvWith(STATE_ROOT_FLAG, '', 'x'), cwd}), {
        name: 'TypeError',
        message:
            '--arcane-state-root has an empty value: give the path of the state folder, as in "--arcane-state-root state"',
    });
});

test('throws a TypeError at the call site for options of the wrong shape', () => {
    assert.throws(() => readCoreLaunchContext(null as never), {
        name: 'TypeError',
        message: 'readCoreLaunchContext(options) needs an options object, got null',
    });
    assert.throws(() => readCoreLaunchContext({argv: 5 as never}), {
        name: 'TypeError',
        message: 'readCoreLaunchContext: argv must be an array of strings shaped like process.argv',
    });
    assert.throws(() => readCoreLaunchContext({argv: ['node', 'x'], cwd: 7 as never}), {
        name: 'TypeError',
        message: 'readCoreLaunchContext: cwd must be a folder path string',
    });
});
