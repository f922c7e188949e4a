import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer, MCP_PROTOCOL_VERSIONS} from '../../../lib/mcp/stdio/index.js';

const P = 'createMcpStdioServer: ';
const SERVER_INFO = {name: 'settings-test', version: '1.0.0'};

function rejects(options: unknown, name: string, message: string): void {
    assert.throws(() => createMcpStdioServer(options as McpStdioServerOptions), {name, message});
}

test('knows 2026-07-28 as the newest revision it serves', () => {
    assert.deepEqual(MCP_PROTOCOL_VERSIONS, [
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
    ]);
});

test('accepts an outputSchema of any shape only when 2026-07-28 is the only revision', () => {
    const arrayOut = {
        name: 'list',
        inputSchema: {type: 'object' as const},
        outputSchema: {type: 'array', items: {type: 'number'}},
        handler: () => ({content: []}),
    };
    createMcpStdioServer({serverInfo: SERVER_INFO, protocolVersions: ['2026-07-28'], tools: [arrayOut]});
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: ['2026-07-28', '2025-11-25'], tools: [arrayOut]},
        'TypeError',
        `${P}tools[0] ("list") needs "outputSchema" to be a JSON Schema object with "type": "object", got an object`,
    );
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: ['2026-07-28'], tools: [{...arrayOut, outputSchema: []}]},
        'TypeError',
        `${P}tools[0] ("list") needs "outputSchema" to be a JSON Schema object, got an array`,
    );
    rejects(
        {serverInfo: SERVER_INFO, protocolVersions: ['2026-07-28'], tools: [{...arrayOut, inputSchema: {}}]},
        'TypeError',
        `${P}tools[0] ("list") needs "inputSchema" to be a JSON Schema object with "type": "object", got an object`,
    );
});

test('validates listCache and readCache by name', () => {
    const base = {serverInfo: SERVER_INFO};
    rejects(
        {...base, listCache: 5},
        'TypeError',
        `${P}listCache must be an object {ttlMs, cacheScope}, got number 5`,
    );
    rejects(
        {...base, readCache: {ttl: 5}},
        'TypeError',
        `${P}readCache has the unknown key "ttl"; its keys are ttlMs and cacheScope`,
    );
    rejects(
        {...base, listCache: {ttlMs: -1}},
        'RangeError',
        `${P}listCache.ttlMs must be a whole number of milliseconds of at least 0, got number -1`,
    );
    rejects(
        {...base, listCache: {ttlMs: 1.5}},
        'RangeError',
        `${P}listCache.ttlMs must be a whole number of milliseconds of at least 0, got number 1.5`,
    );
    rejects(
        {...base, readCache: {cacheScope: 'shared'}},
        'RangeError',
        `${P}readCache.cacheScope must be "public" or "private", got the string "shared"`,
    );
    createMcpStdioServer({...base, listCache: {}, readCache: {ttlMs: 0, cacheScope: 'public'}});
});
