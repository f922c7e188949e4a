import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import {classify, errorRecord, isObject, isRequestId, resultRecord} from '../../lib/jsonrpc/records.js';

const BATCH = 'JSON-RPC batches are not supported: send each request as its own line';
const NOT_OBJECT = 'A JSON-RPC message must be a JSON object';
const BAD_JSONRPC = 'The "jsonrpc" member must be exactly "2.0"';
const NO_METHOD = 'A JSON-RPC request must have a "method" string';
const METHOD_NOT_STRING = 'The "method" member must be a string';
const BAD_ID = 'A request id must be a string or an integer of at most 2^53 - 1 in magnitude';

test('classifies a batch as an invalid request without an id, even when it holds requests', () => {
    assert.deepEqual(classify([{jsonrpc: '2.0', id: 1, method: 'ping'}]), {
        kind: 'invalid',
        id: undefined,
        code: -32600,
        message: BATCH,
    });
    assert.deepEqual(classify([]), {kind: 'invalid', id: undefined, code: -32600, message: BATCH});
});

test('classifies every JSON value that is not an object as an invalid request without an id', () => {
    for (const value of [null, 1, 0, 'ping', true, false]) {
        assert.deepEqual(classify(value), {
            kind: 'invalid',
            id: undefined,
            code: -32600,
            message: NOT_OBJECT,
        });
    }
});

test('rejects a bad jsonrpc member, keeping a valid id and dropping an invalid one', () => {
    for (const jsonrpc of [undefined, '1.0', 2, 2.0, '2.0 ', null]) {
        assert.deepEqual(classify({jsonrpc, id: 'a', method: 'ping'}), {
            kind: 'invalid',
            id: 'a',
            code: -32600,
            message: BAD_JSONRPC,
        });
    }
    assert.deepEqual(classify({id: 0, method: 'ping'}), {
        kind: 'invalid',
        id: 0,
        code: -32600,
        message: BAD_JSONRPC,
    });
    assert.deepEqual(classify({jsonrpc: '1.0', id: 1.5, method: 'ping'}), {
        kind: 'invalid',
        id: undefined,
        code: -32600,
        message: BAD_JSONRPC,
    });
    assert.deepEqual(classify({jsonrpc: '1.0', method: 'ping'}), {
        kind: 'invalid',
        id: undefined,
        code: -32600,
        message: BAD_JSONRPC,
    });
});

test('classifies a result or error object without a method as a response', () => {
    assert.deepEqual(classify({jsonrpc: '2.0', id: 3, result: {}}), {kind: 'response', id: 3});
    assert.deepEqual(classify({jsonrpc: '2.0', id: 'x', error: {code: 1, message: 'm'}}), {
        kind: 'response',
        id: 'x',
    });
    assert.deepEqual(classify({jsonrpc: '2.0', result: null}), {kind: 'response', id: undefined});
    assert.deepEqual(classify({jsonrpc: '2.0', id: null, error: {}}), {kind: 'response', id: undefined});
});

test('rejects a message without a method that is not a response, keeping its valid id', () => {
    assert.deepEqual(classify({jsonrpc: '2.0', id: 4}), {
        kind: 'invalid',
        id: 4,
        code: -32600,
        message: NO_METHOD,
    });
    assert.deepEqual(classify({jsonrpc: '2.0'}), {
        kind: 'invalid',
        id: undefined,
        code: -32600,
        message: NO_METHOD,
    });
    assert.deepEqual(classify({jsonrpc: '2.0', id: true, params: {}}), {
        kind: 'invalid',
        id: undefined,
        code: -32600,
        message: NO_METHOD,
    });
});

test('rejects a method that is not a string, keeping a valid id', () => {
    for (const method of [null, 1, {}, ['ping'], true]) {
        assert.deepEqual(classify({jsonrpc: '2.0', id: 'r', method}), {
            kind: 'invalid',
            id: 'r',
            code: -32600,
            message: METHOD_NOT_STRING,
        });
    }
    assert.deepEqual(classify({jsonrpc: '2.0', method: 5}), {
        kind: 'invalid',
        id: undefined,
        code: -32600,
        message: METHOD_NOT_STRING,
    });
});

test('rejects a request whose id is not a string or an integer, and gives no id', () => {
    for (const id of [null, 1.5, -0.25, true, false, {}, {id: 1}, [1], []]) {
        assert.deepEqual(
            classify({jsonrpc: '2.0', id, method: 'ping'}),
            {kind: 'invalid', id: undefined, code: -32600, message: BAD_ID},
            JSON.stringify(id),
        );
    }
    assert.deepEqual(classify({jsonrpc: '2.0', id: null, method: 'tools/call', params: 'x'}), {
        kind: 'invalid',
        id: undefined,
        code: -32600,
        message: BAD_ID,
    });
});

test('classifies requests with string and integer ids, keeping 1 and "1" apart and 0 as an id', () => {
    assert.deepEqual(classify({jsonrpc: '2.0', id: 1, method: 'ping'}), {
        kind: 'request',
        id: 1,
        method: 'ping',
        params: undefined,
    });
    assert.deepEqual(classify({jsonrpc: '2.0', id: '1', method: 'ping'}), {
        kind: 'request',
        id: '1',
        method: 'ping',
        params: undefined,
    });
    assert.deepEqual(classify({jsonrpc: '2.0', id: 0, method: 'x'}), {
        kind: 'request',
        id: 0,
        method: 'x',
        params: undefined,
    });
    assert.deepEqual(classify({jsonrpc: '2.0', id: '', method: 'x'}), {
        kind: 'request',
        id: '',
        method: 'x',
        params: undefined,
    });
    assert.deepEqual(classify({jsonrpc: '2.0', id: -7, method: 'x'}), {
        kind: 'request',
        id: -7,
        method: 'x',
        params: undefined,
    });
});

test('passes the params object of a request through by identity', () => {
    const params = {name: 'moon.menu', arguments: {deep: [1, {x: null}]}};
    const incoming = classify({jsonrpc: '2.0', id: 2, method: 'tools/call', params});
    assert.equal(incoming.kind, 'request');
    assert.equal(incoming.kind === 'request' && incoming.params, params);
});

test('classifies a message without an id as a notification', () => {
    const params = {requestId: 3, reason: 'user'};
    assert.deepEqual(classify({jsonrpc: '2.0', method: 'notifications/cancelled', params}), {
        kind: 'notification',
        method: 'notifications/cancelled',
        params,
    });
    assert.deepEqual(classify({jsonrpc: '2.0', method: 'notifications/initialized'}), {
        kind: 'notification',
        method: 'notifications/initialized',
        params: undefined,
    });
});

test('answers non-object params of a request with -32602 and its id', () => {
    for (const params of [null, [], [1], 'x', 3, false]) {
        assert.deepEqual(classify({jsonrpc: '2.0', id: 9, method: 'tools/list', params}), {
            kind: 'invalid',
            id: 9,
            code: -32602,
            message: 'The "params" of tools/list must be a JSON object',
        });
    }
});

test('keeps a notification with non-object params a notification, without its params', () => {
    assert.deepEqual(classify({jsonrpc: '2.0', method: 'notifications/cancelled', params: [1]}), {
        kind: 'notification',
        method: 'notifications/cancelled',
        params: undefined,
    });
});

test('isRequestId accepts strings and integers that JSON.parse keeps exact', () => {
    for (const id of ['', 'a', 0, -1, 2 ** 53 - 1, -(2 ** 53 - 1)])
        assert.equal(isRequestId(id), true, String(id));
    for (const id of [
        2 ** 53,
        1.5,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        null,
        undefined,
        true,
        {},
        [],
        1n,
    ]) {
        assert.equal(isRequestId(id), false, String(id));
    }
});

test('isObject accepts plain objects only', () => {
    assert.equal(isObject({}), true);
    assert.equal(isObject(Object.create(null)), true);
    for (const value of [null, [], 'x', 1, undefined, () => {}]) assert.equal(isObject(value), false);
});

test('encodes a result record for numeric zero, integer and string ids', () => {
    assert.equal(resultRecord(0, '{}'), '{"jsonrpc":"2.0","id":0,"result":{}}\n');
    assert.equal(resultRecord(-12, '[]'), '{"jsonrpc":"2.0","id":-12,"result":[]}\n');
    assert.equal(resultRecord('0', '{"a":1}'), '{"jsonrpc":"2.0","id":"0","result":{"a":1}}\n');
    assert.equal(resultRecord('é"\\\n🌙', '{}'), '{"jsonrpc":"2.0","id":"é\\"\\\\\\n🌙","result":{}}\n');
});

test('encodes an error record with its id, and without any id member when the id is unknown', () => {
    assert.equal(
        errorRecord(0, -32601, 'Method not found: "x"'),
        '{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found: \\"x\\""}}\n',
    );
    assert.equal(
        errorRecord('a', -32002, 'Resource not found: x://y', {uri: 'x://y'}),
        '{"jsonrpc":"2.0","id":"a","error":{"code":-32002,"message":"Resource not found: x://y","data":{"uri":"x://y"}}}\n',
    );
    assert.equal(
        errorRecord(undefined, -32700, 'Parse error'),
        '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}\n',
    );
});

test('keeps data that is null, false or zero in an error record', () => {
    assert.equal(
        errorRecord(1, 5, 'm', null),
        '{"jsonrpc":"2.0","id":1,"error":{"code":5,"message":"m","data":null}}\n',
    );
    assert.equal(
        errorRecord(1, 5, 'm', 0),
        '{"jsonrpc":"2.0","id":1,"error":{"code":5,"message":"m","data":0}}\n',
    );
    assert.equal(
        errorRecord(undefined, 5, 'm', false),
        '{"jsonrpc":"2.0","error":{"code":5,"message":"m","data":false}}\n',
    );
});

test('throws when error data cannot be serialized', () => {
    assert.throws(() => errorRecord(1, 5, 'm', {big: 1n}), TypeError);
    const circular: {self?: unknown} = {};
    circular.self = circular;
    assert.throws(() => errorRecord(1, 5, 'm', circular), TypeError);
});

test('property: every record classified as invalid is answered without "id":null, and round-trips as JSON', () => {
    const idValue = fc.oneof(
        fc.string(),
        fc.integer(),
        fc.double(),
        fc.constant(null),
        fc.boolean(),
        fc.object({maxDepth: 1}),
        fc.array(fc.integer(), {maxLength: 2}),
    );
    const message = fc.oneof(
        fc.record(
            {
                jsonrpc: fc.oneof(fc.constant('2.0'), fc.string(), fc.integer()),
                id: idValue,
                method: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
                params: fc.oneof(
                    fc.object({maxDepth: 1}),
                    fc.array(fc.integer(), {maxLength: 2}),
                    fc.string(),
                ),
                result: fc.constant({}),
            },
            {requiredKeys: []},
        ),
        fc.jsonValue({maxDepth: 2}),
    );
    fc.assert(
        fc.property(message, (value) => {
            const incoming = classify(value);
            if (incoming.kind !== 'invalid') return;
            const record = errorRecord(incoming.id, incoming.code, incoming.message);
            assert.equal(record.endsWith('\n'), true);
            assert.equal(record.indexOf('\n'), record.length - 1);
            const parsed = JSON.parse(record) as {id?: unknown; error: {code: number}};
            assert.equal(Object.hasOwn(parsed, 'id'), incoming.id !== undefined);
            // An id of -0 is the integer 0 and is answered as 0.
            if (incoming.id !== undefined) assert.equal(parsed.id === incoming.id, true);
            assert.ok(parsed.id !== null);
            assert.equal(parsed.error.code, incoming.code);
        }),
        {numRuns: 500},
    );
});
