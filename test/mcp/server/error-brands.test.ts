/**
 * The errors a handler's question rejects with are told apart without `instanceof`, as the
 * client's are: the compiled modules and the shipped bundle are two copies of the package.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import * as client from '../../../lib/mcp/client/index.js';
import * as here from '../../../lib/mcp/stdio/index.js';
import {BrandedError} from '../../../lib/util/branded-error.js';

type Stdio = typeof here;

/** The bundle `arcane-os/mcp/stdio` resolves to: the same code as a separate copy. */
const other = (await import(new URL('../../../bundle/mcp/stdio.js', import.meta.url).href)) as Stdio;

function made(copy: Stdio): {McpAskError: Error; McpAnswerError: Error} {
    return {
        McpAskError: new copy.McpAskError('timeout', 'The client did not answer within 5 ms'),
        McpAnswerError: new copy.McpAnswerError('roots/list', -32601, 'no roots here'),
    };
}

test('McpAskError and McpAnswerError recognize their own errors, and only those, from either copy', () => {
    assert.notEqual(other.McpAskError, here.McpAskError);
    assert.equal(made(other).McpAskError instanceof here.McpAskError, false);
    for (const copy of [here, other]) {
        for (const [name, error] of Object.entries(made(copy))) {
            assert.equal(error.name, name);
            assert.equal(String(error).startsWith(`${name}: `), true);
            assert.equal(error.stack?.startsWith(`${name}: `), true);
            assert.equal(Object.hasOwn(error, 'name'), false);
            for (const asking of [here, other]) {
                assert.equal(asking.McpAskError.is(error), name === 'McpAskError');
                assert.equal(asking.McpAnswerError.is(error), name === 'McpAnswerError');
            }
            // Branded apart from the client's errors, and from the unbranded base.
            assert.equal(client.McpClientError.is(error), false);
            assert.equal(BrandedError.is(error), false);
        }
    }
});

test('a narrowed error has its fields, and is() is false for anything else', () => {
    const error: unknown = made(other).McpAnswerError;
    assert.ok(here.McpAnswerError.is(error));
    assert.equal(error.code, -32601);
    assert.equal(error.method, 'roots/list');
    assert.equal(error.message, 'The client answered roots/list with error -32601: no roots here');
    for (const value of [undefined, null, 'McpAskError', {}, new Error('x'), {name: 'McpAskError'}]) {
        assert.equal(here.McpAskError.is(value), false);
    }
    assert.equal(here.McpAskError.is(new client.McpTimeoutError('tools/call', 5)), false);
});
