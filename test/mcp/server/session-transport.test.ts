/**
 * The session as a transport sees it: records in through `receive` or `receiveParsed`, records out
 * through its own `SessionOutput`, its calls read, awaited and cancelled through `calls`.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {QueueSlot} from '../../../lib/jsonrpc/writer.js';
import {buildCatalog} from '../../../lib/mcp/server/catalog.js';
import type {SessionOutput} from '../../../lib/mcp/server/output.js';
import {Session} from '../../../lib/mcp/server/session.js';
import type {McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';

/** An output that keeps what the session sends, as a transport's response would. */
class Recorded implements SessionOutput {
    readonly records: string[] = [];
    readonly diagnostics: string[] = [];
    send(record: string): void {
        this.records.push(record);
    }
    sendLatest(record: string, _slot: QueueSlot): void {
        this.records.push(record);
    }
    withdraw(_slot: QueueSlot): void {}
    diagnose(text: string): void {
        this.diagnostics.push(text);
    }
}

function open(options: Partial<McpStdioServerOptions> = {}): {session: Session; output: Recorded} {
    const output = new Recorded();
    const session = new Session(buildCatalog({serverInfo: {name: 't', version: '1'}, ...options}), output);
    session.receive(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    output.records.length = 0;
    return {session, output};
}

test('a parsed record is answered exactly as the same record as text', () => {
    const {session, output} = open();
    session.receive('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    session.receiveParsed({jsonrpc: '2.0', id: 2, method: 'ping'});
    session.receiveParsed([{jsonrpc: '2.0', id: 3, method: 'ping'}]);
    assert.deepEqual(output.records, [
        '{"jsonrpc":"2.0","id":2,"result":{}}\n',
        '{"jsonrpc":"2.0","id":2,"result":{}}\n',
        '{"jsonrpc":"2.0","error":{"code":-32600,"message":"JSON-RPC batches are not supported: send each request as its own line"}}\n',
    ]);
});

test('calls counts a running handler, waits for its answer and cancels it with the reason', async () => {
    let signal: AbortSignal | undefined;
    const {session, output} = open({
        tools: [
            {
                name: 'wait',
                inputSchema: {type: 'object'},
                handler: (_args, context) => {
                    signal = context.signal;
                    return new Promise((resolve) =>
                        context.signal.addEventListener('abort', () =>
                            resolve({content: [{type: 'text', text: 'stopped'}]}),
                        ),
                    );
                },
            },
        ],
    });
    session.receiveParsed({jsonrpc: '2.0', id: 'a', method: 'tools/call', params: {name: 'wait'}});
    assert.equal(session.calls.running, 1);
    assert.equal(session.calls.inUse('a'), true);
    const reason = new Error('the transport went away');
    assert.equal(session.calls.cancel('a', reason), true);
    assert.equal(signal?.reason, reason);
    assert.equal(session.calls.cancel('a', reason), false);
    await session.calls.whenAllAnswered();
    assert.equal(session.calls.running, 0);
    assert.equal(session.calls.inUse('a'), false);
    assert.deepEqual(output.records, []);
});

test('the sessions of one catalog share its method tables; another catalog gets its own', () => {
    const options: Partial<McpStdioServerOptions> = {
        serverInfo: {name: 't', version: '1'},
        logging: true,
        prompts: [{name: 'greet', handler: () => ({messages: []})}],
    };
    const catalog = buildCatalog(options as McpStdioServerOptions);
    const first = new Session(catalog, new Recorded());
    const second = new Session(catalog, new Recorded());
    assert.equal(second.methods, first.methods);
    assert.equal(first.methods.legacy.has('prompts/get'), true);
    assert.equal(first.methods.legacy.has('logging/setLevel'), true);
    const other = new Session(buildCatalog(options as McpStdioServerOptions), new Recorded());
    assert.notEqual(other.methods, first.methods);
    assert.deepEqual([...other.methods.legacy.keys()], [...first.methods.legacy.keys()]);
});
