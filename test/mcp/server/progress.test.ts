/**
 * `context.reportProgress` on the raw wire (revisions before 2026-07-28): tokens, exact bytes, the
 * order of notifications against their request's response, and resource handlers.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {HandlerContext, McpTool} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {
    afterInit,
    callWork,
    finish,
    lines,
    progressLine,
    resultLine,
    serverInfo,
    workServer,
} from '../../helpers/progress.js';
import {text, tool, whenSettled} from '../../helpers/session.js';
import {harness} from '../../helpers/streams.js';

describe('the progress token', () => {
    test('a string token gets notifications with exactly that token and the given fields, byte for byte', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        callWork(h, 1, {progressToken: 'job-1'});
        await gate.started(1);
        const {reportProgress} = gate.call(0).context;
        assert.equal(reportProgress({progress: 1, total: 3, message: 'Reading "input" ✓'}), true);
        assert.equal(reportProgress({progress: 2.5}), true);
        gate.call(0).done.resolve(text('done'));
        await h.records(4);
        assert.deepEqual(afterInit(h), [
            '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"job-1","progress":1,"total":3,"message":"Reading \\"input\\" ✓"}}',
            '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"job-1","progress":2.5}}',
            resultLine(1, 'done'),
        ]);
        await finish(h);
    });

    test('integer tokens, 0 and negative ones included, and the empty string are echoed exactly', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        const tokens = [0, 42, -7, 2 ** 53 - 1, ''];
        for (const [index, token] of tokens.entries()) callWork(h, index, {progressToken: token});
        await gate.started(tokens.length);
        for (const {context} of gate.calls)
            assert.equal(context.reportProgress({progress: 0, total: 0}), true);
        for (const {done} of gate.calls) done.resolve(text('done'));
        await h.records(1 + 2 * tokens.length);
        assert.deepEqual(afterInit(h), [
            ...tokens.map((token) => progressLine(token, 0, 0)),
            ...tokens.map((_token, index) => resultLine(index, 'done')),
        ]);
        assert.equal(
            afterInit(h)[0],
            '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":0,"progress":0,"total":0}}',
        );
        await finish(h);
    });

    test('without a token reportProgress returns false and sends nothing, with or without _meta', async () => {
        const returned: boolean[] = [];
        const h = workServer((_args, {reportProgress}) => {
            returned.push(reportProgress({progress: 1}), reportProgress({progress: 2, message: 'ignored'}));
            return text('done');
        });
        await h.initialize();
        callWork(h, 1);
        callWork(h, 2, {});
        callWork(h, 3, {other: 'x'});
        await h.records(4);
        assert.deepEqual(returned, [false, false, false, false, false, false]);
        assert.deepEqual(afterInit(h), [resultLine(1, 'done'), resultLine(2, 'done'), resultLine(3, 'done')]);
        assert.equal(h.errors.text, '');
        await finish(h);
    });

    test('a token that is neither a string nor an integer is ignored, and the first report says why', async () => {
        const returned: boolean[] = [];
        const h = workServer((_args, {reportProgress}) => {
            returned.push(reportProgress({progress: 1}), reportProgress({progress: 2}));
            return text('done');
        });
        await h.initialize();
        const tokens = [1.5, null, true, {id: 1}, 2 ** 53];
        for (const [index, token] of tokens.entries()) callWork(h, index, {progressToken: token});
        await h.records(1 + tokens.length);
        assert.deepEqual(returned, Array(2 * tokens.length).fill(false));
        assert.deepEqual(
            afterInit(h),
            tokens.map((_token, index) => resultLine(index, 'done')),
        );
        const described = ['number 1.5', 'null', 'boolean true', 'an object', 'number 9007199254740992'];
        assert.equal(
            h.errors.text,
            described
                .map(
                    (what, index) =>
                        `[arcane-os/mcp/stdio] Sent no progress for tools/call of tool "work" (request id ${index}): ` +
                        `its params._meta.progressToken is ${what}, and a progress token must be a string or an integer\n`,
                )
                .join(''),
        );
        await finish(h);
    });

    test('the token is read when the request arrives: a handler that changes params._meta changes nothing', async () => {
        const h = workServer((_args, {params, reportProgress}) => {
            (params._meta as {progressToken: unknown}).progressToken = 'forged';
            reportProgress({progress: 1});
            return text('done');
        });
        await h.initialize();
        callWork(h, 1, {progressToken: 'real'});
        await h.records(3);
        assert.deepEqual(afterInit(h), [progressLine('real', 1), resultLine(1, 'done')]);
        await finish(h);
    });
});

describe('notifications and the response', () => {
    test('an async handler’s notifications, each written as reported, all precede its response', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        callWork(h, 7, {progressToken: 7});
        await gate.started(1);
        const {reportProgress} = gate.call(0).context;
        for (let step = 1; step <= 3; step += 1) {
            assert.equal(reportProgress({progress: step, total: 3}), true);
            await h.output.waitForLines(1 + step);
        }
        gate.call(0).done.resolve(text('finished'));
        await h.records(5);
        assert.deepEqual(afterInit(h), [
            progressLine(7, 1, 3),
            progressLine(7, 2, 3),
            progressLine(7, 3, 3),
            resultLine(7, 'finished'),
        ]);
        await finish(h);
    });

    test('a notification still waiting when the request is answered is dropped; the response follows the rest', async () => {
        const returned: boolean[] = [];
        const h = workServer((_args, {reportProgress}) => {
            returned.push(reportProgress({progress: 1}), reportProgress({progress: 2}));
            return text('done');
        });
        await h.initialize();
        h.output.hold = true;
        callWork(h, 1, {progressToken: 'p'});
        await h.output.waitForLines(2);
        assert.deepEqual(h.output.chunks.slice(1), [`${progressLine('p', 1)}\n`]);
        h.output.hold = false;
        h.output.release();
        await h.output.waitForLines(3);
        await h.server.drain();
        assert.deepEqual(returned, [true, true]);
        assert.deepEqual(h.output.chunks.slice(1), [
            `${progressLine('p', 1)}\n`,
            `${resultLine(1, 'done')}\n`,
        ]);
        await finish(h);
    });

    test('reports after the handler settled, before and after its answer, send nothing and return false', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        callWork(h, 1, {progressToken: 'p'});
        await gate.started(1);
        const {reportProgress} = gate.call(0).context;
        assert.equal(reportProgress({progress: 1}), true);
        const settled = whenSettled(1);
        gate.call(0).done.resolve(text('done'));
        await settled;
        assert.equal(reportProgress({progress: 2}), false, 'settled, not yet answered');
        await h.records(3);
        assert.equal(reportProgress({progress: 3}), false, 'answered');
        await h.server.drain();
        assert.deepEqual(afterInit(h), [progressLine('p', 1), resultLine(1, 'done')]);
        await finish(h);
    });

    test('a synchronous handler’s reporter, kept and called after its answer, returns false', async () => {
        let kept: HandlerContext['reportProgress'] | undefined;
        const h = workServer((_args, context) => {
            kept = context.reportProgress;
            return text('done');
        });
        await h.initialize();
        callWork(h, 1, {progressToken: 'p'});
        await h.records(2);
        assert.equal(kept?.({progress: 1}), false);
        await h.server.drain();
        assert.deepEqual(afterInit(h), [resultLine(1, 'done')]);
        await finish(h);
    });

    test('notifications of concurrent requests carry their own tokens and precede only their own response', async () => {
        const gate = new Gate<HandlerContext>();
        const h = workServer(gate.handler as McpTool['handler']);
        await h.initialize();
        callWork(h, 'a', {progressToken: 'ta'});
        callWork(h, 'b', {progressToken: 'tb'});
        await gate.started(2);
        const [a, b] = [gate.call(0), gate.call(1)];
        a.context.reportProgress({progress: 1});
        await h.output.waitForLines(2);
        b.context.reportProgress({progress: 10});
        await h.output.waitForLines(3);
        b.done.resolve(text('b done'));
        await h.output.waitForLines(4);
        a.context.reportProgress({progress: 2});
        a.done.resolve(text('a done'));
        await h.records(6);
        assert.deepEqual(afterInit(h), [
            progressLine('ta', 1),
            progressLine('tb', 10),
            resultLine('b', 'b done'),
            progressLine('ta', 2),
            resultLine('a', 'a done'),
        ]);
        await finish(h);
    });
});

describe('resource handlers', () => {
    test('report progress the same way, before their result', async () => {
        const returned: boolean[] = [];
        const h = harness({
            serverInfo,
            tools: [tool('unused', () => text(''))],
            resources: [
                {
                    uri: 'report://annual',
                    name: 'annual',
                    handler: async ({uri}, {reportProgress, method}) => {
                        returned.push(reportProgress({progress: 1, total: 2, message: method}));
                        await Promise.resolve();
                        returned.push(reportProgress({progress: 2, total: 2}));
                        return {contents: [{uri, text: 'all of it'}]};
                    },
                },
            ],
        });
        await h.initialize();
        h.send({
            jsonrpc: '2.0',
            id: 5,
            method: 'resources/read',
            params: {uri: 'report://annual', _meta: {progressToken: 'read-5'}},
        });
        await h.records(4);
        assert.deepEqual(returned, [true, true]);
        assert.deepEqual(lines(h).slice(1), [
            progressLine('read-5', 1, 2, 'resources/read'),
            progressLine('read-5', 2, 2),
            '{"jsonrpc":"2.0","id":5,"result":{"contents":[{"uri":"report://annual","text":"all of it"}]}}',
        ]);
        await finish(h);
    });
});
