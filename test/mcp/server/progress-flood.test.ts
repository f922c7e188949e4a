/**
 * A handler that reports progress in a tight loop: while a notification waits to be written, a
 * newer one replaces it, so the count on the wire and the memory stay bounded, other requests are
 * answered in their turn, and backpressure counts what waits.
 */
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {once} from 'node:events';
import {describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import type {HandlerContext, McpTool} from '../../../lib/mcp/stdio/index.js';
import {deferred, Gate} from '../../helpers/deferred.js';
import {afterInit, callWork, finish, progressLine, resultLine, workServer} from '../../helpers/progress.js';
import {text} from '../../helpers/session.js';

const run = promisify(execFile);
const probe = fileURLToPath(new URL('./fixtures/progress-flood.js', import.meta.url));
const MiB = 1024 * 1024;

describe('a flood of reports', () => {
    test('leaves one waiting notification, the latest, and a request sent meanwhile is answered with it', async () => {
        const flooded = deferred();
        const finishFlood = deferred<void>();
        const N = 100_000;
        let accepted = 0;
        const h = workServer(async (_args, {reportProgress}) => {
            for (let step = 1; step <= N; step += 1) {
                if (reportProgress({progress: step, total: N})) accepted += 1;
            }
            flooded.resolve();
            await finishFlood.promise;
            return text('done');
        });
        await h.initialize();
        h.output.hold = true;
        callWork(h, 1, {progressToken: 'flood'});
        await flooded.promise;
        assert.equal(accepted, N, 'every report was accepted');
        const read = once(h.input, 'data');
        h.send({jsonrpc: '2.0', id: 2, method: 'ping'});
        await read;
        assert.deepEqual(h.output.chunks.slice(1), [`${progressLine('flood', 1, N)}\n`]);
        h.output.hold = false;
        h.output.release();
        await h.output.waitForLines(4);
        finishFlood.resolve();
        await h.records(5);
        assert.deepEqual(h.output.chunks.slice(1), [
            `${progressLine('flood', 1, N)}\n`,
            `${progressLine('flood', N, N)}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`,
            `${resultLine(1, 'done')}\n`,
        ]);
        await finish(h);
    });

    test('of one million reports over a stalled reader grows memory by under 1 MiB and writes one notification', async () => {
        const {stdout} = await run(process.execPath, ['--expose-gc', probe, '1000000'], {maxBuffer: MiB});
        const found = JSON.parse(stdout) as {
            reports: number;
            accepted: number;
            grown: number;
            lines: string[];
        };
        assert.equal(found.accepted, 1_000_000);
        // Each of the million records is about 130 characters: kept, they would take over 100 MiB.
        assert.ok(found.grown < MiB, `memory grew by ${found.grown} bytes`);
        assert.deepEqual(found.lines.slice(1), [
            progressLine('f', 1_000_000, 1_000_000, 'Step 1000000 of 1000000'),
            resultLine('flood', 'flooded'),
        ]);
    });

    test('counts a waiting notification as output for backpressure: input pauses and then resumes', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler'], {outputHighWaterMark: 1000});
        await h.initialize();
        callWork(h, 1, {progressToken: 'big'});
        await gate.started(1);
        const {reportProgress} = gate.call(0).context;
        h.output.hold = true;
        reportProgress({progress: 1});
        assert.equal(h.input.isPaused(), false, 'one small record in flight stays under the mark');
        const paused = once(h.input, 'pause');
        for (let step = 2; step <= 1000; step += 1) {
            reportProgress({progress: step, message: 'x'.repeat(2000)});
        }
        await paused;
        assert.equal(h.input.isPaused(), true);
        const resumed = once(h.input, 'resume');
        h.output.hold = false;
        h.output.release();
        await resumed;
        gate.call(0).done.resolve(text('done'));
        await h.records(4);
        assert.deepEqual(afterInit(h), [
            progressLine('big', 1),
            progressLine('big', 1000, undefined, 'x'.repeat(2000)),
            resultLine(1, 'done'),
        ]);
        await finish(h);
    });
});
