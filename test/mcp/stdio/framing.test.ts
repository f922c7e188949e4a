/** Framing through the stdio server: records fed in pieces, oversized records and invalid bytes on the wire. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {Utf8DecodeError} from '../../../lib/jsonrpc/utf8-error.js';
import {harness} from '../../helpers/streams.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

const EXPECTED_UTF8_MESSAGE =
    'The input is not valid UTF-8: the MCP client must send UTF-8 encoded JSON-RPC records, ' +
    'one per line. The transport was closed.';

const SERVER = {serverInfo: {name: 'framing', version: '1.0.0'}};

test('answers a request fed one byte at a time as soon as its line feed arrives, before EOF', async () => {
    const h = harness(SERVER);
    for (const byte of bytes('{"jsonrpc":"2.0","id":"é🌙","method":"ping"}\r\n')) {
        h.sendRaw(Buffer.from([byte]));
    }
    await h.output.waitForLines(1);
    assert.equal(h.output.text, '{"jsonrpc":"2.0","id":"é🌙","result":{}}\n');
    h.input.push(null);
    await h.server.closed;
    assert.equal(h.errors.text, '');
});

test('answers a final request without a line feed when the input ends', async () => {
    const h = harness(SERVER);
    h.sendRaw(bytes('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,'));
    h.sendRaw(bytes('"method":"ping"}'));
    await h.output.waitForLines(1);
    assert.equal(h.output.text, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    h.input.push(null);
    await h.server.closed;
    assert.equal(
        h.output.text,
        '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
    );
});

test('passes an escaped line break through to the handler and back unchanged', async () => {
    const h = harness({
        ...SERVER,
        tools: [
            {
                name: 'echo',
                inputSchema: {type: 'object'},
                handler: (args) => ({content: [{type: 'text', text: String(args.text)}]}),
            },
        ],
    });
    await h.initialize();
    h.sendRaw(
        bytes(
            '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a\\nb\\r\\nc"}}}\r\n',
        ),
    );
    await h.output.waitForLines(2);
    assert.equal(
        h.output.text.split('\n')[1],
        '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a\\nb\\r\\nc"}]}}',
    );
    h.input.push(null);
    await h.server.closed;
});

test('answers -32600 without an id for a record one byte over maxMessageBytes and serves the next', async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const h = harness({...SERVER, maxMessageBytes: ping.length});
    h.sendRaw(bytes(`${ping}\n{"jsonrpc":"2.0","id":22,"method":"ping"}\n`));
    h.sendRaw(bytes(`${ping}\r\n`));
    await h.output.waitForLines(3);
    assert.equal(
        h.output.text,
        '{"jsonrpc":"2.0","id":1,"result":{}}\n' +
            `{"jsonrpc":"2.0","error":{"code":-32600,"message":"The record of ${ping.length + 1} bytes exceeds the limit of ${ping.length} bytes (maxMessageBytes) and was discarded"}}\n` +
            '{"jsonrpc":"2.0","id":1,"result":{}}\n',
    );
    h.input.push(null);
    await h.server.closed;
});

test('closes the transport on invalid UTF-8 with the affected chunks and pending text in the diagnostic', async () => {
    const h = harness(SERVER);
    const first = bytes('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":"ab');
    const second = Buffer.concat([Buffer.from([0xc3, 0x28]), bytes('","method":"ping"}\n')]);
    h.sendRaw(first);
    h.sendRaw(second);
    const failure = await h.server.closed.then(
        () => assert.fail('closed resolved'),
        (error: unknown) => error,
    );
    assert.ok(failure instanceof AggregateError);
    assert.equal(failure.errors.length, 1);
    const cause = failure.errors[0] as Utf8DecodeError;
    assert.ok(cause instanceof Utf8DecodeError);
    assert.equal(cause.chunks[0], first);
    assert.equal(cause.chunks[1], second);
    assert.equal(cause.pendingText, '{"jsonrpc":"2.0","id":"ab');
    assert.equal(failure.message, `The MCP stdio session failed: ${EXPECTED_UTF8_MESSAGE}`);
    assert.equal(h.output.text, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    assert.ok(
        h.errors.text.startsWith(
            `[arcane-os/mcp/stdio] Transport failure, closing the session and cancelling pending requests: ${EXPECTED_UTF8_MESSAGE}\n`,
        ),
    );
    assert.ok(h.errors.text.includes(`'${first.toString('hex')}'`));
    assert.ok(h.errors.text.includes(`'${second.toString('hex')}'`));
    assert.ok(h.errors.text.includes(`pendingText: '{"jsonrpc":"2.0","id":"ab'`));
});
