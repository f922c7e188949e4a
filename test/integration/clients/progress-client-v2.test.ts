/**
 * Progress with the official `@modelcontextprotocol/client` 2.x, in the legacy era and pinned to
 * 2026-07-28: the client receives the same notifications, in order and before the response, and
 * `resetTimeoutOnProgress` keeps a call alive past its timeout. The tool's run length is its own
 * timer: 20 steps of 100 ms against a 1000 ms timeout.
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import type {Progress} from '@modelcontextprotocol/client';
import {Client, SdkError, SdkErrorCode} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {closeAll, track} from '../../helpers/children.js';
import {fixturePath, lastCallId, WireRecorder} from './support.js';

after(closeAll);

const GUARD = {timeout: 60_000};
const COUNT = 20;
const TIMEOUT_MS = 1000;
const STEPS = {name: 'steps', arguments: {count: COUNT, intervalMs: 100}};
/** The longest timer Node accepts: the discovery probe never falls back in a test run. */
const NEVER = 2 ** 31 - 1;

const EXPECTED: Progress[] = Array.from({length: COUNT}, (_, index) => ({
    progress: index + 1,
    total: COUNT,
    message: `Step ${index + 1} of ${COUNT}`,
}));

async function connect(modern: boolean): Promise<{client: Client; wire: WireRecorder; errors: Error[]}> {
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [fixturePath('progress-server')],
    });
    const wire = new WireRecorder(transport);
    const client = track(
        new Client(
            {name: 'progress-client-v2', version: '2.0.0'},
            modern ? {versionNegotiation: {mode: {pin: '2026-07-28'}, probe: {timeoutMs: NEVER}}} : {},
        ),
    );
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    return {client, wire, errors};
}

for (const modern of [false, true]) {
    describe(`the client 2.x and progress in the ${modern ? '2026-07-28' : 'legacy'} era`, GUARD, () => {
        test('receives every notification before the result, and progress keeps the call alive', async () => {
            const {client, wire, errors} = await connect(modern);
            assert.equal(client.getProtocolEra(), modern ? 'modern' : 'legacy');
            const seen: Progress[] = [];
            let released: Promise<unknown> | undefined;
            const result = await client.callTool(
                {...STEPS, arguments: {...STEPS.arguments, hold: true}},
                {
                    timeout: TIMEOUT_MS,
                    resetTimeoutOnProgress: true,
                    onprogress: (progress) => {
                        seen.push(progress);
                        // The last notification has been handled: only now may the response be written.
                        if (progress.progress === COUNT) {
                            released = client.callTool({name: 'release', arguments: {}});
                        }
                    },
                },
            );
            assert.deepEqual(((await released) as {content: unknown}).content, [
                {type: 'text', text: 'Released 1.'},
            ]);
            assert.deepEqual(result.content, [{type: 'text', text: `Ran ${COUNT} steps.`}]);
            assert.deepEqual(seen, EXPECTED);
            const id = lastCallId(wire, 'steps');
            const meta = (
                wire.sent.find((message) => message.id === id) as {params: {_meta: Record<string, unknown>}}
            ).params._meta;
            assert.equal(meta.progressToken, id);
            if (modern) assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
            const related = wire.received.filter(
                (message) =>
                    message.id === id || (message.params as {progressToken?: unknown})?.progressToken === id,
            );
            assert.deepEqual(
                related.map((message) => (message.method === undefined ? 'response' : message.method)),
                [...Array(COUNT).fill('notifications/progress'), 'response'],
            );
            assert.deepEqual(errors, []);
            await client.close();
        });

        test('without onprogress the same call times out', async () => {
            const {client} = await connect(modern);
            await assert.rejects(
                client.callTool(STEPS, {timeout: TIMEOUT_MS, resetTimeoutOnProgress: true}),
                (error: unknown) => error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout,
            );
            await client.close();
        });
    });
}
