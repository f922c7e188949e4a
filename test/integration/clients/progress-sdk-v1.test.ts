/**
 * Progress with the official SDK 1.x client (`@modelcontextprotocol/sdk`): with `onprogress` and
 * `resetTimeoutOnProgress: true`, a call that runs longer than its request timeout succeeds
 * because each notification restarts the timer; without either option the same call times out.
 * The tool's run length is its own timer: 20 steps of 100 ms against a 1000 ms timeout.
 */
import assert from 'node:assert/strict';
import type {Readable} from 'node:stream';
import {after, before, describe, test} from 'node:test';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {Progress} from '@modelcontextprotocol/sdk/types.js';
import {McpError} from '@modelcontextprotocol/sdk/types.js';
import {closeAll, LineReader, track} from '../../helpers/children.js';
import {fixturePath, lastCallId, WireRecorder} from './support.js';

after(closeAll);

const GUARD = {timeout: 60_000};
const COUNT = 20;
const STEP_MS = 100;
const TIMEOUT_MS = 1000;
const STEPS = {name: 'steps', arguments: {count: COUNT, intervalMs: STEP_MS}};

/** What the client's `onprogress` receives for step 1 to `upTo`. */
function expectedProgress(upTo: number): Progress[] {
    return Array.from({length: upTo}, (_, index) => ({
        progress: index + 1,
        total: COUNT,
        message: `Step ${index + 1} of ${COUNT}`,
    }));
}

describe('the SDK 1.x client and progress', GUARD, () => {
    let client: Client;
    let wire: WireRecorder;
    let stderr: LineReader;
    const clientErrors: Error[] = [];

    before(async () => {
        const transport = new StdioClientTransport({
            command: process.execPath,
            args: [fixturePath('progress-server')],
            stderr: 'pipe',
        });
        stderr = new LineReader(transport.stderr as Readable);
        wire = new WireRecorder(transport);
        client = track(new Client({name: 'progress-sdk-v1', version: '1.0.0'}));
        client.onerror = (error) => clientErrors.push(error);
        await client.connect(transport);
    });

    after(async () => {
        await client.close();
    });

    test('a call longer than its timeout succeeds with onprogress and resetTimeoutOnProgress', async () => {
        const seen: Progress[] = [];
        let released: Promise<unknown> | undefined;
        const result = await client.callTool(
            {...STEPS, arguments: {...STEPS.arguments, hold: true}},
            undefined,
            {
                timeout: TIMEOUT_MS,
                resetTimeoutOnProgress: true,
                onprogress: (progress) => {
                    seen.push(progress);
                    // The last notification has been handled: only now may the response be written.
                    if (progress.progress === COUNT)
                        released = client.callTool({name: 'release', arguments: {}});
                },
            },
        );
        assert.deepEqual(await released, {content: [{type: 'text', text: 'Released 1.'}]});
        assert.deepEqual(result, {content: [{type: 'text', text: `Ran ${COUNT} steps.`}]});
        assert.deepEqual(seen, expectedProgress(COUNT));
        const id = lastCallId(wire, 'steps');
        const request = wire.sent.find((message) => message.id === id) as {params: {_meta: unknown}};
        assert.deepEqual(request.params._meta, {progressToken: id});
        const answers = wire.received.filter(
            (message) =>
                message.id === id || (message.params as {progressToken?: unknown})?.progressToken === id,
        );
        assert.equal(answers.length, COUNT + 1);
        assert.equal(answers.at(-1)?.id, id, 'the response comes after every notification');
        await stderr.waitFor((line) => line === `steps ${id} finished`);
        assert.deepEqual(clientErrors, []);
    });

    test('the same call with resetTimeoutOnProgress but no onprogress asks for no progress and times out', async () => {
        await assert.rejects(
            client.callTool(STEPS, undefined, {timeout: TIMEOUT_MS, resetTimeoutOnProgress: true}),
            (error: unknown) => {
                assert.ok(error instanceof McpError);
                assert.equal(error.code, -32001);
                assert.equal(error.message, 'MCP error -32001: Request timed out');
                assert.deepEqual(error.data, {timeout: TIMEOUT_MS});
                return true;
            },
        );
        const id = lastCallId(wire, 'steps');
        const request = wire.sent.find((message) => message.id === id) as {params: {_meta?: unknown}};
        assert.equal(request.params._meta, undefined, 'without onprogress the SDK sends no token');
        const stopped = await stderr.waitFor((line) => line.startsWith(`steps ${id} stopped after `));
        assert.match(stopped, /^steps \d+ stopped after \d+ steps$/);
        assert.deepEqual(
            wire.received.filter(
                (message) =>
                    message.method === 'notifications/progress' &&
                    (message.params as {progressToken: unknown}).progressToken === id,
            ),
            [],
        );
    });

    test('the same call with onprogress but no resetTimeoutOnProgress gets progress and still times out', async () => {
        const seen: Progress[] = [];
        await assert.rejects(
            client.callTool(STEPS, undefined, {
                timeout: TIMEOUT_MS,
                onprogress: (progress) => seen.push(progress),
            }),
            (error: unknown) => error instanceof McpError && error.code === -32001,
        );
        const id = lastCallId(wire, 'steps');
        const stopped = await stderr.waitFor((line) => line.startsWith(`steps ${id} stopped after `));
        const steps = Number(/after (\d+) steps$/.exec(stopped)?.[1]);
        assert.ok(steps >= 1 && steps < COUNT, stopped);
        assert.deepEqual(seen, expectedProgress(seen.length));
        assert.ok(seen.length >= 1, 'progress arrived before the timeout');
        assert.equal(wire.answersTo(id).length, 0, 'a cancelled call is never answered');
    });
});
