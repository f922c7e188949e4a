import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {CallToolResult} from '../../../lib/mcp/client/index.js';
import {McpToolError, readToolResult} from '../../../lib/mcp/client/index.js';

const text = (value: string) => ({type: 'text' as const, text: value});

test('structured content, when present, is the value', () => {
    const structuredContent = {temperature: 21, sky: 'clear'};
    const result: CallToolResult = {
        content: [text('{"temperature":21}'), {type: 'image', data: 'AA==', mimeType: 'image/png'}],
        structuredContent,
    };
    assert.equal(readToolResult(result), structuredContent);
});

test('one text block gives its string', () => {
    assert.equal(readToolResult({content: [text('sunny')]}), 'sunny');
    assert.equal(readToolResult({content: [text('')]}), '');
});

test('several text blocks give their strings in order', () => {
    assert.deepEqual(readToolResult({content: [text('a'), text('b'), text('c')]}), ['a', 'b', 'c']);
});

test('no content gives an empty list', () => {
    assert.deepEqual(readToolResult({content: []}), []);
});

test('structured content that is not an object is ignored in favour of the text', () => {
    assert.equal(readToolResult({content: [text('t')], structuredContent: [1] as never}), 't');
});

test('an isError result throws McpToolError with the text and the result, even with structured content', () => {
    const result: CallToolResult = {
        content: [
            text('no such city'),
            {type: 'image', data: 'AA==', mimeType: 'image/png'},
            text('try Oslo'),
        ],
        structuredContent: {code: 404},
        isError: true,
    };
    assert.throws(
        () => readToolResult(result),
        (error) => {
            assert.ok(error instanceof McpToolError);
            assert.equal(error.name, 'McpToolError');
            assert.equal(error.message, 'The tool reported an error: no such city\ntry Oslo');
            assert.equal(error.result, result);
            return true;
        },
    );
});

test('an isError result without text still fails, saying so', () => {
    assert.throws(() => readToolResult({content: [], isError: true}), {
        name: 'McpToolError',
        message: 'The tool reported an error without a message',
    });
});

test('a long error text is shortened in the message', () => {
    assert.throws(() => readToolResult({content: [text('e'.repeat(600))], isError: true}), {
        message: `The tool reported an error: ${'e'.repeat(500)}…`,
    });
});

test('a non-text block without structured content is refused, naming it', () => {
    assert.throws(
        () => readToolResult({content: [text('a'), {type: 'image', data: 'AA==', mimeType: 'image/png'}]}),
        {
            name: 'TypeError',
            message:
                'readToolResult: content[1] has type "image" and the result has no structuredContent; this helper ' +
                'reads structured content or text only, so read result.content for other blocks',
        },
    );
    assert.throws(() => readToolResult({content: [7 as never]}), {
        message: /^readToolResult: content\[0\] is not a content block \(number 7\) and/,
    });
});

test('something that is not a CallToolResult is a TypeError', () => {
    assert.throws(() => readToolResult(null as never), {
        name: 'TypeError',
        message: 'readToolResult(result) needs a CallToolResult with a "content" array, got null',
    });
    assert.throws(() => readToolResult({} as never), {name: 'TypeError'});
});
