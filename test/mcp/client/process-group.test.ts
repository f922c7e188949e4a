/**
 * No process left behind: a server started through `sh -c` or `npx` runs as a grandchild of the
 * client (or deeper), and closing the client ends every process of that tree, including one that
 * ignores end of input and SIGTERM, and one the command left running after the server exited.
 */
import assert from 'node:assert/strict';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {FakeConfig} from './fixtures/fake-server.js';
import {closeAll, connectFake, FAKE_SERVER, GUARD} from './support.js';
import {alive, descendants, HAS_PROC} from './tree.js';

const SLEEPER = fileURLToPath(new URL('./fixtures/sleeper.js', import.meta.url));
const STUBBORN: FakeConfig = {ignoreEof: true, ignoreTerm: true};
const LINUX = {...GUARD, skip: HAS_PROC ? false : 'reads the process tree from /proc (Linux)'};
// The grace after SIGTERM is also how long a stubborn process has to report that it saw the
// signal before SIGKILL: long enough for a loaded machine, where 300 ms was not always.
const FAST = {exitGraceMs: 100, terminateGraceMs: 2000};

after(closeAll);

test(
    'closing a client whose server runs under sh -c ends the shell and the server, though the server ignores SIGTERM',
    LINUX,
    async () => {
        const {client, wire, pid} = await connectFake(STUBBORN, {
            command: 'sh',
            // `; true` keeps the shell from replacing itself with node: the server is a grandchild.
            args: ['-c', '"$0" "$1" "$2"; true', process.execPath, FAKE_SERVER, JSON.stringify(STUBBORN)],
            ...FAST,
        });
        const tree = descendants();
        assert.equal(tree.length, 2, `sh and the server, got ${tree.join(', ')}`);
        assert.ok(tree.includes(pid));
        assert.deepEqual(await client.listTools(), []);
        await client.close();
        // The group's SIGTERM reached the grandchild, which ignored it; SIGKILL followed.
        assert.ok(wire.lines.includes('SIGTERM'), 'the server was sent SIGTERM');
        assert.deepEqual(
            tree.filter((each) => alive(each)),
            [],
        );
        assert.deepEqual(descendants(), []);
    },
);

test('closing ends what the command left running after the server itself exited', LINUX, async () => {
    const {client, wire, pid} = await connectFake(
        {},
        {
            command: 'sh',
            // A sleeper in the background (stdin from /dev/null), then the server in the shell's place.
            args: [
                '-c',
                '"$0" "$1" ignore-term & exec "$0" "$2" "$3"',
                process.execPath,
                SLEEPER,
                FAKE_SERVER,
                '{}',
            ],
            ...FAST,
        },
    );
    const sleeper = Number((await wire.until((line) => line.startsWith('SLEEPER '))).slice(8));
    assert.deepEqual(
        descendants(),
        [pid, sleeper].sort((a, b) => a - b),
    );
    await client.close();
    // The server exited at end of input, by itself; the sleeper ignored SIGTERM and was killed.
    assert.ok(wire.lines.includes('EOF'));
    assert.equal(alive(sleeper), false, `the sleeper ${sleeper} is still running`);
    assert.deepEqual(descendants(), []);
});

test('closing a client whose server runs through npx ends npx and everything under it', LINUX, async (t) => {
    const folder = mkdtempSync(join(tmpdir(), 'arcane-npx-'));
    t.after(() => rmSync(folder, {recursive: true, force: true}));
    writeFileSync(join(folder, 'package.json'), '{"name":"npx-fixture","version":"1.0.0","private":true}\n');
    mkdirSync(join(folder, 'node_modules', '.bin'), {recursive: true});
    const bin = join(folder, 'node_modules', '.bin', 'arcane-fake-server');
    writeFileSync(bin, `#!${process.execPath}\nawait import(${JSON.stringify(FAKE_SERVER)});\n`);
    chmodSync(bin, 0o755);
    const {client, wire, pid} = await connectFake(STUBBORN, {
        command: 'npx',
        args: ['--offline', 'arcane-fake-server', JSON.stringify(STUBBORN)],
        cwd: folder,
        ...FAST,
    });
    const tree = descendants();
    assert.ok(tree.length >= 2, `npx and the server at least, got ${tree.join(', ')}`);
    assert.ok(tree.includes(pid));
    assert.deepEqual(await client.listTools(), []);
    await client.close();
    assert.ok(wire.lines.includes('SIGTERM'), 'the server was sent SIGTERM');
    assert.deepEqual(
        tree.filter((each) => alive(each)),
        [],
    );
    assert.deepEqual(descendants(), []);
});
