// Soak: one MCP stdio session of 1,000,000 requests with random cancellations, in one process.
//
//   npm run soak                      (after `npm run build`, which bundles what the package name loads)
//   node --expose-gc scripts/soak.mjs [requests] [seed]
//
// Requests go through the public entry point over in-memory streams: a third are answered at once,
// a third by a promise, a third by a handler that waits a turn of the event loop and honours its
// signal. One request in ten is cancelled by a notification right behind it; one in a thousand is
// a malformed line; some are pings and unknown tools. Every answer is checked (each id at most
// once; exactly once unless the cancellation reached a pending handler) and the heap is measured
// after a full collection once the session has settled at 10,000 requests, at every tenth of the
// run, and at the end. The run fails when the final heap is more than 4 MiB above its size at
// 10,000 requests, or when any answer is missing, repeated or unexpected.
import {Readable, Writable} from 'node:stream';

const total = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 0x5eed);
const LIMIT_MIB = 4;
const WARMUP = 10_000;
const BATCH = 64;

if (typeof globalThis.gc !== 'function') {
    console.error('soak: run with node --expose-gc (npm run soak does)');
    process.exit(2);
}
if (!Number.isSafeInteger(total) || total < WARMUP * 2) {
    console.error(
        `soak: the request count must be an integer of at least ${WARMUP * 2}, got ${process.argv[2]}`,
    );
    process.exit(2);
}

let mcp;
try {
    mcp = await import('arcane-os/mcp/stdio');
} catch (error) {
    console.error(
        `soak: cannot load arcane-os/mcp/stdio from dist/bundle/ (${error.message}); build first with npm run build`,
    );
    process.exit(2);
}

/** mulberry32: a small seeded generator, so every run sends the same session. */
function random(state) {
    return () => {
        state = (state + 0x6d2b79f5) | 0;
        let t = Math.imul(state ^ (state >>> 15), 1 | state);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
const next = random(seed);

// Per id: 1 answered once; 2 answered again (a failure). Kind of request per id, see `plan`.
const answers = new Uint8Array(total + 1);
const kinds = new Uint8Array(total + 1);
const KIND = {sync: 1, promise: 2, slow: 3, ping: 4, unknown: 5, slowCancelled: 6, cancelledEarly: 7};
let handlerCalls = 0;
let aborted = 0;
let malformed = 0;

function result(id) {
    return {content: [{type: 'text', text: `done ${id}`}]};
}

const tools = [
    {name: 'sync', inputSchema: {type: 'object'}, handler: (args) => result(args.n)},
    {name: 'promise', inputSchema: {type: 'object'}, handler: async (args) => result(args.n)},
    {
        name: 'slow',
        inputSchema: {type: 'object'},
        handler: (args, {signal}) =>
            new Promise((resolve, reject) => {
                const onAbort = () => {
                    clearImmediate(timer);
                    aborted += 1;
                    reject(signal.reason);
                };
                const timer = setImmediate(() => {
                    signal.removeEventListener('abort', onAbort);
                    resolve(result(args.n));
                });
                signal.addEventListener('abort', onAbort, {once: true});
            }),
    },
];
for (const tool of tools) {
    const handler = tool.handler;
    tool.handler = (args, context) => {
        handlerCalls += 1;
        return handler(args, context);
    };
}

let produced = 0;
let expectedHandlerCalls = 0;
/** Set while generation waits for the session to settle at a checkpoint. */
let holding = false;
const checkpoints = new Set([WARMUP]);
for (let tenth = 1; tenth <= 10; tenth += 1) checkpoints.add(Math.floor((total * tenth) / 10));

function plan(id) {
    const roll = next();
    let line;
    if (roll < 0.001) {
        malformed += 1;
        return `{"jsonrpc":"2.0","id":${id},"method":\n`;
    }
    if (roll < 0.02) {
        kinds[id] = KIND.ping;
        return `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;
    }
    if (roll < 0.03) {
        kinds[id] = KIND.unknown;
        return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"missing"}}\n`;
    }
    const which = Math.floor(next() * 3);
    const name = ['sync', 'promise', 'slow'][which];
    kinds[id] = [KIND.sync, KIND.promise, KIND.slow][which];
    expectedHandlerCalls += 1;
    line = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{"n":${id}}}}\n`;
    if (next() < 0.1) {
        // Cancelled right behind its request: a slow handler is still pending and is never
        // answered; a sync one has already been answered; a promise one may or may not be.
        line += `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"soak"}}\n`;
        if (kinds[id] === KIND.slow) kinds[id] = KIND.slowCancelled;
        if (kinds[id] === KIND.promise) kinds[id] = KIND.cancelledEarly;
    }
    return line;
}

const input = new Readable({
    read() {
        // While holding, this read stays outstanding; the checkpoint answers it with fill().
        if (!holding) fill();
    },
});

/** Pushes the next batch of records, or ends the input. */
function fill() {
    if (produced === 0) {
        input.push(
            '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}}\n' +
                '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
        );
    }
    if (produced === total) {
        input.push(null);
        return;
    }
    let text = '';
    for (let i = 0; i < BATCH && produced < total; i += 1) {
        produced += 1;
        text += plan(produced);
        if (checkpoints.has(produced)) {
            holding = true;
            break;
        }
    }
    input.push(text);
    if (holding) settleAndMeasure(produced);
}

let outputLines = 0;
let idless = 0;
const problems = [];
let tail = '';
const output = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
        const lines = (tail + chunk).split('\n');
        tail = lines.pop();
        for (const line of lines) {
            outputLines += 1;
            const match = /^\{"jsonrpc":"2\.0","id":(\d+),/.exec(line);
            if (match === null) {
                if (line.startsWith('{"jsonrpc":"2.0","error":{"code":-32700')) idless += 1;
                else if (problems.length < 10) problems.push(`unexpected record: ${line.slice(0, 200)}`);
                continue;
            }
            const id = Number(match[1]);
            if (id === 0) continue;
            answers[id] += 1;
        }
        callback();
    },
});
let diagnostics = 0;
const errors = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
        diagnostics += chunk.split('\n[arcane-os/mcp/stdio] ').length;
        callback();
    },
});

const server = mcp.createMcpStdioServer({serverInfo: {name: 'soak', version: '1'}, tools});

const MiB = 1024 * 1024;
const figures = [];
function heap() {
    globalThis.gc();
    globalThis.gc();
    return process.memoryUsage().heapUsed;
}

function settleAndMeasure(at) {
    // Wait until every record pushed so far has reached its handler, then for the session to
    // settle, then measure. setImmediate lets the stream deliver what it buffered.
    const wait = () => {
        if (handlerCalls < expectedHandlerCalls) {
            setImmediate(wait);
            return;
        }
        server.drain().then(() => {
            figures.push({requests: at, heapMiB: heap() / MiB, rssMiB: process.memoryUsage().rss / MiB});
            holding = false;
            fill();
        });
    };
    setImmediate(wait);
}

let seconds;
// Should the session ever fail to close, say where it stood instead of exiting silently.
process.on('exit', () => {
    if (seconds !== undefined) return;
    console.error('soak: FAILED: the session never closed', {
        produced,
        handlerCalls,
        expectedHandlerCalls,
        outputLines,
    });
    process.exitCode = 1;
});
const started = process.hrtime.bigint();
server.start({input, output, error: errors});
await server.closed;
seconds = Number(process.hrtime.bigint() - started) / 1e9;
const final = heap() / MiB;

let cancelledSlow = 0;
let cancelledPromise = 0;
let answeredOnce = 0;
for (let id = 1; id <= total; id += 1) {
    const kind = kinds[id];
    const count = answers[id];
    if (count > 1) problems.push(`request ${id} was answered ${count} times`);
    if (kind === 0) {
        if (count !== 0) problems.push(`malformed request ${id} was answered with its id`);
        continue;
    }
    if (kind === KIND.cancelledEarly && count === 0) cancelledPromise += 1;
    if (kind === KIND.slowCancelled) {
        cancelledSlow += 1;
        if (count !== 0) problems.push(`cancelled request ${id} was answered`);
    } else if (kind !== KIND.cancelledEarly && count !== 1) {
        problems.push(`request ${id} was answered ${count} times`);
    }
    if (count === 1) answeredOnce += 1;
    if (problems.length >= 10) break;
}
if (idless !== malformed) problems.push(`${malformed} malformed lines but ${idless} parse errors`);
if (aborted !== cancelledSlow)
    problems.push(`${cancelledSlow} slow calls were cancelled but ${aborted} saw their signal`);

const baseline = figures[0]?.heapMiB ?? Number.NaN;
const growth = final - baseline;
console.log(
    `soak: ${total.toLocaleString('en')} requests in one session, seed ${seed}, ${seconds.toFixed(1)} s (${Math.round(total / seconds).toLocaleString('en')} requests/s)`,
);
console.log(
    `soak: ${answeredOnce.toLocaleString('en')} answered exactly once; cancelled while pending and never answered: ` +
        `${cancelledSlow.toLocaleString('en')} waiting handlers, ${cancelledPromise.toLocaleString('en')} promise handlers; ` +
        `${malformed} malformed lines answered -32700; ${diagnostics} diagnostics`,
);
console.log('soak: heap after settling (after a full collection):');
for (const figure of figures) {
    console.log(
        `  after ${String(figure.requests.toLocaleString('en')).padStart(9)} requests: heap ${figure.heapMiB.toFixed(2)} MiB, rss ${figure.rssMiB.toFixed(1)} MiB`,
    );
}
console.log(`  after close:              heap ${final.toFixed(2)} MiB`);
console.log(
    `soak: heap growth from ${WARMUP.toLocaleString('en')} requests to the end: ${growth >= 0 ? '+' : ''}${growth.toFixed(2)} MiB (limit ${LIMIT_MIB} MiB)`,
);
if (!(growth < LIMIT_MIB))
    problems.push(`the heap grew by ${growth.toFixed(2)} MiB, more than ${LIMIT_MIB} MiB`);
if (problems.length > 0) {
    console.error(`soak: FAILED\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
} else {
    console.log('soak: passed');
}
