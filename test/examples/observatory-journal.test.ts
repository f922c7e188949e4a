/**
 * The observatory's destructive tool, `journal.delete`, on the raw wire: it asks the user to
 * confirm before it deletes, deletes nothing when declined, cancelled or not askable, and under
 * 2026-07-28 (where the handler runs again with the recorded answer) deletes exactly once.
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {closeAll, type JsonRecord, spawnRaw} from '../helpers/children.js';
import {OBSERVATORY} from '../helpers/paths.js';

after(closeAll);

const GUARD = {timeout: 60_000, concurrency: true};
const DELETE = {name: 'journal.delete', arguments: {date: '2026-11-28'}};
const QUESTION = {
    method: 'elicitation/create',
    params: {
        message:
            'Delete the journal entry of 2026-11-28 ("Jupiter: the Great Red Spot crossed the meridian at 23:10.")? ' +
            'This cannot be undone.',
        requestedSchema: {
            type: 'object',
            properties: {confirm: {type: 'boolean', title: 'Delete the entry', default: false}},
            required: ['confirm'],
        },
    },
};
const BOTH_KEPT = 'The journal keeps 2 entries: 2026-11-28, 2026-11-29.';
const DELETED = 'Deleted the entry of 2026-11-28. The journal keeps 1 entry: 2026-11-29.';

function text(record: JsonRecord): string {
    const result = record.result as {content: {text: string}[]};
    return result.content.map((block) => block.text).join('\n');
}

/** A legacy session whose client declared `capabilities`. */
async function legacySession(capabilities: object): Promise<ReturnType<typeof spawnRaw>> {
    const server = spawnRaw(OBSERVATORY);
    server.send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {protocolVersion: '2025-11-25', capabilities, clientInfo: {name: 'journal', version: '1'}},
    });
    assert.equal((await server.next()).id, 0);
    server.send({jsonrpc: '2.0', method: 'notifications/initialized'});
    return server;
}

describe('journal.delete asks before it deletes', GUARD, () => {
    test('2025-11-25: the question goes out first; declined keeps the entry, accepted deletes it', async () => {
        const server = await legacySession({elicitation: {form: {}}});
        server.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: DELETE});
        const first = await server.next();
        assert.deepEqual({method: first.method, params: first.params}, QUESTION);
        server.send({jsonrpc: '2.0', id: first.id, result: {action: 'decline'}});
        const declined = await server.next();
        assert.equal(declined.id, 1);
        assert.equal(text(declined), `Nothing was deleted: the user chose "decline". ${BOTH_KEPT}`);

        server.send({jsonrpc: '2.0', id: 2, method: 'tools/call', params: DELETE});
        const second = await server.next();
        server.send({jsonrpc: '2.0', id: second.id, result: {action: 'accept', content: {confirm: false}}});
        assert.equal(
            text(await server.next()),
            `Nothing was deleted: the user did not tick confirm. ${BOTH_KEPT}`,
        );

        server.send({jsonrpc: '2.0', id: 3, method: 'tools/call', params: DELETE});
        const third = await server.next();
        server.send({jsonrpc: '2.0', id: third.id, result: {action: 'accept', content: {confirm: true}}});
        assert.equal(text(await server.next()), DELETED);

        server.send({jsonrpc: '2.0', id: 4, method: 'tools/call', params: DELETE});
        const gone = await server.next();
        assert.equal((gone.result as {isError?: boolean}).isError, true);
        assert.equal(
            text(gone),
            'The journal has no entry for "2026-11-28". The journal keeps 1 entry: 2026-11-29.',
        );
        assert.deepEqual(await server.end(), {code: 0, signal: null});
    });

    test('a client without elicitation is told nothing was deleted, and nothing was', async () => {
        const server = await legacySession({});
        server.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: DELETE});
        const refused = await server.next();
        assert.equal(refused.id, 1);
        assert.equal((refused.result as {isError?: boolean}).isError, true);
        assert.equal(
            text(refused),
            `Nothing was deleted: this client cannot show a confirmation form. ${BOTH_KEPT}`,
        );
        assert.deepEqual(await server.end(), {code: 0, signal: null});
    });

    test('2026-07-28: the first round only asks; the retry with the answer deletes once', async () => {
        const server = spawnRaw(OBSERVATORY);
        const meta = {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': {name: 'journal', version: '1'},
            'io.modelcontextprotocol/clientCapabilities': {elicitation: {form: {}}},
        };
        const call = (id: number, extra: object = {}) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {...DELETE, _meta: meta, ...extra},
        });
        server.send(call(1));
        const asked = (await server.next()).result as JsonRecord;
        assert.equal(asked.resultType, 'input_required');
        assert.deepEqual(asked.inputRequests, {'elicitation-1': QUESTION});
        const requestState = asked.requestState;

        server.send(call(2, {requestState, inputResponses: {'elicitation-1': {action: 'cancel'}}}));
        assert.equal(text(await server.next()), `Nothing was deleted: the user chose "cancel". ${BOTH_KEPT}`);

        const yes = {'elicitation-1': {action: 'accept', content: {confirm: true}}};
        server.send(call(3, {requestState, inputResponses: yes}));
        assert.equal(text(await server.next()), DELETED);
        assert.deepEqual(await server.end(), {code: 0, signal: null});
        assert.deepEqual(server.stderr.lines, []);
    });
});
