/**
 * A real pipe whose reader goes away while the server writes: the process must not crash on an
 * unhandled EPIPE. It reports the failure on stderr and exits non-zero. A client that goes away
 * closes both of its pipes, so each test closes stdin right after stdout; the EPIPE still comes
 * first because the write is already under way or the requests are already on their way.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {callRecord, initializeRecord} from './support.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bigResultApp = fileURLToPath(new URL('./fixtures/big-result-app.js', import.meta.url));
const DIAGNOSTIC =
    '[arcane-os/mcp/stdio] Transport failure, closing the session and cancelling pending requests: write EPIPE\n';

function launch(script: string, ...args: string[]) {
    const child = spawn(process.execPath, [script, ...args], {cwd: root, stdio: ['pipe', 'pipe', 'pipe']});
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
        stderr += chunk;
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // Writing to a child that has exited fails with EPIPE on our side too; that is expected here.
    child.stdin.on('error', () => {});
    return {child, exited, stderr: () => stderr};
}

/** Resolves with everything read up to and including the first line feed. */
async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
    let seen = '';
    for await (const chunk of stream) {
        seen += String(chunk);
        const lf = seen.indexOf('\n');
        if (lf !== -1) return seen.slice(0, lf + 1);
    }
    throw new Error(`the stream ended before a complete line: ${JSON.stringify(seen)}`);
}

function assertNoCrash(stderr: string): void {
    assert.ok(!stderr.includes("Unhandled 'error' event"), stderr);
    assert.ok(!stderr.includes('Uncaught'), stderr);
    assert.ok(!stderr.includes('triggerUncaughtException'), stderr);
}

test('a reader that goes away in the middle of a 32 MiB result ends the process with a report, not a crash', async () => {
    const {child, exited, stderr} = launch(bigResultApp, '32');
    child.stdin.write(initializeRecord + callRecord(1, 'big'));
    const stdout = child.stdout;
    const reading = stdout[Symbol.asyncIterator]();
    // The initialize response, then the first bytes of the big result: the write is under way.
    let seen = '';
    while (!seen.includes('"id":1,')) {
        const next = await reading.next();
        assert.equal(next.done, false, 'stdout ended before the big result started');
        seen += String(next.value);
    }
    stdout.destroy();
    child.stdin.end();
    const [code, signal] = await exited;
    assert.equal(signal, null);
    assert.equal(code, 1, stderr());
    assert.ok(stderr().startsWith(DIAGNOSTIC), stderr());
    assert.ok(
        stderr().endsWith('big-result-app: the session failed: The MCP stdio session failed: write EPIPE\n'),
        stderr(),
    );
    assertNoCrash(stderr());
});

test('the moon-pantry example reports an EPIPE on stderr and exits non-zero when its client stops reading', async () => {
    const {child, exited, stderr} = launch('examples/moon-pantry.mjs');
    child.stdin.write(initializeRecord);
    const init = JSON.parse(await firstLine(child.stdout)) as {id: unknown; result: {serverInfo: unknown}};
    assert.equal(init.id, 'init');
    assert.deepEqual(init.result.serverInfo, {name: 'moon-pantry', version: '1.0.0'});
    child.stdout.destroy();
    let calls = '';
    for (let id = 1; id <= 200; id += 1) calls += callRecord(id, 'moon.menu');
    child.stdin.end(calls);
    const [code, signal] = await exited;
    assert.equal(signal, null);
    assert.equal(code, 1, stderr());
    assert.ok(stderr().startsWith(DIAGNOSTIC), stderr());
    assertNoCrash(stderr());
});
