/**
 * The `requestState` of 2026-07-28: the answers gathered so far, carried by the client between
 * rounds and trusted only after its HMAC-SHA-256 verifies. The state is bound to the method, a
 * digest of the request's own params (its `_meta`, `inputResponses` and `requestState` aside) and
 * an expiry, so it cannot be altered, replayed on another request, or kept for later.
 */
import {createRequire} from 'node:module';
import type {JsonObject} from '../../../jsonrpc/records.js';
import {isObject} from '../../../jsonrpc/records.js';

/** Test-only: the clock expiry is measured with. */
export const stateClock: {now: () => number} = {now: () => Date.now()};

type NodeCrypto = typeof import('node:crypto');

/**
 * Loads `node:crypto` through `getBuiltinModule` (`process.getBuiltinModule`, Node ≥ 20.16 and
 * 22.3), else through a `require`. Loading it takes start-up time and memory that a server which
 * never seals a state would pay for nothing (bench/LOG.md, entry 28).
 */
export function loadCrypto(getBuiltinModule: ((id: 'node:crypto') => unknown) | undefined): NodeCrypto {
    return (getBuiltinModule ?? createRequire(import.meta.url))('node:crypto') as NodeCrypto;
}

let cryptoModule: NodeCrypto | undefined;

/** `node:crypto`, loaded on first use. */
function nodeCrypto(): NodeCrypto {
    cryptoModule ??= loadCrypto(process.getBuiltinModule);
    return cryptoModule;
}

let processKey: Buffer | undefined;

/** The key of every server of this process that was given none: random, made on first use. */
export function processStateKey(): Buffer {
    processKey ??= nodeCrypto().randomBytes(32);
    return processKey;
}

/** One answer as recorded: the digest of the question it answers, and the client's result. */
export interface Recorded {
    readonly question: string;
    readonly answer: JsonObject;
}

const VERSION = 'v1';

export class StateCodec {
    /** Undefined: the process's own key, made when the first state is sealed or opened. */
    readonly #key: Buffer | undefined;
    readonly #ttlMs: number;

    constructor(key: Buffer | undefined, ttlMs: number) {
        this.#key = key;
        this.#ttlMs = ttlMs;
    }

    seal(method: string, digest: string, answers: ReadonlyMap<string, Recorded>): string {
        const recorded: Record<string, [string, JsonObject]> = {};
        for (const [key, {question, answer}] of answers) recorded[key] = [question, answer];
        const payload = {m: method, d: digest, x: stateClock.now() + this.#ttlMs, a: recorded};
        const body = `${VERSION}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
        return `${body}.${this.#sign(body)}`;
    }

    /** The answers `token` records, or what is wrong with it, for a message to the client. */
    open(token: string, method: string, digest: string): Map<string, Recorded> | string {
        const last = token.lastIndexOf('.');
        const body = token.slice(0, last);
        const signature = Buffer.from(token.slice(last + 1), 'base64url');
        const expected = Buffer.from(this.#sign(body), 'base64url');
        if (
            last < 0 ||
            !body.startsWith(`${VERSION}.`) ||
            signature.length !== expected.length ||
            !nodeCrypto().timingSafeEqual(signature, expected)
        ) {
            return 'it failed its integrity check (it was not issued by this server, or it was changed)';
        }
        const payload = JSON.parse(Buffer.from(body.slice(VERSION.length + 1), 'base64url').toString()) as {
            m: string;
            d: string;
            x: number;
            a: Record<string, [string, JsonObject]>;
        };
        if (payload.m !== method) return `it was issued for a ${payload.m} request, not for ${method}`;
        if (payload.d !== digest) return 'it was issued for a request with other params';
        if (stateClock.now() > payload.x) return 'it has expired';
        const answers = new Map<string, Recorded>();
        for (const [key, [question, answer]] of Object.entries(payload.a))
            answers.set(key, {question, answer});
        return answers;
    }

    #sign(body: string): string {
        return nodeCrypto()
            .createHmac('sha256', this.#key ?? processStateKey())
            .update(body)
            .digest('base64url');
    }
}

const UNBOUND = new Set(['_meta', 'inputResponses', 'requestState']);

/** The digest of a request's own params: what its state is bound to. */
export function paramsDigest(params: JsonObject): string {
    const own: JsonObject = {};
    for (const key of Object.keys(params)) if (!UNBOUND.has(key)) own[key] = params[key];
    return digestOf(own);
}

/** The digest of one question, so a recorded answer is replayed only to the same question. */
export function questionDigest(method: string, params: JsonObject): string {
    return digestOf({method, params});
}

function digestOf(value: unknown): string {
    return nodeCrypto().createHash('sha256').update(canonical(value)).digest('base64url');
}

/** JSON with every object's keys sorted, so equal values digest equally. */
function canonical(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    if (isObject(value)) {
        const keys = Object.keys(value)
            .filter((key) => value[key] !== undefined)
            .sort();
        return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}
