/**
 * The seeded generator of the HTTP fuzz suite: requests built from random picks among valid, odd
 * and hostile methods, headers and bodies, each with a way of going away (or none). The same seed
 * gives the same cases, so a failure replays.
 */
import {Buffer} from 'node:buffer';

/** mulberry32: a small, fast, seedable generator; `next()` is uniform in [0, 1). */
export class Random {
    #state: number;

    constructor(seed: number) {
        this.#state = seed >>> 0;
    }

    next(): number {
        this.#state = (this.#state + 0x6d2b79f5) >>> 0;
        let value = this.#state;
        value = Math.imul(value ^ (value >>> 15), value | 1);
        value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
        return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
    }

    int(below: number): number {
        return Math.floor(this.next() * below);
    }

    pick<Value>(values: readonly Value[]): Value {
        return values[this.int(values.length)] as Value;
    }

    chance(probability: number): boolean {
        return this.next() < probability;
    }

    /** Visible ASCII, what a header value may carry. */
    ascii(length: number): string {
        let text = '';
        for (let index = 0; index < length; index += 1) text += String.fromCharCode(0x21 + this.int(94));
        return text;
    }

    bytes(length: number): Buffer {
        const bytes = Buffer.alloc(length);
        for (let index = 0; index < length; index += 1) bytes[index] = this.int(256);
        return bytes;
    }
}

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
const META = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
};

/** How the client leaves: after the answer, mid-body, as soon as the answer starts, or at once. */
export type Leave = 'answer' | 'mid-body' | 'mid-answer' | 'at-once';

export interface FuzzCase {
    readonly method: string;
    readonly headers: Record<string, string>;
    readonly body: Buffer | undefined;
    readonly leave: Leave;
}

function jsonValue(random: Random, depth = 0): unknown {
    switch (random.int(depth > 2 ? 5 : 7)) {
        case 0:
            return null;
        case 1:
            return random.chance(0.5);
        case 2:
            return random.pick([0, -1, 1.5, 2 ** 53, Number.MAX_VALUE, 42]);
        case 3:
            return random.ascii(random.int(12));
        case 4:
            return random.pick(['tools/call', 'initialize', 'ping', '2.0', '']);
        case 5:
            return Array.from({length: random.int(4)}, () => jsonValue(random, depth + 1));
        default:
            return Object.fromEntries(
                Array.from({length: random.int(4)}, () => [
                    random.pick(['jsonrpc', 'id', 'method', 'params', '_meta', 'name', random.ascii(4)]),
                    jsonValue(random, depth + 1),
                ]),
            );
    }
}

function message(random: Random): unknown {
    const id = random.pick([1, 'a', 0, null, -7]);
    const name = random.pick(['echo', 'hold', 'burst', 'missing']);
    const args = random.chance(0.5)
        ? {region: random.pick(['eu', 'us', random.ascii(3)])}
        : jsonValue(random);
    const meta = random.chance(0.8) ? {...META, progressToken: random.int(3)} : jsonValue(random);
    switch (random.int(9)) {
        case 0:
            return {
                jsonrpc: '2.0',
                id,
                method: 'initialize',
                params: {protocolVersion: LEGACY, capabilities: {}, clientInfo: {name: 'fuzz', version: '1'}},
            };
        case 1:
            return {jsonrpc: '2.0', method: 'notifications/initialized'};
        case 2:
            return {jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: id}};
        case 3:
            return [{jsonrpc: '2.0', id, method: 'ping'}];
        case 4:
            return jsonValue(random);
        case 5:
            return {
                jsonrpc: '2.0',
                id,
                method: random.pick(['tools/list', 'resources/list', 'ping', 'nope/nope']),
            };
        default:
            return {jsonrpc: '2.0', id, method: 'tools/call', params: {name, arguments: args, _meta: meta}};
    }
}

function bodyOf(random: Random, value: unknown): Buffer {
    const text = JSON.stringify(value) ?? 'null';
    switch (random.int(12)) {
        case 0:
            return random.bytes(random.int(64));
        case 1:
            return Buffer.from(text.slice(0, random.int(text.length)));
        case 2:
            return Buffer.alloc(0);
        case 3:
            return Buffer.from(`${text}${' '.repeat(5000)}`); // over the suite's 4 KiB limit
        case 4:
            return Buffer.from(`\ufeff${text}`);
        default:
            return Buffer.from(text);
    }
}

/** One case; `sessions` are ids the handler gave out earlier, to be reused sometimes. */
export function fuzzCase(random: Random, sessions: readonly string[]): FuzzCase {
    const method = random.chance(0.8)
        ? 'POST'
        : random.pick(['GET', 'DELETE', 'PUT', 'OPTIONS', 'PATCH', 'HEAD']);
    const headers: Record<string, string> = {};
    // A clean case is well-formed for its era but for its body and how it leaves: it reaches the tools.
    const clean = random.chance(0.4);
    const legacyEra = clean && random.chance(0.5);
    const maybe = (header: string, values: readonly (string | undefined)[]) => {
        const value = clean ? values[0] : random.pick(values);
        if (value !== undefined) headers[header] = value;
    };
    maybe('content-type', [
        'application/json',
        'application/json',
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/json-seq',
        random.ascii(8),
        undefined,
    ]);
    maybe('accept', [
        'application/json, text/event-stream',
        'application/json, text/event-stream',
        'application/json, text/event-stream',
        'application/json, text/event-stream',
        'application/json',
        'text/event-stream',
        '*/*',
        'text/html',
        random.ascii(6),
        undefined,
    ]);
    maybe('mcp-protocol-version', [
        legacyEra ? LEGACY : MODERN,
        MODERN,
        MODERN,
        LEGACY,
        LEGACY,
        '2025-03-26',
        '1999-01-01',
        '',
        random.ascii(10),
        undefined,
    ]);
    const session = sessions.length > 0 && (clean ? legacyEra && random.chance(0.8) : random.chance(0.5));
    maybe('mcp-session-id', [
        session ? random.pick(sessions) : undefined,
        random.ascii(43),
        '',
        undefined,
        undefined,
    ]);
    const value = message(random);
    const sent = value as {method?: unknown; params?: {name?: unknown}} | null;
    const named = (field: unknown) => (typeof field === 'string' && random.chance(0.7) ? field : undefined);
    const requestMethod = named(sent?.method);
    if (requestMethod !== undefined) headers['mcp-method'] = requestMethod;
    else
        maybe('mcp-method', [
            'tools/call',
            'initialize',
            '=?base64?dG9vbHMvY2FsbA==?=',
            '=?base64?!!!?=',
            random.ascii(5),
            undefined,
        ]);
    const name = named(sent?.params?.name);
    if (name !== undefined) headers['mcp-name'] = name;
    else maybe('mcp-name', ['echo', '=?base64?ZWNobw==?=', random.ascii(4), undefined]);
    maybe('mcp-param-region', [
        'eu',
        'us',
        '=?base64?ZXU=?=',
        random.ascii(3),
        undefined,
        undefined,
        undefined,
    ]);
    if (!clean && random.chance(0.15))
        maybe('origin', ['http://localhost:5173', 'http://evil.example', 'null', random.ascii(12)]);
    if (!clean && random.chance(0.05))
        headers.host = random.pick(['evil.example', 'localhost:1', 'a b', 'q@w', random.ascii(7)]);
    if (random.chance(0.05))
        headers[
            `mcp-${random
                .ascii(4)
                .toLowerCase()
                .replace(/[^a-z]/g, 'x')}`
        ] = random.ascii(9);
    const body =
        method === 'GET' || method === 'HEAD'
            ? undefined
            : clean
              ? Buffer.from(JSON.stringify(value) ?? 'null')
              : bodyOf(random, value);
    const leave: Leave = random.pick([
        'answer',
        'answer',
        'answer',
        'answer',
        'mid-body',
        'mid-answer',
        'mid-answer',
        'at-once',
    ]);
    return {method, headers, body, leave};
}
