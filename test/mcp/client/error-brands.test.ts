/**
 * The client's errors are told apart without `instanceof`, which fails across two copies of the
 * package in one process: the compiled modules and the shipped bundle are two such copies.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import * as here from '../../../lib/mcp/client/index.js';

type Client = typeof here;

/** The bundle `arcane-os/mcp/client` resolves to: the same code as a separate copy. */
const other = (await import(new URL('../../../bundle/mcp/client.js', import.meta.url).href)) as Client;

const CLASSES = [
    'McpClientError',
    'McpRemoteError',
    'McpTimeoutError',
    'McpConnectionError',
    'McpProtocolViolationError',
    'McpToolError',
    'McpHttpError',
] as const;

function make(copy: Client, name: (typeof CLASSES)[number]): Error {
    switch (name) {
        case 'McpRemoteError':
            return new copy.McpRemoteError('tools/call', {code: -32602, message: 'bad'});
        case 'McpTimeoutError':
            return new copy.McpTimeoutError('tools/call', 5);
        case 'McpToolError':
            return new copy.McpToolError('failed', {content: [], isError: true});
        case 'McpHttpError':
            return new copy.McpHttpError('refused', {method: 'POST', status: 500});
        default:
            return new copy[name]('x');
    }
}

test('the two copies are distinct, so instanceof cannot tell their errors apart', () => {
    assert.notEqual(other.McpRemoteError, here.McpRemoteError);
    assert.equal(make(other, 'McpRemoteError') instanceof here.McpRemoteError, false);
});

test('each class recognizes its own errors, and only those, from either copy', () => {
    for (const made of CLASSES) {
        for (const copy of [here, other]) {
            const error = make(copy, made);
            assert.equal(error.name, made);
            for (const asked of CLASSES) {
                const expected = asked === made || asked === 'McpClientError';
                // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test walks every exported class by name
                assert.equal(here[asked].is(error), expected, `${asked}.is(${made} of a copy)`);
                assert.equal(other[asked].is(error), expected, `${asked}.is(${made} of the other copy)`);
            }
        }
    }
});

test('is() is false for anything that is not one of the errors', () => {
    for (const value of [
        undefined,
        null,
        'McpRemoteError',
        7,
        {},
        new Error('x'),
        {name: 'McpRemoteError'},
    ]) {
        assert.equal(here.McpClientError.is(value), false);
        assert.equal(here.McpRemoteError.is(value), false);
    }
});

test('a value narrowed by is() has the class fields', () => {
    const error: unknown = make(other, 'McpRemoteError');
    assert.ok(here.McpRemoteError.is(error));
    assert.equal(error.code, -32602);
    assert.equal(error.method, 'tools/call');
});
