/**
 * A seeded fuzz against a hostile stdio server (`fixtures/hostile-server.ts`): garbage lines,
 * bytes that are not UTF-8, lines over `maxMessageBytes`, JSON that is not JSON-RPC, answers to
 * unknown and already answered ids, answers of the wrong shape, silence, exits, all of it written
 * in split chunks. The plan of each session comes from the seed, so the test predicts, in both
 * modes, how every call ends and which problems reach `onProtocolError`, and checks it exactly:
 * every call settles, no child is left, nothing is unhandled.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {McpClient, McpProtocolErrorKind} from '../../../lib/mcp/client/index.js';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import type {CallPlan, Finish, HostilePlan} from './fixtures/hostile-server.js';
import {assertGone, Wire} from './support.js';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-server.js', import.meta.url));
const SEED = 0x2545f491;
/** Sessions per mode. */
const SESSIONS = 60;
const PARALLEL = 8;
const MAX_BYTES = 1024;

/** mulberry32: small, fast and the same everywhere. */
function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

interface Piece {
    bytes: Buffer;
    /** The kind the client reports, or undefined for a line it accepts. */
    kind: McpProtocolErrorKind | undefined;
}

const NOT_JSON_RPC = [
    '[]',
    '42',
    'null',
    '"text"',
    '{"jsonrpc":"1.0","method":"x"}',
    '{"jsonrpc":"2.0","id":1.5}',
    '{"a":1}',
];
const INVALID_UTF8 = [
    [0xff],
    [0x80],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xe2, 0x82],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
];
const FINISHES: [Finish, number][] = [
    ['answer', 50],
    ['error', 10],
    ['no-result', 7],
    ['bad-shape', 7],
    ['silent', 8],
    ['exit', 6],
];

function makePlan(rand: () => number): {plan: HostilePlan; banner: Piece | undefined; pieces: Piece[][]} {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
    const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
    const ascii = (length: number) =>
        Array.from({length}, () => String.fromCharCode(int(0x20, 0x7e))).join('');
    const line = (text: string, kind: McpProtocolErrorKind | undefined): Piece => ({
        bytes: Buffer.from(`${text}\n`),
        kind,
    });
    const answered: number[] = [1];
    const stray = (): Piece => {
        switch (int(0, 6)) {
            case 0:
                return line(`log ${ascii(int(0, 300))}`, 'not-json');
            case 1: {
                const bytes = Buffer.concat([
                    Buffer.from(ascii(int(0, 20))),
                    Buffer.from(pick(INVALID_UTF8)),
                    Buffer.from(`${ascii(int(0, 20))}\n`),
                ]);
                return {bytes, kind: 'not-utf8'};
            }
            case 2:
                return line(`{"x":"${'x'.repeat(int(MAX_BYTES, 20_000))}"}`, 'oversized');
            case 3:
                return line(pick(NOT_JSON_RPC), 'not-json-rpc');
            case 4:
                return line(`{"jsonrpc":"2.0","id":${pick(answered)},"result":{}}`, 'unmatched-response');
            case 5:
                return line(
                    pick([
                        '{"jsonrpc":"2.0","id":99999,"result":{}}',
                        '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
                        '{"jsonrpc":"2.0","id":"zz","error":{"code":1,"message":"m"}}',
                    ]),
                    'unmatched-response',
                );
            default:
                return line(
                    pick([
                        '{"jsonrpc":"2.0","id":"p","method":"ping"}',
                        '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\r',
                        '',
                    ]),
                    undefined,
                );
        }
    };
    const banner = rand() < 0.1 ? line(`hostile server ${ascii(int(0, 40))}`, 'not-json') : undefined;
    const calls: CallPlan[] = [];
    const pieces: Piece[][] = [];
    const count = int(3, 6);
    for (let index = 0; index < count; index += 1) {
        let roll = rand() * 88;
        let finish: Finish = 'answer';
        for (const [candidate, weight] of FINISHES) {
            if (roll < weight) {
                finish = candidate;
                break;
            }
            roll -= weight;
        }
        // A silent call times out: strays before it could be read after the test moved on.
        const own = finish === 'silent' ? [] : Array.from({length: int(0, 3)}, stray);
        const pre = Buffer.concat(own.map((piece) => piece.bytes));
        const big = pre.length > 4096;
        const chunks =
            rand() < 0.4 ? Array.from({length: int(1, 4)}, () => (big ? int(1000, 16_384) : int(1, 9))) : [];
        calls.push({pre: pre.toString('base64'), finish, chunks});
        pieces.push(own);
        if (finish !== 'silent' && finish !== 'exit') answered.push(index + 2);
    }
    const plan: HostilePlan = {calls};
    if (banner !== undefined) plan.banner = banner.bytes.toString();
    return {plan, banner, pieces};
}

type Outcome = string;

/** What each call gives and which kinds are told, predicted from the plan. */
function predict(
    made: ReturnType<typeof makePlan>,
    strict: boolean,
): {connect: Outcome; calls: Outcome[]; told: McpProtocolErrorKind[]} {
    const told: McpProtocolErrorKind[] = [];
    const tell = (piece: Piece | undefined): boolean => {
        if (piece?.kind === undefined) return false;
        told.push(piece.kind);
        return strict;
    };
    if (tell(made.banner)) return {connect: 'McpProtocolViolationError', calls: [], told};
    const calls: Outcome[] = [];
    let over = false;
    made.plan.calls.forEach((call, index) => {
        if (over) {
            calls.push('McpConnectionError');
            return;
        }
        for (const piece of made.pieces[index] ?? []) {
            if (tell(piece)) {
                calls.push('McpProtocolViolationError');
                over = true;
                return;
            }
        }
        const id = index + 2;
        const outcome: Record<Finish, Outcome> = {
            answer: `answer ${id}`,
            error: `McpRemoteError refused ${id}`,
            'no-result': 'McpProtocolViolationError',
            'bad-shape': 'McpProtocolViolationError',
            silent: 'McpTimeoutError',
            exit: 'McpConnectionError',
        };
        calls.push(outcome[call.finish]);
        if (call.finish === 'exit') over = true;
    });
    return {connect: 'ok', calls, told};
}

function describeOutcome(settled: PromiseSettledResult<unknown>): Outcome {
    if (settled.status === 'fulfilled') {
        return ((settled.value as {content: {text: string}[]}).content[0] as {text: string}).text;
    }
    const error = settled.reason as Error;
    return error.name === 'McpRemoteError' ? `McpRemoteError ${error.message}` : error.name;
}

/** What the plans held, across one mode's sessions: so that a generator gone tame fails the test. */
const seen = new Map<string, number>();

async function session(index: number, strict: boolean): Promise<void> {
    const made = makePlan(random(SEED + index));
    for (const piece of [made.banner, ...made.pieces.flat()]) {
        if (piece?.kind !== undefined) seen.set(piece.kind, (seen.get(piece.kind) ?? 0) + 1);
    }
    for (const call of made.plan.calls) {
        seen.set(call.finish, (seen.get(call.finish) ?? 0) + 1);
        if (call.chunks.length > 0) seen.set('split', (seen.get('split') ?? 0) + 1);
    }
    const expected = predict(made, strict);
    const told: McpProtocolErrorKind[] = [];
    const wire = new Wire();
    let client: McpClient;
    try {
        client = await connectMcpClient({
            command: process.execPath,
            args: [HOSTILE, JSON.stringify(made.plan)],
            stderr: wire.stderr,
            maxMessageBytes: MAX_BYTES,
            exitGraceMs: 500,
            terminateGraceMs: 500,
            strict,
            onProtocolError: (event) => told.push(event.kind),
        });
    } catch (error) {
        const actual = {connect: (error as Error).name, calls: [], told};
        assert.deepEqual(actual, expected, `session ${index}, strict ${strict}`);
        assertGone(await wire.pid());
        return;
    }
    const calls: Outcome[] = [];
    for (const call of made.plan.calls) {
        const timeoutMs = call.finish === 'silent' ? 50 : 20_000;
        calls.push(
            describeOutcome((await Promise.allSettled([client.callTool('t', {}, {timeoutMs})]))[0] as never),
        );
    }
    await client.close();
    assert.deepEqual({connect: 'ok', calls, told}, expected, `session ${index}, strict ${strict}`);
    assertGone(await wire.pid());
}

for (const strict of [false, true]) {
    test(`fuzz, ${strict ? 'strict' : 'tolerant'}: ${SESSIONS} seeded hostile sessions end exactly as predicted`, {
        timeout: 120_000,
    }, async () => {
        seen.clear();
        const unhandled: unknown[] = [];
        const onUnhandled = (reason: unknown) => unhandled.push(reason);
        process.on('unhandledRejection', onUnhandled);
        try {
            let next = 0;
            const worker = async () => {
                while (next < SESSIONS) {
                    const index = next;
                    next += 1;
                    await session(index, strict);
                }
            };
            await Promise.all(Array.from({length: PARALLEL}, worker));
        } finally {
            process.off('unhandledRejection', onUnhandled);
        }
        assert.deepEqual(unhandled, []);
        const kinds = ['not-utf8', 'not-json', 'oversized', 'not-json-rpc', 'unmatched-response'];
        const finishes = FINISHES.map(([finish]) => finish);
        for (const name of [...kinds, ...finishes, 'split']) {
            assert.ok((seen.get(name) ?? 0) >= 5, `the plans held ${seen.get(name) ?? 0} of ${name}`);
        }
    });
}
