import assert from 'node:assert/strict';
import {test} from 'node:test';
import {inspect} from 'node:util';
import {ErrorCode, McpProtocolError} from '../../../lib/mcp/stdio/index.js';
import {describe} from '../../../lib/util/describe.js';

test('McpProtocolError is an Error with name, code, message and data', () => {
    const data = {uri: 'pantry://menu', detail: [1, 2]};
    const error = new McpProtocolError(-32002, 'Resource not found: pantry://menu', data);
    assert.ok(error instanceof Error);
    assert.ok(error instanceof McpProtocolError);
    assert.equal(error.name, 'McpProtocolError');
    assert.equal(error.code, -32002);
    assert.equal(error.message, 'Resource not found: pantry://menu');
    assert.equal(error.data, data);
    assert.equal(String(error), 'McpProtocolError: Resource not found: pantry://menu');
    assert.ok(error.stack?.startsWith('McpProtocolError: Resource not found: pantry://menu\n'));
});

test('McpProtocolError without data has no data member at all', () => {
    const error = new McpProtocolError(-32602, 'bad');
    assert.equal(error.data, undefined);
    assert.equal(Object.hasOwn(error, 'data'), false);
    assert.equal('data' in error, false);
    assert.equal(Object.hasOwn(new McpProtocolError(1, 'm', undefined), 'data'), false);
    assert.ok(!inspect(error).includes('data'));
});

test('McpProtocolError keeps data that is null, false, zero or an empty string', () => {
    for (const data of [null, false, 0, '']) {
        const error = new McpProtocolError(7, 'm', data);
        assert.equal(Object.hasOwn(error, 'data'), true);
        assert.equal(error.data, data);
    }
});

test('McpProtocolError accepts any safe integer code, custom ones included, and an empty message', () => {
    assert.equal(new McpProtocolError(0, '').code, 0);
    assert.equal(new McpProtocolError(0, '').message, '');
    assert.equal(new McpProtocolError(-1, 'm').code, -1);
    assert.equal(new McpProtocolError(Number.MAX_SAFE_INTEGER, 'm').code, Number.MAX_SAFE_INTEGER);
});

test('McpProtocolError rejects a code that is not a JSON-RPC integer', () => {
    const cases: [unknown, string][] = [
        [1.5, 'number 1.5'],
        [Number.NaN, 'number NaN'],
        [Number.POSITIVE_INFINITY, 'number Infinity'],
        [2 ** 53, 'number 9007199254740992'],
        ['-32600', 'the string "-32600"'],
        [undefined, 'undefined'],
        [null, 'null'],
        [-32600n, 'bigint -32600'],
    ];
    for (const [code, described] of cases) {
        assert.throws(() => new McpProtocolError(code as number, 'm'), {
            name: 'TypeError',
            message: `McpProtocolError code must be a JSON-RPC integer, got ${described}`,
        });
    }
});

test('McpProtocolError rejects a message that is not a string', () => {
    const cases: [unknown, string][] = [
        [undefined, 'undefined'],
        [42, 'number 42'],
        [{message: 'x'}, 'an object'],
        [['x'], 'an array'],
    ];
    for (const [message, described] of cases) {
        assert.throws(() => new McpProtocolError(-32603, message as string), {
            name: 'TypeError',
            message: `McpProtocolError message must be a string, got ${described}`,
        });
    }
});

test('ErrorCode names every code the adapter answers with, and cannot be changed', () => {
    assert.deepEqual(
        {...ErrorCode},
        {
            ParseError: -32700,
            InvalidRequest: -32600,
            MethodNotFound: -32601,
            InvalidParams: -32602,
            InternalError: -32603,
            NotInitialized: -32000,
            ResourceNotFound: -32002,
            UnsupportedProtocolVersion: -32022,
        },
    );
    assert.equal(Object.isFrozen(ErrorCode), true);
});

test('describes a value briefly for error messages, shortening only long strings', () => {
    assert.equal(describe('a'.repeat(60)), `the string "${'a'.repeat(60)}"`);
    assert.equal(describe('a'.repeat(61)), `the string "${'a'.repeat(60)}…"`);
    assert.equal(describe('say "hi"'), 'the string "say \\"hi\\""');
    assert.equal(
        describe(() => {}),
        'a function',
    );
    assert.equal(describe(Symbol('s')), 'a symbol');
    assert.equal(describe(false), 'boolean false');
    assert.equal(describe(12n), 'bigint 12');
    assert.equal(describe(new Map()), 'an object');
    assert.throws(() => new McpProtocolError(Symbol('c') as never, 'm'), {
        name: 'TypeError',
        message: 'McpProtocolError code must be a JSON-RPC integer, got a symbol',
    });
});
