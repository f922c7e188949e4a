import assert from 'node:assert/strict';
import {test} from 'node:test';
import {readResponse} from '../../lib/jsonrpc/response.js';

test('reads a result with its id, whatever the result is', () => {
    assert.deepEqual(readResponse({jsonrpc: '2.0', id: 3, result: {a: 1}}), {
        kind: 'result',
        id: 3,
        result: {a: 1},
    });
    assert.deepEqual(readResponse({jsonrpc: '2.0', id: 'x', result: null}), {
        kind: 'result',
        id: 'x',
        result: null,
    });
});

test('reads an error, keeping data only when it was sent', () => {
    assert.deepEqual(readResponse({jsonrpc: '2.0', id: 1, error: {code: -1, message: 'm', data: null}}), {
        kind: 'error',
        id: 1,
        error: {code: -1, message: 'm', data: null},
    });
    const plain = readResponse({jsonrpc: '2.0', id: 1, error: {code: -1, message: 'm', extra: true}});
    assert.deepEqual(plain, {kind: 'error', id: 1, error: {code: -1, message: 'm'}});
    assert.equal(plain.kind === 'error' && Object.hasOwn(plain.error, 'data'), false);
});

test('reads an error whose id is null or absent as an error without an id', () => {
    const error = {code: -32700, message: 'Parse error'};
    assert.deepEqual(readResponse({jsonrpc: '2.0', id: null, error}), {kind: 'error', id: undefined, error});
    assert.deepEqual(readResponse({jsonrpc: '2.0', error}), {kind: 'error', id: undefined, error});
});

test('refuses what is not a response, keeping a valid id', () => {
    const cases: [Record<string, unknown>, string | number | undefined, string][] = [
        [{jsonrpc: '1.0', id: 1, result: {}}, 1, 'its "jsonrpc" member is not exactly "2.0"'],
        [{jsonrpc: '2.0', id: 1, result: {}, error: {}}, 1, 'it has both "result" and "error"'],
        [{jsonrpc: '2.0', id: 'a'}, 'a', 'it has neither "result" nor "error"'],
        [
            {jsonrpc: '2.0', id: 1.5, result: {}},
            undefined,
            'its id is number 1.5, which is neither a string nor a safe integer',
        ],
        [
            {jsonrpc: '2.0', id: {}, error: {code: 1, message: ''}},
            undefined,
            'its id is an object, which is neither a string nor a safe integer',
        ],
        [{jsonrpc: '2.0', result: {}}, undefined, 'it is a result without an id'],
        [{jsonrpc: '2.0', id: null, result: {}}, undefined, 'it is a result without an id'],
        [
            {jsonrpc: '2.0', id: 2, error: 'bad'},
            2,
            'its "error" is not an object with an integer "code" and a string "message"',
        ],
        [
            {jsonrpc: '2.0', id: 2, error: {code: 1.5, message: 'm'}},
            2,
            'its "error" is not an object with an integer "code" and a string "message"',
        ],
        [
            {jsonrpc: '2.0', id: 2, error: {code: 1}},
            2,
            'its "error" is not an object with an integer "code" and a string "message"',
        ],
    ];
    for (const [message, id, problem] of cases) {
        assert.deepEqual(readResponse(message), {kind: 'malformed', id, problem}, JSON.stringify(message));
    }
});

test('keeps 1 and "1" apart', () => {
    assert.deepEqual(readResponse({jsonrpc: '2.0', id: '1', result: 0}), {
        kind: 'result',
        id: '1',
        result: 0,
    });
    assert.deepEqual(readResponse({jsonrpc: '2.0', id: 1, result: 0}), {kind: 'result', id: 1, result: 0});
});
