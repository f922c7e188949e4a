/**
 * Finding the program for a command without a shell. Windows is exercised on any platform through
 * a file-system double holding the shims npm and cmd-shim write.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {CommandFiles} from '../../../lib/mcp/client/command.js';
import {resolveCommand, shimScript} from '../../../lib/mcp/client/command.js';

/** npm's own npx.cmd, as Node's Windows installer places it beside node.exe. */
const NPM_NPX_CMD = [
    ":: Created by npm, please don't edit manually.",
    '@ECHO OFF',
    '',
    'SETLOCAL',
    '',
    'SET "NODE_EXE=%~dp0\\node.exe"',
    'IF NOT EXIST "%NODE_EXE%" (',
    '  SET "NODE_EXE=node"',
    ')',
    '',
    'SET "NPM_PREFIX_JS=%~dp0\\node_modules\\npm\\bin\\npm-prefix.js"',
    'SET "NPX_CLI_JS=%~dp0\\node_modules\\npm\\bin\\npx-cli.js"',
    'FOR /F "delims=" %%F IN (\'CALL "%NODE_EXE%" "%NPM_PREFIX_JS%"\') DO (',
    '  SET "NPM_PREFIX_NPX_CLI_JS=%%F\\node_modules\\npm\\bin\\npx-cli.js"',
    ')',
    'IF EXIST "%NPM_PREFIX_NPX_CLI_JS%" (',
    '  SET "NPX_CLI_JS=%NPM_PREFIX_NPX_CLI_JS%"',
    ')',
    '',
    '"%NODE_EXE%" "%NPX_CLI_JS%" %*',
    '',
].join('\r\n');

/** A global bin written by cmd-shim. */
const CMD_SHIM = [
    '@ECHO off',
    'GOTO start',
    ':find_dp0',
    'SET dp0=%~dp0',
    'EXIT /b',
    ':start',
    'SETLOCAL',
    'CALL :find_dp0',
    '',
    'IF EXIST "%dp0%\\node.exe" (',
    '  SET "_prog=%dp0%\\node.exe"',
    ') ELSE (',
    '  SET "_prog=node"',
    '  SET PATHEXT=%PATHEXT:;.JS;=;%',
    ')',
    '',
    'endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\node_modules\\@acme\\mcp-weather\\dist\\cli.mjs" %*',
    '',
].join('\r\n');

/** An older cmd-shim layout (corepack still ships it). */
const OLD_SHIM = [
    '@SETLOCAL',
    '@IF EXIST "%~dp0\\node.exe" (',
    '  "%~dp0\\node.exe"  "%~dp0\\..\\dist\\pnpm.js" %*',
    ') ELSE (',
    '  @SET PATHEXT=%PATHEXT:;.JS;=;%',
    '  node  "%~dp0\\..\\dist\\pnpm.js" %*',
    ')',
].join('\n');

function files(entries: Record<string, string>): CommandFiles & {looked: string[]} {
    const looked: string[] = [];
    const lower = new Map(Object.entries(entries).map(([path, text]) => [path.toLowerCase(), text]));
    return {
        looked,
        isFile: async (path) => {
            looked.push(path);
            return lower.has(path.toLowerCase());
        },
        read: async (path) => lower.get(path.toLowerCase()) as string,
    };
}

const NODE_DIR = 'C:\\Program Files\\nodejs';
const env = {
    Path: `C:\\Windows\\system32;"${NODE_DIR}";C:\\Users\\me\\AppData\\Roaming\\npm`,
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
};

test('elsewhere than Windows the command is spawned as given', async () => {
    const fs = files({});
    assert.deepEqual(
        await resolveCommand('npx', ['-y', 'pkg'], {env, cwd: '/tmp', platform: 'linux', files: fs}),
        {
            file: 'npx',
            args: ['-y', 'pkg'],
        },
    );
    assert.deepEqual(fs.looked, []);
});

test("npx on Windows runs npm's npx-cli.js with the node.exe beside it, arguments untouched", async () => {
    const fs = files({
        [`${NODE_DIR}\\npx.cmd`]: NPM_NPX_CMD,
        [`${NODE_DIR}\\node.exe`]: '',
    });
    const target = await resolveCommand('npx', ['-y', '@acme/server', 'a "quoted" & arg'], {
        env,
        cwd: 'C:\\work',
        platform: 'win32',
        files: fs,
    });
    assert.deepEqual(target, {
        file: `${NODE_DIR}\\node.exe`,
        args: [`${NODE_DIR}\\node_modules\\npm\\bin\\npx-cli.js`, '-y', '@acme/server', 'a "quoted" & arg'],
    });
    // The working directory first, then each PATH entry, each PATHEXT extension in order.
    assert.deepEqual(fs.looked.slice(0, 5), [
        'C:\\work\\npx.com',
        'C:\\work\\npx.exe',
        'C:\\work\\npx.bat',
        'C:\\work\\npx.cmd',
        'C:\\Windows\\system32\\npx.com',
    ]);
});

test('a cmd-shim global bin runs its script with node from the PATH when no node.exe is beside it', async () => {
    const bin = 'C:\\Users\\me\\AppData\\Roaming\\npm';
    const fs = files({[`${bin}\\mcp-weather.CMD`]: CMD_SHIM});
    assert.deepEqual(
        await resolveCommand('mcp-weather', [], {env, cwd: 'C:\\work', platform: 'win32', files: fs}),
        {
            file: 'node',
            args: [`${bin}\\node_modules\\@acme\\mcp-weather\\dist\\cli.mjs`],
        },
    );
});

test('an explicit .cmd path is read as a shim too', async () => {
    const fs = files({'C:\\tools\\pnpm\\bin\\pnpm.cmd': OLD_SHIM});
    assert.deepEqual(
        await resolveCommand('C:\\tools\\pnpm\\bin\\pnpm.cmd', ['dlx', 'x'], {
            env: {},
            cwd: 'C:\\',
            platform: 'win32',
            files: fs,
        }),
        {file: 'node', args: ['C:\\tools\\pnpm\\dist\\pnpm.js', 'dlx', 'x']},
    );
});

test('a relative command with a directory is looked up from cwd only', async () => {
    const fs = files({'C:\\app\\bin\\server.exe': ''});
    assert.deepEqual(
        await resolveCommand('bin\\server', ['--stdio'], {env, cwd: 'C:\\app', platform: 'win32', files: fs}),
        {
            file: 'C:\\app\\bin\\server.exe',
            args: ['--stdio'],
        },
    );
    assert.equal(
        fs.looked.every((path) => path.startsWith('C:\\app\\bin\\')),
        true,
    );
});

test('an executable found on the PATH is spawned by its full path', async () => {
    const fs = files({'C:\\Windows\\system32\\uvx.exe': ''});
    assert.deepEqual(
        await resolveCommand('uvx', ['mcp-server-time'], {
            env,
            cwd: 'C:\\work',
            platform: 'win32',
            files: fs,
        }),
        {
            file: 'C:\\Windows\\system32\\uvx.exe',
            args: ['mcp-server-time'],
        },
    );
});

test('a command found nowhere is left for spawn to report', async () => {
    assert.deepEqual(
        await resolveCommand('nothing', [], {env: {}, cwd: 'C:\\', platform: 'win32', files: files({})}),
        {
            file: 'nothing',
            args: [],
        },
    );
});

test('a batch file that is not a Node shim is refused, saying what to pass instead', async () => {
    const fs = files({'C:\\work\\start.bat': '@echo off\r\npython server.py %*\r\n'});
    await assert.rejects(
        resolveCommand('start.bat', [], {env, cwd: 'C:\\work', platform: 'win32', files: fs}),
        {
            name: 'McpConnectionError',
            message:
                'Cannot start "start.bat": it is the batch file C:\\work\\start.bat, which Windows runs only through a ' +
                'shell, and it is not an npm shim of a Node script. Pass the program it runs as `command` and its ' +
                'arguments as `args`.',
        },
    );
});

test('shimScript finds nothing in a file that never passes its arguments on', () => {
    assert.equal(shimScript('@echo off\r\nnode "%~dp0\\x.js"\r\n', 'C:\\a\\x.cmd'), undefined);
    assert.equal(shimScript('"%UNKNOWN%\\x.js" %*', 'C:\\a\\x.cmd'), undefined);
});

test('on this platform the real file system is used and the command is passed through', async () => {
    assert.deepEqual(await resolveCommand(process.execPath, ['-v'], {env: process.env, cwd: undefined}), {
        file: process.execPath,
        args: ['-v'],
    });
});
