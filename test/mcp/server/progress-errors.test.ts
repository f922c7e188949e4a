/**
 * Misuse of `context.reportProgress` is a programmer error thrown at the call site, with or without
 * a progress token, and never a malformed notification on the wire.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {HandlerContext} from '../../../lib/mcp/stdio/index.js';
import {afterInit, callWork, finish, progressLine, resultLine, workServer} from '../../helpers/progress.js';
import {text} from '../../helpers/session.js';

type Report = HandlerContext['reportProgress'];

const WHO = 'context.reportProgress()';

/** Each misuse, the error it throws, and its exact message. */
const MISUSES: [string, (report: Report) => unknown, string, string][] = [
    [
        'no argument',
        (report) => (report as () => boolean)(),
        'TypeError',
        `${WHO} needs an object such as {progress: 1, total: 10, message: 'Step 1 of 10'}, got undefined`,
    ],
    [
        'a number',
        (report) => report(5 as never),
        'TypeError',
        `${WHO} needs an object such as {progress: 1, total: 10, message: 'Step 1 of 10'}, got number 5`,
    ],
    [
        'null',
        (report) => report(null as never),
        'TypeError',
        `${WHO} needs an object such as {progress: 1, total: 10, message: 'Step 1 of 10'}, got null`,
    ],
    [
        'an array',
        (report) => report([1] as never),
        'TypeError',
        `${WHO} needs an object such as {progress: 1, total: 10, message: 'Step 1 of 10'}, got an array`,
    ],
    [
        'an unknown field',
        (report) => report({progress: 5, totl: 10} as never),
        'TypeError',
        `${WHO} got an unknown field "totl"; the fields are progress, total and message`,
    ],
    [
        'no progress',
        (report) => report({total: 10} as never),
        'TypeError',
        `${WHO}: progress must be a finite number, got undefined`,
    ],
    [
        'a string progress',
        (report) => report({progress: '6' as never}),
        'TypeError',
        `${WHO}: progress must be a finite number, got the string "6"`,
    ],
    [
        'a NaN progress',
        (report) => report({progress: Number.NaN}),
        'RangeError',
        `${WHO}: progress must be a finite number, got NaN`,
    ],
    [
        'an infinite progress',
        (report) => report({progress: Number.POSITIVE_INFINITY}),
        'RangeError',
        `${WHO}: progress must be a finite number, got Infinity`,
    ],
    [
        'an equal progress',
        (report) => report({progress: 5}),
        'RangeError',
        `${WHO}: progress 5 is not greater than 5, the last progress reported for tools/call of tool "work" (request id 1); progress must increase with each report`,
    ],
    [
        'a smaller progress',
        (report) => report({progress: -0.5}),
        'RangeError',
        `${WHO}: progress -0.5 is not greater than 5, the last progress reported for tools/call of tool "work" (request id 1); progress must increase with each report`,
    ],
    [
        'a string total',
        (report) => report({progress: 6, total: '10' as never}),
        'TypeError',
        `${WHO}: total, when given, must be a finite number, got the string "10"`,
    ],
    [
        'a null total',
        (report) => report({progress: 6, total: null as never}),
        'TypeError',
        `${WHO}: total, when given, must be a finite number, got null`,
    ],
    [
        'an infinite total',
        (report) => report({progress: 6, total: Number.NEGATIVE_INFINITY}),
        'RangeError',
        `${WHO}: total, when given, must be a finite number, got -Infinity`,
    ],
    [
        'a NaN total',
        (report) => report({progress: 6, total: Number.NaN}),
        'RangeError',
        `${WHO}: total, when given, must be a finite number, got NaN`,
    ],
    [
        'a number message',
        (report) => report({progress: 6, message: 42 as never}),
        'TypeError',
        `${WHO}: message, when given, must be a string, got number 42`,
    ],
];

/** Runs every misuse after one good report of 5, and records what each threw. */
function misuseAll(report: Report): {name: string; message: string}[] {
    report({progress: 5});
    return MISUSES.map(([, misuse]) => {
        try {
            misuse(report);
        } catch (error) {
            return {name: (error as Error).name, message: (error as Error).message};
        }
        return {name: 'nothing thrown', message: ''};
    });
}

const EXPECTED = MISUSES.map(([, , name, message]) => ({name, message}));

describe('reportProgress misuse', () => {
    for (const withToken of [true, false]) {
        test(`throws a TypeError or RangeError naming the values ${withToken ? 'with' : 'without'} a token, and sends only the valid reports`, async () => {
            let found: {name: string; message: string}[] = [];
            let after: boolean | undefined;
            // Async, so that the last report is written before the turn-end answer.
            const h = workServer(async (_args, {reportProgress}) => {
                found = misuseAll(reportProgress);
                // A rejected report leaves the last progress where it was.
                after = reportProgress({progress: 5.5, total: 10, message: 'still fine'});
                return text('done');
            });
            await h.initialize();
            callWork(h, 1, withToken ? {progressToken: 't'} : undefined);
            await h.records(withToken ? 4 : 2);
            for (const [index, [what]] of MISUSES.entries()) {
                assert.deepEqual(found[index], EXPECTED[index], what);
            }
            assert.equal(after, withToken);
            assert.deepEqual(
                afterInit(h),
                withToken
                    ? [progressLine('t', 5), progressLine('t', 5.5, 10, 'still fine'), resultLine(1, 'done')]
                    : [resultLine(1, 'done')],
            );
            assert.equal(h.errors.text, '');
            await finish(h);
        });
    }

    test('still throws after the request was answered, where a valid report returns false', async () => {
        let kept: Report | undefined;
        const h = workServer((_args, {reportProgress}) => {
            kept = reportProgress;
            reportProgress({progress: 5});
            return text('done');
        });
        await h.initialize();
        callWork(h, 1, {progressToken: 't'});
        await h.records(3);
        const report = kept as Report;
        assert.throws(() => report({progress: 4}), {
            name: 'RangeError',
            message: `${WHO}: progress 4 is not greater than 5, the last progress reported for tools/call of tool "work" (request id 1); progress must increase with each report`,
        });
        assert.equal(report({progress: 6}), false);
        await h.server.drain();
        assert.deepEqual(afterInit(h), [progressLine('t', 5), resultLine(1, 'done')]);
        await finish(h);
    });

    test('a handler that lets the error escape gets the usual isError result with its message', async () => {
        const h = workServer((_args, {reportProgress}) => {
            reportProgress({progress: Number.NaN});
            return text('unreachable');
        });
        await h.initialize();
        callWork(h, 1, {progressToken: 't'});
        await h.records(2);
        assert.deepEqual(h.output.records()[1], {
            jsonrpc: '2.0',
            id: 1,
            result: {
                content: [{type: 'text', text: `${WHO}: progress must be a finite number, got NaN`}],
                isError: true,
            },
        });
        await finish(h);
    });
});
