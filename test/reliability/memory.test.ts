/**
 * Memory stays bounded under an oversized record and under a reader that stops reading. Each case
 * runs in its own `node --expose-gc` process (fixtures/memory-probe.ts), which measures heap plus
 * external memory after a full collection. The bounds are generous multiples of what the design
 * needs; what they rule out is growth with the size of the input or of the unread output.
 */
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';

const run = promisify(execFile);
const probe = fileURLToPath(new URL('./fixtures/memory-probe.js', import.meta.url));
const MiB = 1024 * 1024;

async function measure(...args: string[]): Promise<Record<string, number | string>> {
    const {stdout} = await run(process.execPath, ['--expose-gc', probe, ...args], {maxBuffer: MiB});
    return JSON.parse(stdout) as Record<string, number | string>;
}

test('a 256 MiB record over a 1 MiB limit is discarded in under 8 MiB of memory and the session goes on', async () => {
    const found = await measure('oversized', String(MiB), String(256 * MiB));
    assert.ok((found.peak as number) < 8 * MiB, `memory grew by ${found.peak} bytes`);
    assert.ok((found.after as number) < 4 * MiB, `memory stayed ${found.after} bytes above its start`);
    assert.equal(found.outputLines, 3);
    assert.equal(found.lastOutput, '{"jsonrpc":"2.0","id":"after","result":{}}');
    assert.equal(
        found.diagnostic,
        '[arcane-os/mcp/stdio] The record of 268435456 bytes exceeds the limit of 1048576 bytes ' +
            '(maxMessageBytes) and was discarded; raise maxMessageBytes to accept larger records',
    );
});

test('at the default 64 MiB limit a 256 MiB record holds at most about twice the limit, never the record', async () => {
    const found = await measure('oversized', String(64 * MiB), String(256 * MiB));
    assert.ok((found.peak as number) < 2 * 64 * MiB + 16 * MiB, `memory grew by ${found.peak} bytes`);
    assert.ok((found.after as number) < 4 * MiB, `memory stayed ${found.after} bytes above its start`);
    assert.equal(found.lastOutput, '{"jsonrpc":"2.0","id":"after","result":{}}');
});

for (const which of ['output', 'diagnostics'] as const) {
    test(`when the ${which} reader stops reading, input pauses with memory under 8 MiB, and nothing is dropped`, async () => {
        const found = await measure(`stalled-${which}`);
        const requests = found.requests as number;
        // 800 records of 128 KiB: 100 MiB would pile up unread without backpressure.
        assert.equal(requests, 800);
        assert.ok((found.pauses as number) >= 50, `input was paused ${found.pauses} times`);
        assert.ok(
            (found.firstPauseHandled as number) <= 16,
            `${found.firstPauseHandled} records were produced before the first pause`,
        );
        assert.ok(
            (found.maxGrownAtPause as number) < 8 * MiB,
            `memory grew by ${found.maxGrownAtPause} bytes`,
        );
        assert.equal(found.outputLines, requests + 1);
        assert.equal(found.diagnosticLines, which === 'output' ? 0 : requests);
    });
}
