/**
 * The floors: the least a Node stdio JSON-RPC loop can do and still serve the bench catalog. Split
 * on newline, JSON.parse, switch, call the handler, JSON.stringify, one process.stdout.write per
 * record. No validation, no ordering of writes beyond what process.stdout does itself.
 *
 * Two variants share this loop and differ in one thing only, the object a handler's `signal` is:
 * - bare (`node floor.mjs`): a plain object with just what the shared `sleep` handler touches
 *   (`aborted`, `reason`, one abort listener), no EventTarget: the cheapest cancellation there is;
 * - signal-aware (`node floor.mjs --signal`): a real `AbortController` per cancellable call,
 *   cancelled through its signal with the client's reason, as the contract gives every handler.
 * Either is created when a handler first reads `signal` (echo and big never do; sleep always does).
 *
 * A request carrying the 2026-07-28 per-request `_meta` is answered in that era's shape: the result
 * gains `resultType` and the server identity, spliced into the JSON text (no extra object).
 *
 * Run as a program it serves stdin/stdout; bench/inproc.mjs imports it and calls `serveFloor` with
 * in-memory streams instead.
 */
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';

const signalAware = process.argv.includes('--signal');
const NAME = signalAware ? 'bench-floor-signal' : 'bench-floor';
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const MODERN_TAIL = `,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"${NAME}","version":"1.0.0"}}}`;

const toolList = Object.entries(tools).map(([name, descriptor]) => ({name, ...descriptor}));
/** Pending promise calls by request id. */
const active = new Map();
/** Where records go: process.stdout, or the stream `serveFloor` was given. */
let output = process.stdout;

/** The bare floor's signal: what `sleep` reads and nothing more. */
class BareSignal {
    aborted = false;
    reason = undefined;
    listener = undefined;

    get signal() {
        return this;
    }

    addEventListener(_type, listener) {
        this.listener = listener;
    }

    removeEventListener() {
        this.listener = undefined;
    }

    abort(reason) {
        this.aborted = true;
        this.reason = reason;
        const listener = this.listener;
        this.listener = undefined;
        listener?.();
    }
}

const newController = signalAware ? () => new AbortController() : () => new BareSignal();

/** A handler's context; a pending call's entry in `active`. */
class Call {
    constructor(id, modern) {
        this.id = id;
        this.modern = modern;
        this.controller = undefined;
    }

    get signal() {
        this.controller ??= newController();
        return this.controller.signal;
    }

    cancel(reason) {
        this.controller?.abort(reason);
    }
}

function reply(id, result, modern = false) {
    if (!modern) {
        output.write(`${JSON.stringify({jsonrpc: '2.0', id, result})}\n`);
        return;
    }
    const json = JSON.stringify(result);
    output.write(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${json.slice(0, -1)}${MODERN_TAIL}}\n`,
    );
}

function fail(id, code, message) {
    output.write(`${JSON.stringify({jsonrpc: '2.0', id, error: {code, message}})}\n`);
}

function call(id, handler, input, modern) {
    const context = new Call(id, modern);
    const result = handler(input, context);
    if (typeof result?.then !== 'function') {
        reply(id, result, modern);
        return;
    }
    active.set(id, context);
    result.then(
        (value) => {
            if (active.delete(id)) reply(id, value, modern);
        },
        () => active.delete(id),
    );
}

function handle(message) {
    const id = message.id;
    const params = message.params;
    const modern = params?._meta?.[VERSION_KEY] !== undefined;
    switch (message.method) {
        case 'initialize':
            reply(id, {
                protocolVersion: params.protocolVersion,
                capabilities: {tools: {}, resources: {}},
                serverInfo: {name: NAME, version: '1.0.0'},
            });
            return;
        case 'server/discover':
            reply(id, {supportedVersions: ['2026-07-28'], capabilities: {tools: {}, resources: {}}}, true);
            return;
        case 'notifications/initialized':
            return;
        case 'notifications/cancelled': {
            const pending = active.get(params.requestId);
            if (pending !== undefined) {
                active.delete(params.requestId);
                pending.cancel(params.reason);
            }
            return;
        }
        case 'ping':
            reply(id, {});
            return;
        case 'tools/list':
            reply(id, {tools: toolList}, modern);
            return;
        case 'tools/call': {
            const handler = handlers[params.name];
            if (handler === undefined) fail(id, -32602, 'Unknown tool');
            else call(id, handler, params.arguments ?? {}, modern);
            return;
        }
        case 'resources/read':
            if (params.uri === RESOURCE_URI) call(id, readNote, params, modern);
            else fail(id, -32002, 'Resource not found');
            return;
        default:
            if (id !== undefined) fail(id, -32601, 'Method not found');
    }
}

/** Serves `input` (read as UTF-8 text) to `output`. */
export function serveFloor(input, to) {
    output = to;
    let pending = '';
    input.setEncoding('utf8');
    input.on('data', (chunk) => {
        const text = pending + chunk;
        let start = 0;
        let lf = text.indexOf('\n');
        while (lf !== -1) {
            if (lf > start) handle(JSON.parse(text.slice(start, lf)));
            start = lf + 1;
            lf = text.indexOf('\n', start);
        }
        pending = text.slice(start);
    });
}

/** Calls whose promise has not settled and that were not cancelled. */
export function pendingCalls() {
    return active.size;
}

// Run as a program (not imported by inproc.mjs). No node:url import: the floor loads nothing extra.
if (process.argv[1] === decodeURIComponent(new URL(import.meta.url).pathname)) {
    serveFloor(process.stdin, process.stdout);
}
