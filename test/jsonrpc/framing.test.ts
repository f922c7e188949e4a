import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import type {RecordSink} from '../../lib/jsonrpc/framing.js';
import {LineReader} from '../../lib/jsonrpc/framing.js';
import {Utf8DecodeError} from '../../lib/jsonrpc/utf8-error.js';

type Event = string | {oversized: number};

/** A sink that records what the reader delivers, in order. */
class Recorder implements RecordSink {
    readonly events: Event[] = [];
    onReceive: ((text: string) => void) | undefined;

    receive(text: string): void {
        this.events.push(text);
        this.onReceive?.(text);
    }

    oversized(bytes: number): void {
        this.events.push({oversized: bytes});
    }
}

function reader(maxBytes = 1024): {reader: LineReader; sink: Recorder} {
    const sink = new Recorder();
    return {reader: new LineReader(sink, maxBytes), sink};
}

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

const EXPECTED_UTF8_MESSAGE =
    'The input is not valid UTF-8: the MCP client must send UTF-8 encoded JSON-RPC records, ' +
    'one per line. The transport was closed.';

test('delivers each record as soon as its line feed arrives, before the input ends', () => {
    const {reader: r, sink} = reader();
    r.push(bytes('{"a":1}\n{"b"'));
    assert.deepEqual(sink.events, ['{"a":1}']);
    r.push(bytes(':2}\n'));
    assert.deepEqual(sink.events, ['{"a":1}', '{"b":2}']);
    r.end();
    assert.deepEqual(sink.events, ['{"a":1}', '{"b":2}']);
});

test('accepts a final record without a line feed when the input ends', () => {
    const {reader: r, sink} = reader();
    r.push(bytes('{"a":1}\n{"last"'));
    r.push(bytes(':true}'));
    assert.deepEqual(sink.events, ['{"a":1}']);
    r.end();
    assert.deepEqual(sink.events, ['{"a":1}', '{"last":true}']);
});

test('accepts LF and CRLF endings, including a carriage return and line feed in different chunks', () => {
    const {reader: r, sink} = reader();
    r.push(bytes('one\r\ntwo\nthree\r'));
    r.push(bytes('\nfour\r\n'));
    r.push(bytes('five\r'));
    r.end();
    assert.deepEqual(sink.events, ['one', 'two', 'three', 'four', 'five']);
});

test('keeps a carriage return that is not directly before the line feed', () => {
    const {reader: r, sink} = reader();
    r.push(bytes('a\rb\n\rc\n'));
    r.push('d\re\n');
    assert.deepEqual(sink.events, ['a\rb', '\rc', 'd\re']);
});

test('skips empty lines, with either ending, in byte and string input and at the end', () => {
    const {reader: r, sink} = reader();
    r.push(bytes('\n\r\n\n{}\n\r\n'));
    r.push('\n\r\n[]\n');
    r.push(bytes('\r'));
    r.push(bytes('\n'));
    r.push('\r');
    r.end();
    assert.deepEqual(sink.events, ['{}', '[]']);
});

test('keeps a multibyte character split across chunks at every byte offset', () => {
    const text = '{"moon":"é€🌙 ok"}\n{"two":"ß"}\n';
    const whole = bytes(text);
    for (let cut = 0; cut <= whole.length; cut += 1) {
        const {reader: r, sink} = reader();
        r.push(whole.subarray(0, cut));
        r.push(whole.subarray(cut));
        r.end();
        assert.deepEqual(sink.events, ['{"moon":"é€🌙 ok"}', '{"two":"ß"}'], `cut at byte ${cut}`);
    }
});

test('keeps a four-byte character delivered one byte per chunk', () => {
    const {reader: r, sink} = reader();
    for (const byte of bytes('🌙é\n🌙')) r.push(Buffer.from([byte]));
    assert.deepEqual(sink.events, ['🌙é']);
    r.end();
    assert.deepEqual(sink.events, ['🌙é', '🌙']);
});

test('accepts string input as it is, without decoding it again', () => {
    const {reader: r, sink} = reader();
    r.push('{"lone":"\uD800","ok":"🌙"}\n{"part"');
    r.push(':"\uFFFD"}\n');
    assert.deepEqual(sink.events, ['{"lone":"\uD800","ok":"🌙"}', '{"part":"\uFFFD"}']);
});

test('keeps a byte order mark at the start of a record', () => {
    const {reader: r, sink} = reader();
    r.push(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a]));
    assert.deepEqual(sink.events, ['\uFEFF{}']);
});

test('keeps an escaped line break inside a JSON string in the payload', () => {
    const {reader: r, sink} = reader();
    r.push(bytes('{"text":"Moon soup\\nExtra\\r\\n"}\n'));
    assert.deepEqual(sink.events, ['{"text":"Moon soup\\nExtra\\r\\n"}']);
    assert.deepEqual(JSON.parse(sink.events[0] as string), {text: 'Moon soup\nExtra\r\n'});
});

test('throws Utf8DecodeError with the complete affected chunks and pending text, after the records before it', () => {
    const {reader: r, sink} = reader();
    const first = bytes('{"first":1}\n{"x":"ab');
    const second = Buffer.concat([bytes('cd'), Buffer.from([0xff]), bytes('"}\n{"never":1}\n')]);
    r.push(first);
    let thrown: unknown;
    try {
        r.push(second);
    } catch (error) {
        thrown = error;
    }
    assert.ok(thrown instanceof Utf8DecodeError);
    assert.equal(thrown.name, 'Utf8DecodeError');
    assert.equal(thrown.message, EXPECTED_UTF8_MESSAGE);
    assert.equal(thrown.chunks.length, 2);
    assert.equal(thrown.chunks[0], first);
    assert.equal(thrown.chunks[1], second);
    assert.equal(thrown.pendingText, '{"x":"ab');
    assert.ok(thrown.cause instanceof TypeError);
    assert.deepEqual(sink.events, ['{"first":1}']);
});

test('delivers the records before invalid bytes in the same chunk, then throws with only that chunk', () => {
    const {reader: r, sink} = reader();
    const chunk = Buffer.concat([bytes('one\ntwo\r\n'), Buffer.from([0xc3, 0x28]), bytes('\nthree\n')]);
    assert.throws(
        () => r.push(chunk),
        (error: unknown) => {
            assert.ok(error instanceof Utf8DecodeError);
            assert.equal(error.chunks.length, 1);
            assert.equal(error.chunks[0], chunk);
            assert.equal(error.pendingText, '');
            return true;
        },
    );
    assert.deepEqual(sink.events, ['one', 'two']);
});

test('reports every chunk of a record that spans three chunks when its last one is invalid', () => {
    const {reader: r, sink} = reader();
    const a = bytes('done\n{"x":"é');
    const b = bytes('🌙');
    const c = Buffer.concat([bytes('z'), Buffer.from([0xed, 0xa0, 0x80]), bytes('"}\n')]);
    r.push(a);
    r.push(b);
    assert.throws(
        () => r.push(c),
        (error: unknown) => {
            assert.ok(error instanceof Utf8DecodeError);
            assert.deepEqual(
                error.chunks.map((chunk) => chunk === a || chunk === b || chunk === c),
                [true, true, true],
            );
            assert.equal(error.chunks[0], a);
            assert.equal(error.chunks[1], b);
            assert.equal(error.chunks[2], c);
            assert.equal(error.pendingText, '{"x":"é🌙');
            return true;
        },
    );
    assert.deepEqual(sink.events, ['done']);
});

test('throws when a chunk without a line feed is invalid, naming the chunks of the record so far', () => {
    const {reader: r} = reader();
    const a = bytes('{"x":"ab');
    const b = Buffer.concat([Buffer.from([0xff]), bytes('cd')]);
    r.push(a);
    assert.throws(
        () => r.push(b),
        (error: unknown) => {
            assert.ok(error instanceof Utf8DecodeError);
            assert.equal(error.chunks.length, 2);
            assert.equal(error.chunks[0], a);
            assert.equal(error.chunks[1], b);
            assert.equal(error.pendingText, '{"x":"ab');
            return true;
        },
    );
});

test('throws at the end of input when the final record ends inside a multibyte sequence', () => {
    const {reader: r, sink} = reader();
    const chunk = Buffer.concat([bytes('ok\n{"x":"ab'), Buffer.from([0xe2, 0x82])]);
    r.push(chunk);
    assert.deepEqual(sink.events, ['ok']);
    assert.throws(
        () => r.end(),
        (error: unknown) => {
            assert.ok(error instanceof Utf8DecodeError);
            assert.equal(error.message, EXPECTED_UTF8_MESSAGE);
            assert.equal(error.chunks.length, 1);
            assert.equal(error.chunks[0], chunk);
            assert.equal(error.pendingText, '{"x":"ab');
            return true;
        },
    );
    assert.deepEqual(sink.events, ['ok']);
});

test('delivers nothing more after a decoding failure', () => {
    const {reader: r, sink} = reader();
    assert.throws(() => r.push(Buffer.from([0x80, 0x0a])), Utf8DecodeError);
    r.push(bytes('{"after":1}\n{"tail":2}'));
    r.push('{"text":3}\n');
    r.end();
    assert.deepEqual(sink.events, []);
});

test('accepts a record of exactly maxMessageBytes in one chunk and reports one byte over', () => {
    const {reader: r, sink} = reader(8);
    r.push(bytes('12345678\n123456789\néééé\nééééa\n'));
    assert.deepEqual(sink.events, ['12345678', {oversized: 9}, 'éééé', {oversized: 9}]);
});

test('applies maxMessageBytes to a record spanning chunks', () => {
    const {reader: r, sink} = reader(8);
    r.push(bytes('1234'));
    r.push(bytes('5678\n1234'));
    r.push(bytes('56789\n'));
    r.push(bytes('123456789'));
    r.push(bytes('0123'));
    r.push(bytes('45\nok\n'));
    assert.deepEqual(sink.events, ['12345678', {oversized: 9}, {oversized: 15}, 'ok']);
});

test('applies maxMessageBytes to the final record at the end of input', () => {
    const at = reader(8);
    at.reader.push(bytes('1234'));
    at.reader.push(bytes('5678'));
    at.reader.end();
    assert.deepEqual(at.sink.events, ['12345678']);

    const over = reader(8);
    over.reader.push(bytes('1234'));
    over.reader.push(bytes('56789'));
    over.reader.end();
    assert.deepEqual(over.sink.events, [{oversized: 9}]);
});

test('applies maxMessageBytes to string input by its UTF-8 length', () => {
    const {reader: r, sink} = reader(8);
    r.push('12345678\n123456789\néééé\n');
    r.push('éé');
    r.push('éé\nééé');
    r.push('éa\n');
    r.push('1234');
    r.push('56789');
    r.push('0\n1234');
    r.push('5678');
    r.end();
    assert.deepEqual(sink.events, [
        '12345678',
        {oversized: 9},
        'éééé',
        'éééé',
        {oversized: 9},
        {oversized: 10},
        '12345678',
    ]);
});

test('does not count the carriage return of a CRLF ending against maxMessageBytes', () => {
    const {reader: r, sink} = reader(8);
    r.push(bytes('12345678\r\n123456789\r\n'));
    r.push(bytes('1234'));
    r.push(bytes('5678\r'));
    r.push(bytes('\n1234'));
    r.push(bytes('5678\r\n'));
    r.push('12345678\r\n');
    r.push('1234');
    r.push('5678\r\n');
    r.push(bytes('12345678\r'));
    r.end();
    assert.deepEqual(sink.events, [
        '12345678',
        {oversized: 9},
        '12345678',
        '12345678',
        '12345678',
        '12345678',
        '12345678',
    ]);
});

test('decodes the next record normally after an oversized record that ended inside a character', () => {
    const {reader: r, sink} = reader(4);
    r.push(Buffer.from([0x61, 0x62, 0xc3]));
    r.push(Buffer.concat([Buffer.from([0xa9]), bytes('cd\n')]));
    r.push(bytes('{}\n'));
    r.push(Buffer.from([0x61, 0xf0, 0x9f]));
    r.push(Buffer.concat([Buffer.from([0x8c, 0x99]), bytes('xy\n')]));
    r.push(bytes('[1]\n'));
    assert.deepEqual(sink.events, [{oversized: 6}, '{}', {oversized: 7}, '[1]']);
});

test('delivers the ASCII lines of a chunk that holds several, CRLF and empty lines included, and keeps its partial last line', () => {
    const {reader: r, sink} = reader();
    r.push(bytes('{"a":1}\r\n\n\r\n{"b":2}\n\r\r\n{"c"'));
    assert.deepEqual(sink.events, ['{"a":1}', '{"b":2}', '\r']);
    r.push(bytes(':3}\n'));
    assert.deepEqual(sink.events, ['{"a":1}', '{"b":2}', '\r', '{"c":3}']);
});

test('applies maxMessageBytes to each line of a chunk that holds several', () => {
    const {reader: r, sink} = reader(4);
    r.push(bytes('abcd\nabcde\r\nab\r\nabcdef\nx\n'));
    assert.deepEqual(sink.events, ['abcd', {oversized: 5}, 'ab', {oversized: 6}, 'x']);
});

test('decodes a chunk of several lines that is not all ASCII line by line, with the same records', () => {
    const {reader: r, sink} = reader(4);
    // "é" is two bytes, "€" three: the limit counts bytes, not characters.
    r.push(bytes('ab\néé\n€€\n\uFFFD\n\r\nz\n'));
    assert.deepEqual(sink.events, ['ab', 'éé', {oversized: 6}, '\uFFFD', 'z']);
});

test('delivers every line of a chunk longer than one decoding region, a line longer than a region and a late non-ASCII line included', () => {
    const {reader: r, sink} = reader(20000);
    const lines: string[] = [];
    for (let index = 0; index < 300; index += 1) lines.push(`{"id":${index},"pad":"${'x'.repeat(30)}"}`);
    lines.splice(150, 0, `{"long":"${'y'.repeat(9000)}"}`);
    lines.splice(280, 0, '{"text":"café"}');
    r.push(bytes(`${lines.join('\r\n')}\n`));
    assert.deepEqual(sink.events, lines);
});

test('reads a chunk of several lines with an invalid byte line by line: the records before it, then the error', () => {
    const {reader: r, sink} = reader();
    const chunk = Buffer.from([0x61, 0x0a, 0xff, 0x0a, 0x62, 0x0a]);
    assert.throws(
        () => r.push(chunk),
        (error: unknown) => {
            assert.ok(error instanceof Utf8DecodeError);
            assert.deepEqual(error.chunks, [chunk]);
            assert.equal(error.pendingText, '');
            return true;
        },
    );
    assert.deepEqual(sink.events, ['a']);
});

test('skips an oversized line of invalid bytes in a chunk of several lines without decoding it', () => {
    const {reader: r, sink} = reader(4);
    r.push(Buffer.concat([bytes('ab\n'), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]), bytes('\ncd\n')]));
    assert.deepEqual(sink.events, ['ab', {oversized: 5}, 'cd']);
});

test('stops delivering in the middle of a chunk of ASCII lines when halted, also by an oversized report', () => {
    const sink = new Recorder();
    const r = new LineReader(
        {
            receive: (text) => sink.receive(text),
            oversized: (size) => {
                sink.oversized(size);
                r.halt();
            },
        },
        3,
    );
    r.push(bytes('a\nbcde\nf\ng'));
    r.push(bytes('h\n'));
    r.end();
    assert.deepEqual(sink.events, ['a', {oversized: 4}]);
});

test('stops delivering in the middle of a chunk when halted', () => {
    const {reader: r, sink} = reader();
    sink.onReceive = (text) => {
        if (text === 'stop') r.halt();
    };
    r.push(bytes('a\nstop\nb\nc'));
    r.push(bytes('d\n'));
    r.end();
    assert.deepEqual(sink.events, ['a', 'stop']);

    const text = reader();
    text.sink.onReceive = (line) => {
        if (line === 'stop') text.reader.halt();
    };
    text.reader.push('a\nstop\nb\nc');
    text.reader.end();
    assert.deepEqual(text.sink.events, ['a', 'stop']);
});

// --- Properties ---------------------------------------------------------------------------------

/** Records of any Unicode (astral characters and stray carriage returns included), no line feed. */
const recordText = fc
    .string({
        unit: fc.oneof(
            fc.string({unit: 'grapheme', minLength: 1, maxLength: 1}),
            fc.constantFrom('🌙', 'é', '€', '\r', '"', '\\', '\u0000', '\u2028'),
        ),
        maxLength: 12,
    })
    .map((text) => text.replaceAll('\n', ' '));

const stream = fc.record({
    records: fc.array(fc.record({text: recordText, crlf: fc.boolean()}), {maxLength: 8}),
    unterminatedLast: fc.boolean(),
    cuts: fc.array(fc.nat(), {maxLength: 12}),
});

interface Stream {
    records: {text: string; crlf: boolean}[];
    unterminatedLast: boolean;
    cuts: number[];
}

function encode({records, unterminatedLast}: Stream): Buffer {
    const text = records
        .map(({text, crlf}, index) => {
            if (unterminatedLast && index === records.length - 1) return text;
            return text + (crlf ? '\r\n' : '\n');
        })
        .join('');
    return bytes(text);
}

function split(whole: Buffer, cuts: number[]): Buffer[] {
    const points = [...new Set(cuts.map((cut) => (whole.length === 0 ? 0 : cut % (whole.length + 1))))].sort(
        (a, b) => a - b,
    );
    const chunks: Buffer[] = [];
    let start = 0;
    for (const point of points) {
        chunks.push(whole.subarray(start, point));
        start = point;
    }
    chunks.push(whole.subarray(start));
    return chunks;
}

function read(chunks: Buffer[], maxBytes: number): Event[] {
    const {reader: r, sink} = reader(maxBytes);
    for (const chunk of chunks) r.push(chunk);
    r.end();
    return sink.events;
}

/** What a record becomes: its line without one trailing carriage return, unless empty or too long. */
function model({records, unterminatedLast}: Stream, maxBytes: number): Event[] {
    const events: Event[] = [];
    for (const [index, {text, crlf}] of records.entries()) {
        const terminated = !(unterminatedLast && index === records.length - 1);
        const line = terminated && crlf ? `${text}\r` : text;
        const record = line.endsWith('\r') ? line.slice(0, -1) : line;
        if (record === '') continue;
        const size = Buffer.byteLength(record);
        events.push(size > maxBytes ? {oversized: size} : record);
    }
    return events;
}

test('property: any split of a valid byte stream yields exactly the records of the unsplit stream', () => {
    fc.assert(
        fc.property(stream, (input) => {
            const whole = encode(input);
            const unsplit = read([whole], 1024);
            assert.deepEqual(read(split(whole, input.cuts), 1024), unsplit);
            assert.deepEqual(unsplit, model(input, 1024));
        }),
        {numRuns: 300},
    );
});

test('property: the size limit gives the same verdicts whatever the split', () => {
    fc.assert(
        fc.property(stream, fc.integer({min: 1, max: 24}), (input, maxBytes) => {
            const whole = encode(input);
            assert.deepEqual(read(split(whole, input.cuts), maxBytes), model(input, maxBytes));
        }),
        {numRuns: 300},
    );
});

test('property: any split of the same text given as strings yields the records of the byte stream', () => {
    fc.assert(
        fc.property(stream, fc.integer({min: 1, max: 24}), (input, maxBytes) => {
            const whole = encode(input);
            const text = whole.toString('utf8');
            // Cut between characters only: a string source never splits a surrogate pair.
            const characters = [...text];
            const points = [...new Set(input.cuts.map((cut) => cut % (characters.length + 1)))].sort(
                (a, b) => a - b,
            );
            const {reader: r, sink} = reader(maxBytes);
            let start = 0;
            for (const point of [...points, characters.length]) {
                r.push(characters.slice(start, point).join(''));
                start = point;
            }
            r.end();
            assert.deepEqual(sink.events, read([whole], maxBytes));
        }),
        {numRuns: 300},
    );
});
