/**
 * Property tests over generated sessions: valid, invalid, truncated and oversized records, in
 * random chunks with random line endings, with cancellations aimed at earlier, later and unknown
 * requests. Every run checks the whole output against a model of what must be answered.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import type {CallToolResult} from '../../lib/mcp/stdio/index.js';
import {createMcpStdioServer, Utf8DecodeError} from '../../lib/mcp/stdio/index.js';
import {inputStream, Sink} from '../helpers/streams.js';
import {initializeRecord, responses, text, watchEscapes} from './support.js';

const LIMIT = 2048;

type Step =
    | {kind: 'echo'; value: string}
    | {kind: 'hold'}
    | {kind: 'later'}
    | {kind: 'throw'}
    | {kind: 'ping'}
    | {kind: 'unknown-method'; method: string}
    | {kind: 'bad-version'}
    | {kind: 'cancel'; target: number; viaServer: boolean}
    | {kind: 'notify'; method: string}
    | {kind: 'client-response'}
    | {kind: 'garbage'; line: string}
    | {kind: 'truncated'; value: string; cut: number}
    | {kind: 'oversized'; extra: number}
    | {kind: 'bad-id'; id: unknown};

/** Text that JSON.parse rejects, or parses to something that is not an object. */
const garbage = fc
    .string({unit: 'grapheme', maxLength: 40})
    .map((line) => line.replaceAll('\n', ' '))
    .filter((line) => {
        try {
            const parsed: unknown = JSON.parse(line);
            return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
        } catch {
            return true;
        }
    });

const step: fc.Arbitrary<Step> = fc.oneof(
    {
        arbitrary: fc.record({
            kind: fc.constant('echo' as const),
            value: fc.string({unit: 'binary', maxLength: 30}),
        }),
        weight: 4,
    },
    {arbitrary: fc.constant({kind: 'hold' as const}), weight: 4},
    {arbitrary: fc.constant({kind: 'later' as const}), weight: 2},
    {arbitrary: fc.constant({kind: 'throw' as const}), weight: 1},
    {arbitrary: fc.constant({kind: 'ping' as const}), weight: 1},
    {
        arbitrary: fc.record({
            kind: fc.constant('unknown-method' as const),
            method: fc.string({maxLength: 12}),
        }),
        weight: 1,
    },
    {arbitrary: fc.constant({kind: 'bad-version' as const}), weight: 1},
    {
        arbitrary: fc.record({
            kind: fc.constant('cancel' as const),
            target: fc.nat(60),
            viaServer: fc.boolean(),
        }),
        weight: 4,
    },
    {
        arbitrary: fc.record({kind: fc.constant('notify' as const), method: fc.string({maxLength: 12})}),
        weight: 1,
    },
    {arbitrary: fc.constant({kind: 'client-response' as const}), weight: 1},
    {arbitrary: fc.record({kind: fc.constant('garbage' as const), line: garbage}), weight: 2},
    {
        arbitrary: fc.record({
            kind: fc.constant('truncated' as const),
            value: fc.string({unit: 'grapheme', maxLength: 20}),
            cut: fc.nat(),
        }),
        weight: 2,
    },
    {
        arbitrary: fc.record({
            kind: fc.constant('oversized' as const),
            extra: fc.integer({min: 1, max: 3 * LIMIT}),
        }),
        weight: 1,
    },
    {
        arbitrary: fc.record({
            kind: fc.constant('bad-id' as const),
            id: fc.oneof(
                fc.constant(null),
                fc.double({noInteger: true, noNaN: true}),
                fc.boolean(),
                fc.constant({}),
            ),
        }),
        weight: 1,
    },
);

const session = fc.record({
    steps: fc.array(step, {maxLength: 40}),
    /** Per record: end it with CRLF instead of LF. */
    crlf: fc.array(fc.boolean(), {minLength: 40, maxLength: 40}),
    /** Cut points, as fractions of the byte stream. */
    cuts: fc.array(fc.double({min: 0, max: 1, noNaN: true}), {maxLength: 12}),
    /** Leave the last record without its line feed (EOF ends it). */
    openEnded: fc.boolean(),
});

type Expectation = 'once' | 'never' | 'at-most-once';

interface Plan {
    lines: string[];
    /** Request ids and how often each must be answered. */
    expect: Map<string | number, Expectation>;
    /** How many errors without an id must be written. */
    idless: number;
    /** Ids the server must never answer: client responses. */
    foreign: Set<string>;
    /** Expected results of the echo calls. */
    echoes: Map<string | number, string>;
    /** Server-side cancellations, by the index of the step after which they happen. */
    serverCancels: Map<number, string | number>;
}

function plan(steps: Step[]): Plan {
    const lines: string[] = [];
    const expect = new Map<string | number, Expectation>();
    const echoes = new Map<string | number, string>();
    const foreign = new Set<string>();
    const serverCancels = new Map<number, string | number>();
    /** Requests in stream order, with the tool that serves them. */
    const requests: {id: string | number; kind: string}[] = [];
    let idless = 0;
    const idFor = (index: number): string | number => (index % 2 === 0 ? index : `r${index}`);
    const call = (id: string | number, name: string, args?: unknown) =>
        JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: args === undefined ? {name} : {name, arguments: args},
        });
    steps.forEach((entry, index) => {
        const id = idFor(index);
        switch (entry.kind) {
            case 'echo':
                lines.push(call(id, 'echo', {value: entry.value}));
                expect.set(id, 'once');
                echoes.set(id, entry.value);
                requests.push({id, kind: 'echo'});
                return;
            case 'hold':
            case 'later':
            case 'throw':
                lines.push(call(id, entry.kind));
                expect.set(id, 'once');
                requests.push({id, kind: entry.kind});
                return;
            case 'ping':
                lines.push(JSON.stringify({jsonrpc: '2.0', id, method: 'ping'}));
                expect.set(id, 'once');
                return;
            case 'unknown-method':
                lines.push(JSON.stringify({jsonrpc: '2.0', id, method: `x/${entry.method}`}));
                expect.set(id, 'once');
                return;
            case 'bad-version':
                lines.push(JSON.stringify({jsonrpc: '1.0', id, method: 'ping'}));
                expect.set(id, 'once');
                return;
            case 'cancel': {
                const target = requests.length === 0 ? undefined : requests[entry.target % requests.length];
                const targetId = target?.id ?? `unknown${index}`;
                if (entry.viaServer) {
                    serverCancels.set(lines.length, targetId);
                    // Whether the record is read before the server's cancel is the stream's business.
                    if (target !== undefined && target.kind !== 'echo') expect.set(targetId, 'at-most-once');
                    return;
                }
                lines.push(
                    JSON.stringify({
                        jsonrpc: '2.0',
                        method: 'notifications/cancelled',
                        params: {requestId: targetId},
                    }),
                );
                if (target === undefined) return;
                // Held calls settle only after EOF, so a later cancel always reaches them; a
                // `later` call settles within a microtask, which may come before or after.
                if (target.kind === 'hold' && expect.get(targetId) === 'once') expect.set(targetId, 'never');
                if (target.kind === 'later' || target.kind === 'throw') expect.set(targetId, 'at-most-once');
                return;
            }
            case 'notify':
                lines.push(JSON.stringify({jsonrpc: '2.0', method: `notifications/${entry.method}`}));
                return;
            case 'client-response':
                foreign.add(`resp${index}`);
                lines.push(JSON.stringify({jsonrpc: '2.0', id: `resp${index}`, result: {}}));
                return;
            case 'garbage':
                lines.push(entry.line);
                if (entry.line.replace(/\r$/, '') !== '') idless += 1;
                return;
            case 'truncated': {
                const whole = call(id, 'echo', {value: entry.value});
                const prefix = whole.slice(0, entry.cut % whole.length);
                lines.push(prefix);
                if (prefix.replace(/\r$/, '') !== '') idless += 1;
                return;
            }
            case 'oversized':
                lines.push('o'.repeat(LIMIT + entry.extra));
                idless += 1;
                return;
            case 'bad-id':
                lines.push(JSON.stringify({jsonrpc: '2.0', id: entry.id, method: 'ping'}));
                idless += 1;
                return;
        }
    });
    return {lines, expect, idless, foreign, echoes, serverCancels};
}

function chunk(bytes: Buffer, cuts: number[]): Buffer[] {
    const points = [...new Set(cuts.map((cut) => Math.floor(cut * bytes.length)))].sort((a, b) => a - b);
    const chunks: Buffer[] = [];
    let start = 0;
    for (const point of [...points, bytes.length]) {
        if (point > start) chunks.push(bytes.subarray(start, point));
        start = Math.max(start, point);
    }
    return chunks;
}

test('generated sessions answer every request exactly once unless cancelled, and nothing else', async () => {
    const escapes = watchEscapes();
    await fc.assert(
        fc.asyncProperty(session, async ({steps, crlf, cuts, openEnded}) => {
            const {lines, expect, idless, foreign, echoes, serverCancels} = plan(steps);
            const held: (() => void)[] = [];
            const input = inputStream();
            const output = new Sink();
            const errors = new Sink();
            const server = createMcpStdioServer({
                serverInfo: {name: 'properties', version: '1'},
                maxMessageBytes: LIMIT,
                tools: [
                    {
                        name: 'echo',
                        inputSchema: {type: 'object'},
                        handler: (args) => text(String(args.value)),
                    },
                    {
                        name: 'hold',
                        inputSchema: {type: 'object'},
                        handler: (_args, {signal}) =>
                            new Promise<CallToolResult>((resolve, reject) => {
                                signal.addEventListener('abort', () => reject(signal.reason));
                                held.push(() => resolve(text('held')));
                            }),
                    },
                    {name: 'later', inputSchema: {type: 'object'}, handler: async () => text('later')},
                    {
                        name: 'throw',
                        inputSchema: {type: 'object'},
                        handler: async () => {
                            throw new Error('thrown');
                        },
                    },
                ],
            }).start({input, output, error: errors});
            // Registered after the server's own listener: every record has been read by now.
            input.on('end', () => {
                for (const release of held) release();
            });
            const records = lines.map((line, index) => `${line}${crlf[index % crlf.length] ? '\r\n' : '\n'}`);
            const last = records.length - 1;
            if (openEnded && last >= 0) records[last] = lines[last] as string;
            // Server-side cancels happen between the chunks of their own segment.
            let from = 0;
            const segments: {bytes: Buffer; cancel?: string | number}[] = [
                {bytes: Buffer.from(initializeRecord)},
            ];
            for (const [at, target] of [...serverCancels].sort((a, b) => a[0] - b[0])) {
                segments.push({bytes: Buffer.from(records.slice(from, at).join('')), cancel: target});
                from = at;
            }
            segments.push({bytes: Buffer.from(records.slice(from).join(''))});
            for (const segment of segments) {
                for (const piece of chunk(segment.bytes, cuts)) input.push(piece);
                if (segment.cancel !== undefined) server.cancel(segment.cancel);
            }
            input.push(null);
            await server.closed;

            const written = responses(output.text);
            assert.deepEqual(written[0]?.id, 'init');
            const counts = new Map<string | number, number>();
            let idlessSeen = 0;
            for (const record of written.slice(1)) {
                if (record.id === undefined) {
                    idlessSeen += 1;
                    continue;
                }
                assert.ok(!foreign.has(record.id as string), `answered a client response: ${record.id}`);
                assert.ok(
                    expect.has(record.id),
                    `answered an id that was never requested: ${JSON.stringify(record.id)}`,
                );
                counts.set(record.id, (counts.get(record.id) ?? 0) + 1);
                const echoed = echoes.get(record.id);
                if (echoed !== undefined) {
                    assert.deepEqual(record.result, {content: [{type: 'text', text: echoed}]});
                }
            }
            assert.equal(idlessSeen, idless, 'errors without an id');
            for (const [id, expectation] of expect) {
                const count = counts.get(id) ?? 0;
                if (expectation === 'once') assert.equal(count, 1, `request ${JSON.stringify(id)}`);
                if (expectation === 'never')
                    assert.equal(count, 0, `cancelled request ${JSON.stringify(id)}`);
                if (expectation === 'at-most-once') assert.ok(count <= 1, `request ${JSON.stringify(id)}`);
            }
        }),
        {numRuns: 150},
    );
    assert.deepEqual(escapes.stop(), []);
});

/** Bytes that are mostly records, with anything at all mixed in. */
const soup = fc.array(
    fc.oneof(
        fc.uint8Array({maxLength: 24}),
        fc.constantFrom(
            '\n',
            '\r\n',
            '{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
            '{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"echo","arguments":{}}}\n',
            '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}\n',
            '{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n',
            '\u00e9\u{1F319}',
        ),
    ),
    {maxLength: 30},
);

test('arbitrary bytes in arbitrary chunks never throw, and closed settles with only whole records written', async () => {
    const escapes = watchEscapes();
    await fc.assert(
        fc.asyncProperty(
            soup,
            fc.array(fc.double({min: 0, max: 1, noNaN: true}), {maxLength: 8}),
            async (parts, cuts) => {
                const bytes = Buffer.concat(
                    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
                );
                const input = inputStream();
                const output = new Sink();
                const errors = new Sink();
                const server = createMcpStdioServer({
                    serverInfo: {name: 'properties', version: '1'},
                    maxMessageBytes: 64,
                    tools: [{name: 'echo', inputSchema: {type: 'object'}, handler: async () => text('echo')}],
                }).start({input, output, error: errors});
                for (const piece of chunk(bytes, cuts)) input.push(piece);
                input.push(null);
                let failure: unknown;
                await server.closed.catch((error: unknown) => {
                    failure = error;
                });
                if (failure !== undefined) {
                    assert.ok(failure instanceof AggregateError);
                    assert.equal(failure.errors.length, 1);
                    assert.ok(failure.errors[0] instanceof Utf8DecodeError);
                }
                responses(output.text);
                assert.equal(errors.text === '' || errors.text.endsWith('\n'), true);
            },
        ),
        {numRuns: 300},
    );
    assert.deepEqual(escapes.stop(), []);
});
