/**
 * A real pipe whose reader goes away while the server writes: the process must not crash on an
 * unhandled EPIPE. It reports the failure on stderr and exits non-zero, by itself: the client keeps
 * stdin open, as a client that merely stopped reading stdout does.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {REPO_ROOT} from '../helpers/paths.js';
import {callRecord, initializeRecord} from './support.js';
import {exitWithin, launch} from './transports.js';

const bigResultApp = fileURLToPath(new URL('./fixtures/big-result-app.js', import.meta.url));
const DIAGNOSTIC =
    '[arcane-os/mcp/stdio] Transport failure, closing the session and cancelling pending requests: write EPIPE\n';

function assertNoCrash(stderr: string): void {
    assert.ok(!stderr.includes("Unhandled 'error' event"), stderr);
    assert.ok(!stderr.includes('Uncaught'), stderr);
    assert.ok(!stderr.includes('triggerUncaughtException'), stderr);
}

test('a reader that goes away in the middle of a 32 MiB result ends the process with a report, not a crash', async () => {
    const client = await launch('socket', [bigResultApp, '32'], REPO_ROOT);
    try {
        client.stdin.write(initializeRecord + callRecord(1, 'big'));
        // The initialize response, then the first bytes of the big result: the write is under way.
        await client.stdoutIncludes('"id":1,');
        client.stdout.destroy();
        const exit = await exitWithin(client);
        const stderr = client.stderrText();
        assert.deepEqual(exit, {code: 1, signal: null}, stderr);
        assert.ok(stderr.startsWith(DIAGNOSTIC), stderr);
        assert.ok(
            stderr.endsWith(
                'big-result-app: the session failed: The MCP stdio session failed: write EPIPE\n',
            ),
            stderr,
        );
        assertNoCrash(stderr);
    } finally {
        await client.release();
    }
});

test('the moon-pantry example reports an EPIPE on stderr and exits non-zero when its client stops reading', async () => {
    const client = await launch('socket', ['examples/moon-pantry.mjs'], REPO_ROOT);
    try {
        client.stdin.write(initializeRecord);
        await client.stdoutIncludes('\n');
        const init = JSON.parse(client.stdoutText().split('\n')[0] as string) as {
            id: unknown;
            result: {serverInfo: unknown};
        };
        assert.equal(init.id, 'init');
        assert.deepEqual(init.result.serverInfo, {name: 'moon-pantry', version: '1.0.0'});
        client.stdout.destroy();
        let calls = '';
        for (let id = 1; id <= 200; id += 1) calls += callRecord(id, 'moon.menu');
        client.stdin.write(calls);
        const exit = await exitWithin(client);
        const stderr = client.stderrText();
        assert.deepEqual(exit, {code: 1, signal: null}, stderr);
        assert.ok(stderr.startsWith(DIAGNOSTIC), stderr);
        assertNoCrash(stderr);
    } finally {
        await client.release();
    }
});
