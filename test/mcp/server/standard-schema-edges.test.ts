/**
 * Standard Schema tools on the wire at their edges: asynchronous and failing validators,
 * cancellation while validating, and the checks of `structuredContent`.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import * as z from 'zod';
import type {StandardResult} from '../../../lib/mcp/stdio/index.js';
import {defineTool} from '../../../lib/mcp/stdio/index.js';
import type {Deferred} from '../../helpers/deferred.js';
import {deferred} from '../../helpers/deferred.js';
import {answer, call, end, internalError, PREFIX, schema, serve} from '../../helpers/schema-tools.js';
import {text} from '../../helpers/session.js';

describe('asynchronous and failing validators', () => {
    test('an async validate is awaited: its value reaches the handler, its issues answer isError', async () => {
        const pending: Deferred<StandardResult<unknown>>[] = [];
        const seen: unknown[] = [];
        const h = serve([
            {
                name: 'later',
                inputSchema: schema(() => {
                    const next = deferred<StandardResult<unknown>>();
                    pending.push(next);
                    return next.promise;
                }),
                handler: (args) => {
                    seen.push(args);
                    return text('done');
                },
            },
        ]);
        await h.initialize();
        const first = answer(h, call(1, 'later', {raw: true}));
        await h.output.waitForLines(1);
        pending[0]?.resolve({value: {parsed: 1}});
        assert.equal(
            await first,
            '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}',
        );
        assert.deepEqual(seen, [{parsed: 1}]);
        const second = answer(h, call(2, 'later'));
        pending[1]?.resolve({issues: [{message: 'not now', path: [{key: 'when'}, 0]}, {message: 'whole'}]});
        assert.equal(
            await second,
            '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":' +
                '"Invalid arguments for tool \\"later\\":\\n- when[0]: not now\\n- (root): whole"}],"isError":true}}',
        );
        assert.equal(seen.length, 1);
        await end(h);
    });

    test('zod with an async refinement validates asynchronously', async () => {
        const tool = defineTool({
            name: 'async-zod',
            inputSchema: z
                .object({n: z.number()})
                .refine(async ({n}) => n > 0, {message: 'n must be positive', path: ['n']}),
            handler: ({n}) => text(`n=${n}`),
        });
        const h = serve([tool]);
        await h.initialize();
        assert.equal(
            await answer(h, call(1, 'async-zod', {n: -1})),
            '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":' +
                '"Invalid arguments for tool \\"async-zod\\":\\n- n: n must be positive"}],"isError":true}}',
        );
        assert.equal(
            await answer(h, call(2, 'async-zod', {n: 2})),
            '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"n=2"}]}}',
        );
        await end(h);
    });

    test('a request cancelled while validating is never answered and its handler never runs', async () => {
        const validating = deferred<StandardResult<unknown>>();
        let called = false;
        const h = serve([
            {
                name: 'slowly',
                inputSchema: schema(() => validating.promise),
                handler: () => {
                    called = true;
                    return text('ran');
                },
            },
        ]);
        await h.initialize();
        h.send(call(1, 'slowly'));
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1, reason: 'stop'}});
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 'p1', method: 'ping'}),
            '{"jsonrpc":"2.0","id":"p1","result":{}}',
        );
        validating.resolve({value: {}});
        assert.equal(
            await answer(h, {jsonrpc: '2.0', id: 'p2', method: 'ping'}),
            '{"jsonrpc":"2.0","id":"p2","result":{}}',
        );
        assert.equal(called, false);
        assert.equal(h.errors.text, '');
        await end(h);
    });

    test("an input validate that throws or rejects is the server's own fault: -32603 and a diagnostic", async () => {
        const h = serve([
            {
                name: 'throws',
                inputSchema: schema(() => {
                    throw 'validator broke';
                }),
                handler: () => text(''),
            },
            {
                name: 'rejects',
                inputSchema: schema(() => Promise.reject('validator gave up')),
                handler: () => text(''),
            },
        ]);
        await h.initialize();
        assert.equal(
            await answer(h, call(1, 'throws')),
            internalError(1, 'throws', 'the validate of its inputSchema threw'),
        );
        assert.equal(
            await answer(h, call(2, 'rejects')),
            internalError(2, 'rejects', 'the validate of its inputSchema rejected'),
        );
        assert.equal(
            h.errors.text,
            `${PREFIX}The tools/call of tool "throws" (request id 1) failed: the validate of its inputSchema threw; answered -32603\n'validator broke'\n` +
                `${PREFIX}The tools/call of tool "rejects" (request id 2) failed: the validate of its inputSchema rejected; answered -32603\n'validator gave up'\n`,
        );
        await end(h);
    });
});

describe('output checks', () => {
    const output = z.object({total: z.number().default(0)});

    test('the validated value is sent (defaults applied); an error result is not checked', async () => {
        const h = serve([
            {
                name: 'sync',
                inputSchema: {type: 'object'},
                outputSchema: output,
                handler: (args) => ({...text('s'), structuredContent: args}),
            },
            {
                name: 'async',
                inputSchema: {type: 'object'},
                outputSchema: output,
                handler: async () => ({...text('a'), structuredContent: {total: 3}}),
            },
            {
                name: 'failing',
                inputSchema: {type: 'object'},
                outputSchema: output,
                handler: () => ({...text('no'), isError: true, structuredContent: 'n/a'}),
            },
        ]);
        await h.initialize();
        assert.equal(
            await answer(h, call(1, 'sync', {extra: 1})),
            '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"s"}],"structuredContent":{"total":0}}}',
        );
        assert.equal(
            await answer(h, call(2, 'async')),
            '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"a"}],"structuredContent":{"total":3}}}',
        );
        assert.equal(
            await answer(h, call(3, 'failing')),
            '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"no"}],"isError":true,"structuredContent":"n/a"}}',
        );
        assert.equal(h.errors.text, '');
        await end(h);
    });

    test('a missing structuredContent, a throwing or rejecting output validate, a malformed result: -32603', async () => {
        const h = serve([
            {name: 'bare', inputSchema: {type: 'object'}, outputSchema: output, handler: () => text('bare')},
            {
                name: 'throws',
                inputSchema: {type: 'object'},
                outputSchema: schema(() => {
                    throw 'out broke';
                }),
                handler: () => ({...text(''), structuredContent: {}}),
            },
            {
                name: 'rejects',
                inputSchema: {type: 'object'},
                outputSchema: schema(() => Promise.reject('out gave up')),
                handler: () => ({...text(''), structuredContent: {}}),
            },
            {
                name: 'malformed',
                inputSchema: {type: 'object'},
                outputSchema: output,
                handler: () => 'text' as never,
            },
            {
                name: 'later',
                inputSchema: {type: 'object'},
                outputSchema: schema(async () => ({issues: [{message: 'late', path: ['a']}]})),
                handler: () => ({...text(''), structuredContent: {}}),
            },
        ]);
        await h.initialize();
        assert.equal(
            await answer(h, call(1, 'bare')),
            internalError(1, 'bare', 'its result has no structuredContent, which its outputSchema requires'),
        );
        assert.equal(
            await answer(h, call(2, 'throws')),
            internalError(2, 'throws', 'the validate of its outputSchema threw'),
        );
        assert.equal(
            await answer(h, call(3, 'rejects')),
            internalError(3, 'rejects', 'the validate of its outputSchema rejected'),
        );
        assert.equal(
            await answer(h, call(4, 'malformed')),
            internalError(
                4,
                'malformed',
                'the handler returned an invalid CallToolResult: it must be an object with a \\"content\\" array',
            ),
        );
        assert.equal(
            await answer(h, call(5, 'later')),
            internalError(5, 'later', 'its structuredContent does not match its outputSchema'),
        );
        assert.equal(
            h.errors.text,
            `${PREFIX}The tools/call of tool "bare" (request id 1) failed: its result has no structuredContent, which its outputSchema requires; answered -32603\n` +
                "{ content: [ { type: 'text', text: 'bare' } ] }\n" +
                `${PREFIX}The tools/call of tool "throws" (request id 2) failed: the validate of its outputSchema threw; answered -32603\n'out broke'\n` +
                `${PREFIX}The tools/call of tool "rejects" (request id 3) failed: the validate of its outputSchema rejected; answered -32603\n'out gave up'\n` +
                `${PREFIX}The tools/call of tool "malformed" (request id 4) failed: the handler returned an invalid CallToolResult: it must be an object with a "content" array; answered -32603\n'text'\n` +
                `${PREFIX}The tools/call of tool "later" (request id 5) failed: its structuredContent does not match its outputSchema; answered -32603\n[ { path: 'a', message: 'late' } ]\n`,
        );
        await end(h);
    });

    test('2026-07-28 alone: a non-object output schema is advertised and checked', async () => {
        const h = serve(
            [
                defineTool({
                    name: 'count',
                    inputSchema: z.object({n: z.number()}),
                    outputSchema: z.number(),
                    handler: ({n}) => ({...text(String(n)), structuredContent: n}),
                }),
            ],
            {protocolVersions: ['2026-07-28']},
        );
        const meta = {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
        };
        const listed = JSON.parse(
            await answer(h, {jsonrpc: '2.0', id: 1, method: 'tools/list', params: {_meta: meta}}),
        );
        assert.deepEqual(listed.result.tools[0].outputSchema, {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'number',
        });
        const counted = JSON.parse(
            await answer(h, {
                jsonrpc: '2.0',
                id: 2,
                method: 'tools/call',
                params: {name: 'count', arguments: {n: 5}, _meta: meta},
            }),
        );
        assert.equal(counted.result.structuredContent, 5);
        await end(h);
    });

    test('a handler that throws after validation is answered as an isError result, as any tool', async () => {
        const h = serve([
            defineTool({
                name: 'boom',
                inputSchema: z.object({}),
                handler: () => {
                    throw new Error('it went boom');
                },
            }),
        ]);
        await h.initialize();
        assert.equal(
            await answer(h, call(1, 'boom')),
            '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"it went boom"}],"isError":true}}',
        );
        await end(h);
    });
});
