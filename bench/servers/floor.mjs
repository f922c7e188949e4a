/**
 * The floor: the least a Node stdio JSON-RPC loop can do and still serve the bench catalog. Split on
 * newline, JSON.parse, switch, call the handler, JSON.stringify, write. No validation, no ordering
 * of writes beyond what process.stdout does itself; a signal is created only when a handler asks.
 */
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';

const toolList = Object.entries(tools).map(([name, descriptor]) => ({name, ...descriptor}));
const active = new Map();

function send(message) {
    process.stdout.write(`${JSON.stringify(message)}\n`);
}

function reply(id, result) {
    send({jsonrpc: '2.0', id, result});
}

function fail(id, code, message) {
    send({jsonrpc: '2.0', id, error: {code, message}});
}

function settle(id, result) {
    if (active.delete(id)) reply(id, result);
}

function dropped(id) {
    active.delete(id);
}

function call(id, handler, input) {
    let controller;
    const context = {
        get signal() {
            controller ??= new AbortController();
            return controller.signal;
        },
    };
    const result = handler(input, context);
    if (typeof result?.then !== 'function') {
        reply(id, result);
        return;
    }
    active.set(id, () => controller?.abort());
    result.then(
        (value) => settle(id, value),
        () => dropped(id),
    );
}

function handle(message) {
    const id = message.id;
    const params = message.params;
    switch (message.method) {
        case 'initialize':
            reply(id, {
                protocolVersion: params.protocolVersion,
                capabilities: {tools: {}, resources: {}},
                serverInfo: {name: 'bench-floor', version: '1.0.0'},
            });
            return;
        case 'notifications/initialized':
            return;
        case 'notifications/cancelled': {
            const abort = active.get(params.requestId);
            if (abort !== undefined) {
                active.delete(params.requestId);
                abort();
            }
            return;
        }
        case 'ping':
            reply(id, {});
            return;
        case 'tools/list':
            reply(id, {tools: toolList});
            return;
        case 'tools/call': {
            const handler = handlers[params.name];
            if (handler === undefined) fail(id, -32602, 'Unknown tool');
            else call(id, handler, params.arguments ?? {});
            return;
        }
        case 'resources/read':
            if (params.uri === RESOURCE_URI) call(id, readNote, params);
            else fail(id, -32002, 'Resource not found');
            return;
        default:
            if (id !== undefined) fail(id, -32601, 'Method not found');
    }
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
    let text = pending + chunk;
    let start = 0;
    let lf = text.indexOf('\n');
    while (lf !== -1) {
        if (lf > start) handle(JSON.parse(text.slice(start, lf)));
        start = lf + 1;
        lf = text.indexOf('\n', start);
    }
    text = text.slice(start);
    pending = text;
});
