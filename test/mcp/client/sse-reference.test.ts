/**
 * Our SSE parser against a kept one (`eventsource-parser`) over generated event streams, our side
 * fed at arbitrary byte boundaries. The reference is fed the whole stream decoded as the standard
 * says (UTF-8, one leading byte order mark removed). Where the two differ by design, the harness
 * adapts the reference, not our parser: it reports the `id` set within each dispatched event where
 * the standard keeps the last event id across events, so the expected id is carried forward here;
 * it names an empty or missing type `undefined`, which is `message`; and it waits for a possible
 * LF after a CR that ends the stream, which is a complete line ending by then.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createParser} from 'eventsource-parser';
import fc from 'fast-check';
import type {SseEvent} from '../../../lib/mcp/client/sse.js';
import {SseParser} from '../../../lib/mcp/client/sse.js';

interface Parsed {
    events: SseEvent[];
    retries: number[];
}

function reference(bytes: Uint8Array): Parsed {
    const events: SseEvent[] = [];
    const retries: number[] = [];
    let lastEventId = '';
    const parser = createParser({
        onEvent(event) {
            if (event.id !== undefined) lastEventId = event.id;
            events.push({type: event.event ?? 'message', data: event.data, lastEventId});
        },
        onRetry: (retry) => retries.push(retry),
    });
    let text = new TextDecoder().decode(bytes);
    if (text.endsWith('\r')) text += '\n';
    parser.feed(text);
    return {events, retries};
}

function ours(bytes: Uint8Array, cuts: readonly number[]): Parsed {
    const events: SseEvent[] = [];
    const retries: number[] = [];
    const parser = new SseParser(
        {
            event: (event) => events.push(event),
            retry: (retry) => retries.push(retry),
            oversized: (size) => assert.fail(`no event should be over the limit, got ${size} bytes`),
        },
        Number.MAX_SAFE_INTEGER,
    );
    let start = 0;
    for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
        parser.push(bytes.subarray(start, cut));
        start = cut;
    }
    parser.push(bytes.subarray(start));
    parser.end();
    return {events, retries};
}

const utf8 = (text: string): number[] => [...Buffer.from(text, 'utf8')];

/** A field value: text or raw bytes (possibly not UTF-8), never CR or LF. */
const value = fc
    .oneof(
        fc.constantFrom('', ' ', '  x', ':', 'a:b', '{"jsonrpc":"2.0"}', '\0', '12', ' 3').map(utf8),
        fc.string({unit: 'grapheme', maxLength: 8}).map(utf8),
        fc.uint8Array({maxLength: 8}).map((raw) => [...raw]),
    )
    .map((bytes) => bytes.map((b) => (b === 0x0a || b === 0x0d ? 0x78 : b)));

const name = fc.constantFrom('data', 'data', 'data', 'event', 'retry', 'id', 'Data', 'foo', '', 'dat');

/** A non-empty line: a field with or without a colon, or a comment. */
const line = fc.oneof(
    fc.tuple(name, fc.constantFrom(':', ': ', ':  '), value).map(([n, sep, v]) => [...utf8(n + sep), ...v]),
    name.filter((n) => n !== '').map(utf8),
    fc
        .tuple(fc.constantFrom('retry: ', 'retry:'), fc.stringMatching(/^[0-9]{1,6}$/))
        .map(([a, b]) => utf8(a + b)),
    value.map((v) => [0x3a, ...v]),
);

const ending = fc.constantFrom([0x0a], [0x0d], [0x0d, 0x0a]);

/**
 * A block of lines closed by an empty line (or not, for the last one). A block that sets an id
 * also has a data line, so that the reference, which reports ids only with dispatched events,
 * sees every id the standard would keep.
 */
const block = fc
    .tuple(fc.array(fc.tuple(line, ending), {maxLength: 5}), ending, ending)
    .map(([lines, end, dataEnd]) => {
        const out: number[] = [];
        let setsId = false;
        for (const [l, e] of lines) {
            out.push(...l, ...e);
            if (l[0] === 0x69 && l[1] === 0x64 && (l.length === 2 || l[2] === 0x3a)) setsId = true;
        }
        if (setsId) out.push(...utf8('data'), ...dataEnd);
        return {lines: out, end};
    });

const stream = fc
    .tuple(fc.boolean(), fc.array(block, {maxLength: 6}), fc.boolean())
    .map(([bom, blocks, closeLast]) => {
        const out: number[] = bom ? [0xef, 0xbb, 0xbf] : [];
        blocks.forEach((b, i) => {
            out.push(...b.lines);
            if (i < blocks.length - 1 || closeLast) out.push(...b.end);
        });
        return Uint8Array.from(out);
    });

const cuts = fc.array(fc.nat(), {maxLength: 12});

test('our parser dispatches what eventsource-parser dispatches, at any chunk boundaries', () => {
    fc.assert(
        fc.property(stream, cuts, (bytes, at) => {
            assert.deepEqual(ours(bytes, at), reference(bytes));
        }),
        {numRuns: 2000},
    );
});

test('one byte at a time gives what one whole chunk gives', () => {
    fc.assert(
        fc.property(stream, (bytes) => {
            const every = Array.from({length: bytes.length}, (_, i) => i);
            assert.deepEqual(ours(bytes, every), ours(bytes, []));
        }),
        {numRuns: 500},
    );
});

test('the comparison sees real events: a typical MCP stream parses the same both ways', () => {
    const bytes = Buffer.from(
        'id: s1-0\nretry: 3000\ndata:\n\n' +
            ': keep-alive\r\n\r\n' +
            'event: message\r\nid: s1-1\r\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\r\n\r\n' +
            'event: message\rid: s1-2\rdata: {"jsonrpc":"2.0","id":1,\rdata: "result":{}}\r\r',
    );
    const expected: Parsed = {
        events: [
            {type: 'message', data: '', lastEventId: 's1-0'},
            {
                type: 'message',
                data: '{"jsonrpc":"2.0","method":"notifications/progress"}',
                lastEventId: 's1-1',
            },
            {type: 'message', data: '{"jsonrpc":"2.0","id":1,\n"result":{}}', lastEventId: 's1-2'},
        ],
        retries: [3000],
    };
    assert.deepEqual(reference(bytes), expected);
    assert.deepEqual(ours(bytes, [1, 5, 40, 41, 100]), expected);
});
