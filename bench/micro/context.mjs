/**
 * How a handler context finds its call: a private-field stamp (what call.ts does) against a
 * module-level WeakMap and a non-enumerable symbol key, each behind one shared `signal` getter on a
 * fast-shape frozen object.
 * Prints ns per context built and per `signal` read, medians of 7 rounds.
 * Run: `node bench/micro/context.mjs`.
 */
import {CallStamp} from './stamp.mjs';

const CALLS = new WeakMap();
function findInMap(context) {
    for (let at = context; at !== null; at = Object.getPrototypeOf(at)) {
        const call = CALLS.get(at);
        if (call !== undefined) return call;
    }
    return undefined;
}
const KEY = Symbol('call');
function findBySymbol(context) {
    for (let at = context; at !== null; at = Object.getPrototypeOf(at)) {
        if (Object.hasOwn(at, KEY)) return at[KEY];
    }
    return undefined;
}
const SYMBOLED = Object.freeze({
    enumerable: true,
    configurable: false,
    get() {
        return findBySymbol(this)?.signal;
    },
});
const STAMPED = Object.freeze({
    enumerable: true,
    configurable: false,
    get() {
        return CallStamp.find(this)?.signal;
    },
});
const MAPPED = Object.freeze({
    enumerable: true,
    configurable: false,
    get() {
        return findInMap(this)?.signal;
    },
});

const signal = new AbortController().signal;
function build(kind, i) {
    const call = {signal, i};
    const context = Object.defineProperty(
        {},
        'signal',
        kind === 'stamp' ? STAMPED : kind === 'symbol' ? SYMBOLED : MAPPED,
    );
    if (kind === 'stamp') new CallStamp(context, call);
    else if (kind === 'symbol') Object.defineProperty(context, KEY, {value: call});
    else CALLS.set(context, call);
    context.requestId = i;
    context.method = 'tools/call';
    context.params = call;
    context.clientInfo = call;
    context.clientCapabilities = call;
    context.protocolVersion = '2025-11-25';
    return Object.freeze(context);
}

const N = 200_000;
function round(kind) {
    const contexts = new Array(N);
    let start = process.hrtime.bigint();
    for (let i = 0; i < N; i += 1) contexts[i] = build(kind, i);
    const built = Number(process.hrtime.bigint() - start) / N;
    start = process.hrtime.bigint();
    let seen = 0;
    for (let r = 0; r < 5; r += 1)
        for (let i = 0; i < N; i += 1) if (contexts[i].signal === signal) seen += 1;
    const read = Number(process.hrtime.bigint() - start) / (N * 5);
    if (seen !== N * 5) throw new Error('lost a call');
    return [built, read];
}
const median = (values) => values.toSorted((a, b) => a - b)[values.length >> 1];
const results = {stamp: [[], []], weakmap: [[], []], symbol: [[], []]};
for (let r = 0; r < 8; r += 1) {
    for (const kind of r % 2 === 0 ? ['stamp', 'weakmap', 'symbol'] : ['symbol', 'weakmap', 'stamp']) {
        const [built, read] = round(kind);
        if (r === 0) continue; // warm-up
        results[kind][0].push(built);
        results[kind][1].push(read);
    }
}
for (const [kind, [built, read]] of Object.entries(results)) {
    console.log(
        `${kind.padEnd(8)} build ${median(built).toFixed(0).padStart(4)} ns   signal read ${median(read).toFixed(1).padStart(5)} ns`,
    );
}
