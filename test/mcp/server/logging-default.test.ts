/**
 * A log level as the `logging` option: what a legacy client gets before it sends
 * `logging/setLevel` (bridges such as mcp-proxy answer that request themselves and never forward
 * it), replaced by the level the client sets; a 2026-07-28 request still gets only what it asks for.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {text, tool} from '../../helpers/session.js';
import {end, exchange, legacy, META, modernLine, resultLine, serve} from '../../helpers/wire.js';

const entries = [
    ['debug', 'd'],
    ['info', 'i'],
    ['error', 'e'],
];

function logServer(logging: unknown) {
    return serve({
        logging: logging as never,
        tools: [
            tool('log', (args, context) => {
                const sent = (args.entries as [string, unknown][]).map(([level, data]) =>
                    context.log(level as never, data),
                );
                return text(JSON.stringify(sent));
            }),
        ],
    });
}

const logLine = (level: string, data: unknown) =>
    JSON.stringify({jsonrpc: '2.0', method: 'notifications/message', params: {level, data}});

const call = (id: number, meta?: object) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {name: 'log', arguments: {entries}, ...(meta === undefined ? {} : {_meta: meta})},
});

describe('logging: a level', () => {
    test('legacy: messages at or above it before logging/setLevel, then the level the client set', async () => {
        const h = logServer('info');
        assert.equal(
            JSON.stringify(await h.initialize()),
            '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},' +
                '"serverInfo":{"name":"surface-test","version":"1.0.0"}}}',
        );
        assert.deepEqual(await exchange(h, call(1), 3), [
            logLine('info', 'i'),
            logLine('error', 'e'),
            resultLine(1, text('[false,true,true]')),
        ]);
        assert.equal(await legacy(h, 2, 'logging/setLevel', {level: 'debug'}), resultLine(2, {}));
        assert.deepEqual(await exchange(h, call(3), 4), [
            logLine('debug', 'd'),
            logLine('info', 'i'),
            logLine('error', 'e'),
            resultLine(3, text('[true,true,true]')),
        ]);
        assert.equal(await legacy(h, 4, 'logging/setLevel', {level: 'emergency'}), resultLine(4, {}));
        assert.deepEqual(await exchange(h, call(5)), [resultLine(5, text('[false,false,false]'))]);
        await end(h);
    });

    test('2026-07-28: nothing without the request’s own level, whatever the option says', async () => {
        const h = logServer('debug');
        assert.deepEqual(await exchange(h, call(1, META)), [modernLine(1, text('[false,false,false]'))]);
        assert.deepEqual(
            await exchange(h, call(2, {...META, 'io.modelcontextprotocol/logLevel': 'error'}), 2),
            [logLine('error', 'e'), modernLine(2, text('[false,false,true]'))],
        );
        await end(h);
    });

    test('anything but a boolean or one of the eight levels is refused at construction', () => {
        const create = (logging: unknown) => () =>
            createMcpStdioServer({serverInfo: {name: 'x', version: '1'}, logging: logging as never});
        assert.throws(create('verbose'), {
            name: 'RangeError',
            message:
                'createMcpStdioServer: logging "verbose" is not a log level; the levels are debug, info, notice, ' +
                'warning, error, critical, alert, emergency',
        });
        assert.throws(create(1), {
            name: 'TypeError',
            message: 'createMcpStdioServer: logging must be a boolean or a log level string, got number 1',
        });
    });
});
