import assert from 'node:assert/strict';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runNode} from '../helpers/process.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const example = fileURLToPath(new URL('../../../examples/moon-pantry.mjs', import.meta.url));

const menu = {content: 'Moon soup\nExtra tentacles available.', message: {chef: 'Octopus', open: true}};

test('the moon-pantry example answers a scripted session and exits 0 when its stdin ends', async () => {
    const script = [
        {
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {
                protocolVersion: '2025-11-25',
                capabilities: {},
                clientInfo: {name: 'script', version: '1'},
            },
        },
        {jsonrpc: '2.0', method: 'notifications/initialized'},
        {jsonrpc: '2.0', id: 1, method: 'tools/list'},
        {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'moon.menu', arguments: {}}},
        {jsonrpc: '2.0', id: 3, method: 'resources/read', params: {uri: 'pantry://menu'}},
    ];
    const {code, signal, stdout, stderr} = await runNode([example], {
        cwd: root,
        input: script.map((message) => `${JSON.stringify(message)}\n`).join(''),
    });
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal(signal, null);
    assert.ok(stdout.endsWith('\n'));
    const records = stdout
        .slice(0, -1)
        .split('\n')
        .map((line) => JSON.parse(line) as {jsonrpc: string; id: number});
    assert.deepEqual(
        records.map((record) => [record.jsonrpc, record.id]),
        [
            ['2.0', 0],
            ['2.0', 1],
            ['2.0', 2],
            ['2.0', 3],
        ],
    );
    assert.deepEqual(records[0], {
        jsonrpc: '2.0',
        id: 0,
        result: {
            protocolVersion: '2025-11-25',
            capabilities: {tools: {}, resources: {}},
            serverInfo: {name: 'moon-pantry', version: '1.0.0'},
            instructions: 'Ask moon.menu for the complete lunar dinner menu.',
        },
    });
    assert.deepEqual(records[1], {
        jsonrpc: '2.0',
        id: 1,
        result: {
            tools: [
                {
                    name: 'moon.menu',
                    description: 'Read the complete lunar dinner menu.',
                    inputSchema: {type: 'object'},
                    annotations: {readOnlyHint: true},
                },
            ],
        },
    });
    assert.deepEqual(records[2], {
        jsonrpc: '2.0',
        id: 2,
        result: {content: [{type: 'text', text: JSON.stringify(menu)}], structuredContent: menu},
    });
    assert.deepEqual(records[3], {
        jsonrpc: '2.0',
        id: 3,
        result: {
            contents: [{uri: 'pantry://menu', mimeType: 'application/json', text: JSON.stringify(menu)}],
        },
    });
});
