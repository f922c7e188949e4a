/**
 * Clients pinned to older protocol revisions, and a 2026-07-28 client's `server/discover` probe,
 * spoken on the raw wire to the spawned examples. The observatory opts in to every revision the
 * adapter knows; moon-pantry keeps the default, 2025-11-25 only.
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {closeAll, spawnRaw} from '../helpers/children.js';
import {OBSERVATORY_CATALOG, OBSERVATORY_INSTRUCTIONS, SKY_TONIGHT} from '../helpers/observatory.js';
import {MOON_PANTRY, OBSERVATORY} from '../helpers/paths.js';

after(closeAll);

const GUARD = {timeout: 60_000, concurrency: true};

const OBSERVATORY_INFO = {name: 'observatory', version: '1.0.0', title: 'Observatory'};
function initialize(id: number | string, protocolVersion: string): object {
    return {
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: {
            protocolVersion,
            capabilities: {},
            clientInfo: {name: `pinned-${protocolVersion}`, version: '1.0.0'},
        },
    };
}

/** The content block types the observatory's gallery gives a client of each revision. */
const GALLERY_TYPES: Record<string, string[]> = {
    '2024-11-05': ['text', 'image', 'resource'],
    '2025-03-26': ['text', 'image', 'audio', 'resource'],
    '2025-06-18': ['text', 'image', 'audio', 'resource_link', 'resource'],
};

describe('clients pinned to an older revision', GUARD, () => {
    for (const revision of ['2025-06-18', '2025-03-26', '2024-11-05']) {
        test(`a ${revision} client completes a session with a server that opts in to ${revision}`, async () => {
            const server = spawnRaw(OBSERVATORY);
            server.send(initialize(1, revision));
            assert.deepEqual(await server.next(), {
                jsonrpc: '2.0',
                id: 1,
                result: {
                    protocolVersion: revision,
                    capabilities: {tools: {}, resources: {}},
                    serverInfo: OBSERVATORY_INFO,
                    instructions: OBSERVATORY_INSTRUCTIONS,
                },
            });
            server.send({jsonrpc: '2.0', method: 'notifications/initialized'});

            server.send({jsonrpc: '2.0', id: 2, method: 'tools/list'});
            const list = (await server.next()) as {id: number; result: {tools: unknown[]}};
            assert.equal(list.id, 2);
            assert.deepEqual(list.result.tools[0], SKY_TONIGHT);

            server.send({jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'sky.gallery'}});
            const gallery = (await server.next()) as {id: number; result: {content: {type: string}[]}};
            assert.equal(gallery.id, 3);
            assert.deepEqual(
                gallery.result.content.map((block) => block.type),
                GALLERY_TYPES[revision],
            );

            server.send({
                jsonrpc: '2.0',
                id: 4,
                method: 'resources/read',
                params: {uri: 'observatory://catalog'},
            });
            assert.deepEqual(await server.next(), {
                jsonrpc: '2.0',
                id: 4,
                result: {
                    contents: [
                        {
                            uri: 'observatory://catalog',
                            mimeType: 'application/json',
                            text: JSON.stringify(OBSERVATORY_CATALOG),
                        },
                    ],
                },
            });

            assert.deepEqual(await server.end(), {code: 0, signal: null});
            assert.deepEqual(server.stdout.lines.length, 4);
            assert.deepEqual(server.stderr.lines, []);
        });

        test(`a ${revision} client is answered 2025-11-25 by a server that keeps the default`, async () => {
            const server = spawnRaw(MOON_PANTRY);
            server.send(initialize('init', revision));
            assert.deepEqual(await server.next(), {
                jsonrpc: '2.0',
                id: 'init',
                result: {
                    protocolVersion: '2025-11-25',
                    capabilities: {tools: {}, resources: {}},
                    serverInfo: {name: 'moon-pantry', version: '1.0.0'},
                    instructions: 'Ask moon.menu for the complete lunar dinner menu.',
                },
            });
            // A client that cannot speak 2025-11-25 disconnects; the server then ends cleanly.
            assert.deepEqual(await server.end(), {code: 0, signal: null});
            assert.deepEqual(server.stderr.lines, []);
        });
    }

    test('a client of a revision the server does not list is answered the first listed revision', async () => {
        const server = spawnRaw(OBSERVATORY);
        server.send(initialize(0, '2099-01-01'));
        const answer = (await server.next()) as {id: number; result: {protocolVersion: string}};
        assert.equal(answer.id, 0);
        assert.equal(answer.result.protocolVersion, '2025-11-25');
        assert.deepEqual(await server.end(), {code: 0, signal: null});
    });
});

const DISCOVER = {
    jsonrpc: '2.0',
    id: 'probe-1',
    method: 'server/discover',
    params: {
        _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': {name: 'modern-first', version: '1.0.0'},
            'io.modelcontextprotocol/clientCapabilities': {},
        },
    },
};

/** Sends initialize after the probe's answer and checks that the legacy session then works. */
async function initializeAfterProbe(server: ReturnType<typeof spawnRaw>): Promise<void> {
    server.send(initialize(0, '2025-11-25'));
    const answer = (await server.next()) as {id: number; result: {protocolVersion: string}};
    assert.equal(answer.id, 0);
    assert.equal(answer.result.protocolVersion, '2025-11-25');
    server.send({jsonrpc: '2.0', method: 'notifications/initialized'});
    server.send({jsonrpc: '2.0', id: 1, method: 'ping'});
    assert.deepEqual(await server.next(), {jsonrpc: '2.0', id: 1, result: {}});
    assert.deepEqual(await server.end(), {code: 0, signal: null});
    assert.deepEqual(server.stderr.lines, []);
}

describe('the server/discover probe of a 2026-07-28 client', GUARD, () => {
    test('moon-pantry (default revisions) answers the probe -32601 with its id at once, then serves initialize', async () => {
        const server = spawnRaw(MOON_PANTRY);
        server.send(DISCOVER);
        // Nothing else is sent: the answer must come without initialize and without a timeout.
        assert.deepEqual(await server.next(), {
            jsonrpc: '2.0',
            id: 'probe-1',
            error: {code: -32601, message: 'Method not found: "server/discover"'},
        });
        await initializeAfterProbe(server);
    });

    test('the observatory (every revision) answers the probe with its discovery result, then serves initialize', async () => {
        const server = spawnRaw(OBSERVATORY);
        server.send(DISCOVER);
        assert.deepEqual(await server.next(), {
            jsonrpc: '2.0',
            id: 'probe-1',
            result: {
                resultType: 'complete',
                _meta: {'io.modelcontextprotocol/serverInfo': OBSERVATORY_INFO},
                supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
                capabilities: {tools: {}, resources: {}},
                instructions: OBSERVATORY_INSTRUCTIONS,
                ttlMs: 300000,
                cacheScope: 'public',
            },
        });
        await initializeAfterProbe(server);
    });
});
