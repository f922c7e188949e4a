/**
 * The line reader with an `invalid` sink method (the client's tolerant reading): a record that is
 * not UTF-8 is reported with its size and skipped, wherever the bad bytes fall across chunks, and
 * the records after it are delivered as usual.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import type {RecordSink} from '../../lib/jsonrpc/framing.js';
import {LineReader} from '../../lib/jsonrpc/framing.js';
import {Utf8DecodeError} from '../../lib/jsonrpc/utf8-error.js';

type Event = string | {oversized: number} | {invalid: number; text: string};

class Tolerant implements RecordSink {
    readonly events: Event[] = [];

    receive(text: string): void {
        this.events.push(text);
    }

    oversized(bytes: number): void {
        this.events.push({oversized: bytes});
    }

    invalid(text: string, bytes: number): void {
        this.events.push({invalid: bytes, text});
    }
}

function tolerant(maxBytes = 64): {reader: LineReader; sink: Tolerant} {
    const sink = new Tolerant();
    return {reader: new LineReader(sink, maxBytes, 'the MCP server'), sink};
}

const b = (...parts: (string | number[])[]): Buffer =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

test('a whole line that is not UTF-8 is reported and the next one delivered', () => {
    const {reader, sink} = tolerant();
    reader.push(b('ok\n{', [0xff, 0xfe], '}\r\nnext\n'));
    assert.deepEqual(sink.events, ['ok', {invalid: 4, text: '{\uFFFD\uFFFD}'}, 'next']);
});

test('bad bytes in the part of a record kept across chunks are reported at its line feed', () => {
    const {reader, sink} = tolerant();
    reader.push(b('ab', [0xc0]));
    reader.push(b([0xaf], 'cd'));
    assert.deepEqual(sink.events, []);
    reader.push(b('ef\nafter\n'));
    assert.deepEqual(sink.events, [{invalid: 8, text: 'ab\uFFFD'}, 'after']);
});

test('a sequence that turns bad in a later chunk is reported at its line feed', () => {
    const {reader, sink} = tolerant();
    reader.push(b('ab', [0xe2]));
    reader.push(b([0x41], 'cd'));
    reader.push(b('\nafter\n'));
    assert.deepEqual(sink.events, [{invalid: 6, text: 'abAcd'}, 'after']);
});

test('a sequence cut short by the line feed, in the chunk that ends the record, is reported', () => {
    const {reader, sink} = tolerant();
    reader.push(b('x', [0xe2]));
    reader.push(b([0x82], '\nyes\n'));
    assert.deepEqual(sink.events, [{invalid: 3, text: 'x\uFFFD'}, 'yes']);
});

test('a final record without its line feed that ends inside a character is reported at the end', () => {
    const {reader, sink} = tolerant();
    reader.push(b('ok\nz', [0xf0, 0x9f]));
    reader.end();
    assert.deepEqual(sink.events, ['ok', {invalid: 3, text: 'z'}]);
});

test('a bad record that grows over the limit is reported as invalid, and is not kept', () => {
    const {reader, sink} = tolerant(8);
    reader.push(b([0xff], 'aaaa'));
    reader.push(b('bbbbbbbbbbbb'));
    reader.push(b('\nfine\n'));
    assert.deepEqual(sink.events, [{invalid: 17, text: '\uFFFDaaaa'}, 'fine']);
});

test('without the method, bytes that are not UTF-8 still throw and halt the reader', () => {
    const events: string[] = [];
    const reader = new LineReader({receive: (text) => events.push(text), oversized() {}}, 64);
    assert.throws(() => reader.push(b([0xff], '\nlater\n')), Utf8DecodeError);
    assert.deepEqual(events, []);
});

test('property: whatever the chunking, each record is delivered, dropped as oversized or reported invalid', () => {
    const record = fc.oneof(
        fc.string({minLength: 1, maxLength: 20}).filter((text) => !/[\n\r]/.test(text)),
        fc.constantFrom([0xff], [0x80, 0x41], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x41, 0xf8]),
        fc.integer({min: 17, max: 60}).map((n) => 'o'.repeat(n)),
    );
    fc.assert(
        fc.property(
            fc.array(record, {maxLength: 8}),
            fc.array(fc.integer({min: 1, max: 9})),
            (records, cuts) => {
                const max = 16;
                const lines = records.map((r) => (typeof r === 'string' ? Buffer.from(r) : Buffer.from(r)));
                const input = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));
                const expected = lines.map((line, index): string => {
                    if (line.length > max) return `oversized ${line.length}`;
                    const r = records[index];
                    return typeof r === 'string' ? r : `invalid ${line.length}`;
                });
                const {reader, sink} = tolerant(max);
                let offset = 0;
                for (let index = 0; offset < input.length; index += 1) {
                    const size = cuts.length === 0 ? input.length : (cuts[index % cuts.length] as number);
                    reader.push(input.subarray(offset, offset + size));
                    offset += size;
                }
                reader.end();
                const seen = sink.events.map((event) =>
                    typeof event === 'string'
                        ? event
                        : 'oversized' in event
                          ? `oversized ${event.oversized}`
                          : `invalid ${event.invalid}`,
                );
                assert.deepEqual(seen, expected);
            },
        ),
        {seed: 25, numRuns: 500},
    );
});
