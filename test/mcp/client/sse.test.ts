import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {SseEvent} from '../../../lib/mcp/client/sse.js';
import {SseParser} from '../../../lib/mcp/client/sse.js';

type Seen = SseEvent | {retry: number} | {oversized: number};

function parser(maxEventBytes = 1024): {parser: SseParser; seen: Seen[]} {
    const seen: Seen[] = [];
    const p = new SseParser(
        {
            event: (event) => seen.push(event),
            retry: (retry) => seen.push({retry}),
            oversized: (oversized) => seen.push({oversized}),
        },
        maxEventBytes,
    );
    return {parser: p, seen};
}

/** Feeds each piece as its own chunk, then ends the stream. */
function parse(pieces: readonly (string | readonly number[])[], maxEventBytes?: number): Seen[] {
    const {parser: p, seen} = parser(maxEventBytes);
    for (const piece of pieces) {
        p.push(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Uint8Array.from(piece));
    }
    p.end();
    return seen;
}

const message = (data: string, lastEventId = '', type = 'message'): SseEvent => ({type, data, lastEventId});

test('an event is dispatched by the empty line that follows it, not before', () => {
    const {parser: p, seen} = parser();
    p.push(Buffer.from('data: one\n'));
    assert.deepEqual(seen, []);
    p.push(Buffer.from('\n'));
    assert.deepEqual(seen, [message('one')]);
});

test('several data lines are joined with a line feed and the final one is not kept', () => {
    assert.deepEqual(parse(['data: a\ndata: b\ndata\n\n']), [message('a\nb\n')]);
});

test('LF, CR and CRLF all end a line, also when CR and LF arrive in different chunks', () => {
    assert.deepEqual(parse(['data: a\r\rdata: b\r\n\r', '\ndata: c\n\n']), [
        message('a'),
        message('b'),
        message('c'),
    ]);
});

test('a CR at the end of a chunk ends its line at once', () => {
    const {parser: p, seen} = parser();
    p.push(Buffer.from('data: x\r\r'));
    assert.deepEqual(seen, [message('x')]);
    p.push(Buffer.from('\ndata: y\n\n'));
    assert.deepEqual(seen, [message('x'), message('y')]);
});

test('one leading byte order mark is skipped, even split across chunks, and a second one is not', () => {
    assert.deepEqual(parse([[0xef], [0xbb, 0xbf], 'data: x\n\n']), [message('x')]);
    assert.deepEqual(parse([[0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], 'data: x\n\n']), []);
    assert.deepEqual(parse(['data: \uFEFFx\n\n']), [message('\uFEFFx')]);
});

test('only one space after the colon is removed', () => {
    assert.deepEqual(parse(['data:x\n\ndata:  y\n\n']), [message('x'), message(' y')]);
});

test('the value runs from the first colon, so later colons are kept', () => {
    assert.deepEqual(parse(['data: {"a": 1}\n\n']), [message('{"a": 1}')]);
});

test('a field name without a colon is a field with an empty value', () => {
    assert.deepEqual(parse(['data\ndata\n\n']), [message('\n')]);
    assert.deepEqual(parse(['data: x\nevent\n\n']), [message('x')]);
});

test('an event field names the type and an empty one means message', () => {
    assert.deepEqual(parse(['event: ping\ndata: 1\n\nevent:\ndata: 2\n\n']), [
        message('1', '', 'ping'),
        message('2'),
    ]);
});

test('the type is reset after each empty line, even one that dispatches nothing', () => {
    assert.deepEqual(parse(['event: lost\n\ndata: x\n\n']), [message('x')]);
});

test('the last event id persists across events until the server changes or clears it', () => {
    assert.deepEqual(parse(['id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n']), [
        message('a', '7'),
        message('b', '7'),
        message('c', ''),
    ]);
});

test('an id in a block without data still moves the last event id', () => {
    const {parser: p, seen} = parser();
    p.push(Buffer.from('id: prime\ndata\n\nid: 9\n\n'));
    assert.deepEqual(seen, [message('', 'prime')]);
    assert.equal(p.lastEventId, '9');
});

test('an id takes effect only at the empty line that ends its event', () => {
    const {parser: p} = parser();
    p.push(Buffer.from('id: 1\n\nid: 2\ndata: cut'));
    assert.equal(p.lastEventId, '1');
    p.end();
    assert.equal(p.lastEventId, '1');
});

test('an id containing U+0000 is ignored', () => {
    assert.deepEqual(parse(['id: a\n\nid: b\0c\ndata: x\n\n']), [message('x', 'a')]);
});

test('a retry of ASCII digits is reported and anything else is ignored', () => {
    assert.deepEqual(parse(['retry: 1500\nretry: 15s\nretry: -1\nretry:\nretry: 0\n']), [
        {retry: 1500},
        {retry: 0},
    ]);
});

test('comments and unknown fields are ignored', () => {
    assert.deepEqual(parse([': keep-alive\n\n:\ndata: x\n: inside\nfoo: bar\nData: no\n\n']), [message('x')]);
});

test('an empty data buffer dispatches nothing', () => {
    assert.deepEqual(parse(['event: e\nid: 1\n\n\n\n']), []);
});

test('nothing is dispatched for an unterminated final event', () => {
    assert.deepEqual(parse(['data: done\n\ndata: half\n']), [message('done')]);
    assert.deepEqual(parse(['data: done\n\ndata: half']), [message('done')]);
});

test('a character split across chunks is decoded whole and bad bytes become U+FFFD', () => {
    const euro = [...Buffer.from('data: €\n\n')];
    assert.deepEqual(parse([euro.slice(0, 7), euro.slice(7)]), [message('€')]);
    assert.deepEqual(parse([[...Buffer.from('data: '), 0xe2, 0x82, 0x0a, 0x0a]]), [message('\uFFFD')]);
    assert.deepEqual(
        parse([[...Buffer.from('da'), 0xff, ...Buffer.from('ta: x\ndata: '), 0xc3, 0x3a, 0x0a, 0x0a]]),
        [message('\uFFFD:')],
    );
});

test('an event over the limit is dropped whole, reported once, and the next one is read', () => {
    const seen = parse(['data: 12345\ndata: 6789\n\ndata: ok\n\n'], 20);
    assert.deepEqual(seen, [{oversized: 21}, message('ok')]);
});

test('an event exactly at the limit is dispatched', () => {
    assert.deepEqual(parse(['data: 12345\ndata: 678\n\n'], 20), [message('12345\n678')]);
});

test('a line in progress that passes the limit is not kept, and its tail is no empty line', () => {
    const {parser: p, seen} = parser(10);
    p.push(Buffer.from('data: 0123'));
    p.push(Buffer.from('456789'));
    assert.deepEqual(seen, [{oversized: 16}]);
    p.push(Buffer.from('more bytes that are never kept'));
    p.push(Buffer.from('\n'));
    p.push(Buffer.from('data: late\n'));
    p.push(Buffer.from('\ndata: ok\n\n'));
    assert.deepEqual(seen, [{oversized: 16}, message('ok')]);
});

test('comments do not count toward the limit', () => {
    assert.deepEqual(parse([': a long comment line\n: another one\ndata: x\n\n'], 10), [message('x')]);
});

test('the limit counts the line in progress across chunks before it ends', () => {
    const {parser: p, seen} = parser(8);
    p.push(Buffer.from('data: a\n'));
    p.push(Buffer.from('da'));
    assert.deepEqual(seen, [{oversized: 9}]);
});
