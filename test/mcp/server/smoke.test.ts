import assert from 'node:assert/strict';
import {test} from 'node:test';
import {harness} from '../../helpers/streams.js';

test('answers ping before initialize', async () => {
    const h = harness({serverInfo: {name: 's', version: '1'}});
    h.send({jsonrpc: '2.0', id: 0, method: 'ping'});
    assert.deepEqual(await h.records(1), [{jsonrpc: '2.0', id: 0, result: {}}]);
    h.input.push(null);
    await h.server.closed;
});
