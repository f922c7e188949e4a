import assert from 'node:assert/strict';
import {test} from 'node:test';
import {messageOf} from '../../lib/util/message.js';

test('messageOf takes the message a thrown value carries', () => {
    assert.equal(messageOf('plain text'), 'plain text');
    assert.equal(messageOf(new TypeError('bad value')), 'bad value');
    assert.equal(messageOf({message: 'from an object'}), 'from an object');
    assert.equal(messageOf(new RangeError('')), 'RangeError');
});

test('messageOf falls back to String, or to the tag of a value String cannot convert', () => {
    assert.equal(messageOf(42), '42');
    assert.equal(messageOf(undefined), 'undefined');
    assert.equal(messageOf({message: 7}), '[object Object]');
    assert.equal(messageOf(Object.create(null)), '[object Object]');
    assert.equal(messageOf(Symbol('s')), 'Symbol(s)');
});

test('messageOf never throws for a throwing message getter, and hands other values to otherwise', () => {
    const hostile = {
        get message(): string {
            throw new Error('no');
        },
    };
    assert.equal(
        messageOf(hostile, () => 'described'),
        'described',
    );
    assert.equal(
        messageOf(null, (value) => `not an error: ${String(value)}`),
        'not an error: null',
    );
    assert.equal(
        messageOf(new Error('kept'), () => 'unused'),
        'kept',
    );
});
