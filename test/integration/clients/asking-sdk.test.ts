/**
 * Real clients answering a tool's questions: the client 2.x with elicitation and sampling handlers
 * in the legacy era and pinned to 2026-07-28 (where it drives the `input_required` rounds itself),
 * and the SDK 1.x client in the legacy era.
 */
import assert from 'node:assert/strict';
import type {Readable} from 'node:stream';
import {finished} from 'node:stream/promises';
import {after, describe, test} from 'node:test';
import {Client} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {Client as ClientV1} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport as StdioV1} from '@modelcontextprotocol/sdk/client/stdio.js';
import {CreateMessageRequestSchema, ElicitRequestSchema} from '@modelcontextprotocol/sdk/types.js';
import {closeAll, LineReader, track} from '../../helpers/children.js';
import {fixturePath} from './support.js';

after(closeAll);

const GUARD = {timeout: 60_000};
const NEVER = 2 ** 31 - 1;
const CAPABILITIES = {capabilities: {elicitation: {}, sampling: {}}};
const CALL = {name: 'delete_file', arguments: {path: 'notes.txt'}};
const DELETED = {content: [{type: 'text', text: 'Deleted notes.txt. Gone for good.'}]};

const answers = {
    elicit: (confirm: boolean) => ({action: 'accept' as const, content: {confirm}}),
    sample: () => ({
        role: 'assistant' as const,
        content: {type: 'text' as const, text: 'Gone for good.'},
        model: 'test-model',
    }),
};

for (const modern of [false, true]) {
    describe(
        `the client 2.x answers a tool's questions in the ${modern ? '2026-07-28' : 'legacy'} era`,
        GUARD,
        () => {
            test('confirmation and sampling complete the call; the side effect happens once', async () => {
                const transport = new StdioClientTransport({
                    command: process.execPath,
                    args: [fixturePath('asking-server')],
                    stderr: 'pipe',
                });
                const stderr = new LineReader(transport.stderr as Readable);
                const client = track(
                    new Client(
                        {name: 'asking-v2', version: '2.0.0'},
                        modern
                            ? {
                                  ...CAPABILITIES,
                                  versionNegotiation: {mode: {pin: '2026-07-28'}, probe: {timeoutMs: NEVER}},
                              }
                            : CAPABILITIES,
                    ),
                );
                const asked: string[] = [];
                client.setRequestHandler('elicitation/create', async (request) => {
                    asked.push(`elicit ${request.params.message}`);
                    return answers.elicit(true);
                });
                client.setRequestHandler('sampling/createMessage', async () => {
                    asked.push('sample');
                    return answers.sample();
                });
                await client.connect(transport);
                assert.equal(client.getProtocolEra(), modern ? 'modern' : 'legacy');
                const result = await client.callTool(CALL);
                assert.deepEqual(modern ? {content: result.content} : result, DELETED);
                assert.deepEqual(asked, ['elicit Delete notes.txt?', 'sample']);
                await client.close();
                await finished(transport.stderr as Readable);
                assert.deepEqual(stderr.lines, ['deleted notes.txt']);
            });
        },
    );
}

describe("the SDK 1.x client answers a tool's questions (legacy era)", GUARD, () => {
    test('a declined confirmation keeps the file; an accepted one completes with sampling', async () => {
        const transport = new StdioV1({
            command: process.execPath,
            args: [fixturePath('asking-server')],
            stderr: 'pipe',
        });
        const stderr = new LineReader(transport.stderr as Readable);
        const client = track(new ClientV1({name: 'asking-v1', version: '1.0.0'}, CAPABILITIES));
        let confirm = false;
        client.setRequestHandler(ElicitRequestSchema, async () => answers.elicit(confirm));
        client.setRequestHandler(CreateMessageRequestSchema, async () => answers.sample());
        await client.connect(transport);
        assert.deepEqual(await client.callTool(CALL), {content: [{type: 'text', text: 'Kept notes.txt.'}]});
        confirm = true;
        assert.deepEqual(await client.callTool(CALL), DELETED);
        await client.close();
        await finished(transport.stderr as Readable);
        assert.deepEqual(stderr.lines, ['deleted notes.txt']);
    });
});
