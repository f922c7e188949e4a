/**
 * Logging on the raw wire: `logging/setLevel` (legacy) and the per-request `_meta` level
 * (2026-07-28), `context.log` sending only what was asked for, ordered like progress, and nothing
 * written after a cancel.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {describe, test} from 'node:test';
import type {HandlerContext, McpStdioServerOptions, McpTool} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {text, tool, whenSettled} from '../../helpers/session.js';
import {
    end,
    errorLine,
    exchange,
    HEAD,
    LIST_TAIL,
    legacy,
    lines,
    META,
    modern,
    modernLine,
    resultLine,
    serve,
} from '../../helpers/wire.js';

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

function logLine(level: string, data: unknown, logger?: string): string {
    const params = logger === undefined ? {level, data} : {level, logger, data};
    return JSON.stringify({jsonrpc: '2.0', method: 'notifications/message', params});
}

/** A server whose tool `log` logs every `[level, data, logger?]` of its arguments and returns what was sent. */
function logServer(extra: Partial<McpStdioServerOptions> = {logging: true}) {
    return serve({
        tools: [
            tool('log', (args, context) => {
                const sent = (args.entries as [string, unknown, string?][]).map(([level, data, logger]) =>
                    context.log(level as never, data, logger),
                );
                return text(JSON.stringify(sent));
            }),
        ],
        ...extra,
    });
}

const entries = [
    ['debug', 'd'],
    ['info', {n: 1}, 'db'],
    ['warning', 'w'],
    ['emergency', ['e']],
];

describe('legacy: logging/setLevel', () => {
    test('nothing is sent before the client sets a level; then only at or above it, before the response', async () => {
        const h = logServer();
        assert.equal(
            JSON.stringify(await h.initialize()),
            '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},' +
                '"serverInfo":{"name":"surface-test","version":"1.0.0"}}}',
        );
        const call = (id: number) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {name: 'log', arguments: {entries}},
        });
        assert.deepEqual(await exchange(h, call(1)), [resultLine(1, text('[false,false,false,false]'))]);
        assert.equal(await legacy(h, 2, 'logging/setLevel', {level: 'info'}), resultLine(2, {}));
        assert.deepEqual(await exchange(h, call(3), 4), [
            logLine('info', {n: 1}, 'db'),
            logLine('warning', 'w'),
            logLine('emergency', ['e']),
            resultLine(3, text('[false,true,true,true]')),
        ]);
        assert.equal(await legacy(h, 4, 'logging/setLevel', {level: 'emergency'}), resultLine(4, {}));
        assert.deepEqual(await exchange(h, call(5), 2), [
            logLine('emergency', ['e']),
            resultLine(5, text('[false,false,false,true]')),
        ]);
        await end(h);
    });

    test('an unknown level is -32602', async () => {
        const h = logServer();
        await h.initialize();
        const message = (got: string) =>
            'logging/setLevel needs "params.level" to be one of debug, info, notice, warning, error, critical, alert, ' +
            `emergency, got ${got}`;
        assert.equal(
            await legacy(h, 1, 'logging/setLevel', {level: 'loud'}),
            errorLine(1, -32602, message('the string "loud"')),
        );
        assert.equal(await legacy(h, 2, 'logging/setLevel'), errorLine(2, -32602, message('undefined')));
        await end(h);
    });

    test('without the logging option: no capability, logging/setLevel is an unknown method, log sends nothing', async () => {
        const h = logServer({});
        await h.initialize();
        assert.equal(
            await legacy(h, 1, 'logging/setLevel', {level: 'debug'}),
            errorLine(1, -32601, 'Method not found: "logging/setLevel"'),
        );
        assert.deepEqual(
            await exchange(h, {
                jsonrpc: '2.0',
                id: 2,
                method: 'tools/call',
                params: {name: 'log', arguments: {entries}},
            }),
            [resultLine(2, text('[false,false,false,false]'))],
        );
        await end(h);
    });
});

describe('2026-07-28: the per-request level', () => {
    const call = (id: number, meta: object) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {name: 'log', arguments: {entries}, _meta: {...META, ...meta}},
    });

    test('only a request that names a level gets messages, at or above it', async () => {
        const h = logServer();
        assert.deepEqual(await exchange(h, call(1, {})), [modernLine(1, text('[false,false,false,false]'))]);
        assert.deepEqual(await exchange(h, call(2, {[LOG_LEVEL]: 'warning'}), 3), [
            logLine('warning', 'w'),
            logLine('emergency', ['e']),
            modernLine(2, text('[false,false,true,true]')),
        ]);
        assert.deepEqual(await exchange(h, call(3, {})), [modernLine(3, text('[false,false,false,false]'))]);
        assert.equal(
            await modern(h, 4, 'server/discover'),
            `{"jsonrpc":"2.0","id":4,"result":${HEAD}"supportedVersions":["2026-07-28","2025-11-25"],` +
                `"capabilities":{"tools":{},"logging":{}}${LIST_TAIL}}`,
        );
        await end(h);
    });

    test('an unknown level is -32602 for any request; logging/setLevel is not a modern method', async () => {
        const h = logServer();
        assert.deepEqual(await exchange(h, call(1, {[LOG_LEVEL]: 'verbose'})), [
            errorLine(
                1,
                -32602,
                'params._meta["io.modelcontextprotocol/logLevel"], when given, must be one of debug, info, notice, ' +
                    'warning, error, critical, alert, emergency, got the string "verbose"',
            ),
        ]);
        assert.equal(
            await modern(h, 2, 'logging/setLevel', {level: 'info'}),
            errorLine(2, -32601, 'Method not found: "logging/setLevel"'),
        );
        await end(h);
    });

    test('without the logging option the key is ignored, as before', async () => {
        const h = logServer({});
        assert.deepEqual(await exchange(h, call(1, {[LOG_LEVEL]: 'verbose'})), [
            modernLine(1, text('[false,false,false,false]')),
        ]);
        assert.deepEqual(await exchange(h, call(2, {[LOG_LEVEL]: 'debug'})), [
            modernLine(2, text('[false,false,false,false]')),
        ]);
        await end(h);
    });
});

describe('context.log', () => {
    test('checks its arguments at the call site whether or not the client asked', async () => {
        const errors: unknown[] = [];
        const h = serve({
            tools: [
                tool('bad', (_args, context) => {
                    for (const attempt of [
                        () => context.log('loud' as never, 'x'),
                        () => context.log(3 as never, 'x'),
                        () => context.log('info', 'x', 5 as never),
                    ]) {
                        try {
                            attempt();
                        } catch (error) {
                            errors.push(error);
                        }
                    }
                    return text('ok');
                }),
            ],
            logging: true,
        });
        await modern(h, 1, 'tools/call', {name: 'bad'});
        const described = errors.map((error) => `${(error as Error).name}: ${(error as Error).message}`);
        assert.deepEqual(described, [
            'RangeError: context.log(): "loud" is not a log level; the levels are debug, info, notice, warning, error, critical, alert, emergency',
            "TypeError: context.log() needs a level string such as 'info', got number 3",
            'TypeError: context.log(): logger, when given, must be a string, got number 5',
        ]);
        await end(h);
    });

    test('data that cannot be serialized throws only when the message would be sent', async () => {
        const thrown: string[] = [];
        const h = serve({
            logging: true,
            tools: [
                tool('data', (_args, context) => {
                    for (const data of [10n, undefined]) {
                        try {
                            thrown.push(String(context.log('error', data)));
                        } catch (error) {
                            thrown.push(`${(error as Error).name}: ${(error as Error).message}`);
                        }
                    }
                    return text('ok');
                }),
            ],
        });
        await modern(h, 1, 'tools/call', {name: 'data'});
        assert.deepEqual(thrown, ['false', 'false']);
        await modern(h, 2, 'tools/call', {name: 'data'}, {[LOG_LEVEL]: 'debug'});
        assert.deepEqual(thrown.slice(2), [
            'TypeError: context.log(): data cannot be serialized as JSON (Do not know how to serialize a BigInt)',
            'TypeError: context.log(): data must be a JSON value, got undefined',
        ]);
        await end(h);
    });

    test('nothing after the handler settled; messages waiting at the response are still written before it', async () => {
        const gate = new Gate<HandlerContext>();
        const h = serve({logging: true, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        h.send({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {name: 'slow', _meta: {...META, [LOG_LEVEL]: 'info'}},
        });
        await gate.started(1);
        const {log} = gate.call(0).context;
        h.output.hold = true;
        assert.equal(log('info', 'first'), true);
        assert.equal(log('info', 'second'), true);
        assert.equal(log('notice', 'third'), true);
        const answered = h.output.waitForLines(4);
        const settled = whenSettled(1);
        gate.call(0).done.resolve(text('done'));
        await settled;
        assert.equal(log('error', 'late'), false);
        h.output.hold = false;
        h.output.release();
        await answered;
        assert.deepEqual(lines(h), [
            logLine('info', 'first'),
            logLine('info', 'second'),
            logLine('notice', 'third'),
            modernLine(1, text('done')),
        ]);
        await end(h);
    });

    test('messages still waiting at a cancel are withdrawn, and nothing is sent after it', async () => {
        const gate = new Gate<HandlerContext>();
        const h = logServer({logging: true, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        await h.initialize();
        await legacy(h, 'lvl', 'logging/setLevel', {level: 'debug'});
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'slow'}});
        await gate.started(1);
        const {log, signal} = gate.call(0).context;
        h.output.hold = true;
        // The writer hands at most one record to the held stream; the later ones wait in its queue.
        assert.equal(log('info', 'one'), true);
        assert.equal(log('info', 'two'), true);
        assert.equal(log('info', 'three'), true);
        const aborted = once(signal, 'abort');
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1, reason: 'stop'}});
        await aborted;
        const atCancel = h.output.text;
        assert.equal(log('info', 'after'), false);
        h.output.hold = false;
        h.output.release();
        gate.call(0).done.reject(signal.reason);
        await h.server.drain();
        assert.equal(h.output.text, atCancel);
        assert.ok(!atCancel.includes('"three"'));
        await end(h);
    });

    test('a cancel withdraws only what still waits: messages already handed to the stream are written', async () => {
        const gate = new Gate<HandlerContext>();
        const h = serve({logging: true, tools: [tool('slow', gate.handler as McpTool['handler'])]});
        h.send({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {name: 'slow', _meta: {...META, [LOG_LEVEL]: 'debug'}},
        });
        await gate.started(1);
        const {log, signal} = gate.call(0).context;
        h.output.hold = true;
        log('info', 'a');
        log('info', 'b');
        // Let everything queued so far reach the (still held) stream, then queue one more behind it.
        while (!h.output.text.includes('"b"')) {
            const next = once(h.output.lines, 'line');
            h.output.release();
            await next;
        }
        log('info', 'c');
        const aborted = once(signal, 'abort');
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1}});
        await aborted;
        h.output.hold = false;
        h.output.release();
        gate.call(0).done.reject(signal.reason);
        await h.server.drain();
        assert.deepEqual(lines(h), [logLine('info', 'a'), logLine('info', 'b')]);
        await end(h);
    });

    test('prompt handlers and completers log too', async () => {
        const h = serve({
            logging: true,
            prompts: [
                {
                    name: 'p',
                    arguments: [{name: 'a'}],
                    complete: {a: (_value, context) => [String(context.log('info', 'completing'))]},
                    handler: (_args, context) => {
                        context.log('info', 'prompting', 'prompts');
                        return {messages: []};
                    },
                },
            ],
        });
        assert.deepEqual(
            await exchange(
                h,
                {
                    jsonrpc: '2.0',
                    id: 1,
                    method: 'prompts/get',
                    params: {name: 'p', _meta: {...META, [LOG_LEVEL]: 'info'}},
                },
                2,
            ),
            [logLine('info', 'prompting', 'prompts'), modernLine(1, {messages: []})],
        );
        assert.deepEqual(
            await exchange(h, {
                jsonrpc: '2.0',
                id: 2,
                method: 'completion/complete',
                params: {ref: {type: 'ref/prompt', name: 'p'}, argument: {name: 'a', value: ''}, _meta: META},
            }),
            [modernLine(2, {completion: {values: ['false']}})],
        );
        await end(h);
    });
});
