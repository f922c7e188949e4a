/** The structural Standard Schema helpers: recognising a schema, and formatting issue paths. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {type} from 'arktype';
import * as z from 'zod';
import {
    formatIssues,
    formatPath,
    isStandardSchema,
    validateThen,
} from '../../../lib/mcp/server/standard-schema.js';

test('isStandardSchema takes objects and functions carrying a version 1 ~standard with validate', () => {
    assert.equal(isStandardSchema(z.object({})), true);
    assert.equal(isStandardSchema(type({a: 'string'})), true);
    for (const value of [
        undefined,
        null,
        'z',
        {},
        {'~standard': null},
        {'~standard': 'v1'},
        {'~standard': {version: 2, validate: () => ({value: 1})}},
        {'~standard': {version: 1}},
        {type: 'object'},
    ]) {
        assert.equal(isStandardSchema(value), false, JSON.stringify(value));
    }
});

test('formatPath writes identifiers dotted, numbers and other keys in brackets', () => {
    assert.equal(formatPath(undefined), '(root)');
    assert.equal(formatPath([]), '(root)');
    assert.equal(
        formatPath(['a', {key: 'b'}, 0, {key: 1}, 'c d', Symbol('s'), '$ok_1']),
        'a.b[0][1]["c d"][Symbol(s)].$ok_1',
    );
    assert.equal(formatPath([2, 'x']), '[2].x');
    assert.equal(formatPath(['9lives']), '["9lives"]');
});

test('formatIssues gives one line per issue', () => {
    assert.equal(
        formatIssues([{message: 'first', path: ['a']}, {message: 'second'}]),
        '- a: first\n- (root): second',
    );
});

test('validateThen hands a synchronous result on at once and an asynchronous one once settled', async () => {
    const sync = z.object({n: z.number()});
    let order = '';
    const now = validateThen(sync, {n: 1}, (result) => {
        order += 'next';
        return result;
    });
    order += ' after';
    assert.equal(order, 'next after');
    assert.deepEqual(now, {value: {n: 1}});
    const later = z.object({n: z.number()}).refine(async () => true);
    const settled = validateThen(later, {n: 2}, (result) => result);
    assert.ok(settled instanceof Promise);
    assert.deepEqual(await settled, {value: {n: 2}});
});
