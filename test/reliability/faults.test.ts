/**
 * Failing streams. Each case breaks one stream while a handler is pending and a write may be in
 * flight, and checks the whole outcome: `closed` rejects with an AggregateError holding exactly the
 * fault, the pending handler's signal is aborted with that same error, the failure is reported on
 * the diagnostic stream when that still works, and nothing escapes as an unhandled rejection or an
 * unhandled 'error' event.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import type {Readable, Writable} from 'node:stream';
import {test} from 'node:test';
import type {McpStdioServer} from '../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../lib/mcp/stdio/index.js';
import {failingWritable, inputStream, Sink} from '../helpers/streams.js';
import {
    callRecord,
    closedStream,
    initializeRecord,
    responses,
    text,
    waitingTool,
    watchEscapes,
} from './support.js';

const PREFIX = '[arcane-os/mcp/stdio] ';

interface Setup {
    server: McpStdioServer;
    input: Readable;
    output: Sink;
    errors: Sink;
    wait: ReturnType<typeof waitingTool>;
}

/** An initialized session with one `wait` call pending. */
async function pendingSession(errors: Writable = new Sink()): Promise<Setup> {
    const input = inputStream();
    const output = new Sink();
    const wait = waitingTool();
    const server = createMcpStdioServer({
        serverInfo: {name: 'faults', version: '1'},
        tools: [wait.tool, {name: 'echo', inputSchema: {type: 'object'}, handler: () => text('echo')}],
    }).start({input, output, error: errors});
    input.push(initializeRecord);
    input.push(callRecord('pending', 'wait'));
    await wait.started;
    await output.waitForLines(1);
    return {server, input, output, errors: errors as Sink, wait};
}

/** Asserts `closed` rejects with an AggregateError whose only error is `fault`, and returns it. */
async function rejectsWith(
    server: McpStdioServer,
    fault: (error: unknown) => boolean,
): Promise<AggregateError> {
    let caught: unknown;
    await server.closed.catch((error: unknown) => {
        caught = error;
    });
    assert.ok(caught instanceof AggregateError, `closed rejected with ${String(caught)}`);
    assert.equal(caught.errors.length, 1);
    assert.ok(fault(caught.errors[0]), `unexpected fault: ${String(caught.errors[0])}`);
    assert.equal(caught.message, `The MCP stdio session failed: ${(caught.errors[0] as Error).message}`);
    return caught;
}

function diagnosticFor(error: Error): string {
    return `${PREFIX}Transport failure, closing the session and cancelling pending requests: ${error.message}\n`;
}

test('an output error during a write rejects closed with that error and aborts pending handlers with it', async () => {
    const escapes = watchEscapes();
    const {server, input, output, errors, wait} = await pendingSession();
    output.hold = true;
    input.push(callRecord(1, 'echo'));
    await output.waitForLines(2);
    assert.equal(output.heldCount, 1);
    const fault = new Error('EIO: the output device failed');
    output.destroy(fault);
    await rejectsWith(server, (error) => error === fault);
    assert.deepEqual(wait.reasons, [fault]);
    assert.ok(errors.text.startsWith(diagnosticFor(fault)), errors.text);
    await closedStream(output);
    assert.equal(output.release(), 1, 'the late callback is still held by the sink');
    assert.deepEqual(escapes.stop(), []);
});

for (const [event, trigger, message] of [
    ['error', (s: Sink) => s.destroy(new Error('the pipe broke')), 'the pipe broke'],
    ['close', (s: Sink) => s.destroy(), 'The output stream closed before a pending write completed'],
    ['finish', (s: Sink) => s.emit('finish'), 'The output stream finished before a pending write completed'],
] as const) {
    test(`a write whose callback never comes fails when the output emits ${event}, and a late callback changes nothing`, async () => {
        const escapes = watchEscapes();
        const {server, input, output, errors, wait} = await pendingSession();
        output.hold = true;
        input.push(callRecord(1, 'echo'));
        await output.waitForLines(2);
        trigger(output);
        const failure = await rejectsWith(server, (error) => (error as Error).message === message);
        const fault = failure.errors[0] as Error;
        assert.equal(wait.reasons.length, 1);
        assert.equal(wait.reasons[0], fault);
        assert.ok(errors.text.startsWith(diagnosticFor(fault)), errors.text);
        if (event !== 'finish') await closedStream(output);
        assert.equal(output.release(), 1);
        // The late callback did not settle anything a second time, nor report another failure.
        assert.equal(errors.text.split(PREFIX).length, 2, errors.text);
        assert.deepEqual(escapes.stop(), []);
    });
}

test('an output closed with writes pending and more queued drops the queue and settles the session', async () => {
    const escapes = watchEscapes();
    const {server, input, output, wait} = await pendingSession();
    output.hold = true;
    // Echo 1 becomes the write whose callback is held; 2 and 3 are read only after it is out, so
    // they can only be queued behind it, whatever the order of the initialize write's callback.
    input.push(callRecord(1, 'echo'));
    await output.waitForLines(2);
    const read = once(input, 'data');
    input.push(callRecord(2, 'echo') + callRecord(3, 'echo'));
    await read;
    output.destroy();
    const failure = await rejectsWith(
        server,
        (error) => (error as Error).message === 'The output stream closed before a pending write completed',
    );
    assert.deepEqual(wait.reasons, [failure.errors[0]]);
    // Only the initialize response and the first echo ever reached the stream.
    assert.deepEqual(
        responses(output.text).map((record) => record.id),
        ['init', 1],
    );
    await closedStream(output);
    assert.deepEqual(escapes.stop(), []);
});

test('a failing diagnostic stream rejects closed with its error while the client still gets its answer', async () => {
    const escapes = watchEscapes();
    const fault = new Error('EBADF: stderr is gone');
    const errors = failingWritable(fault);
    const {server, input, output, wait} = await pendingSession(errors);
    input.push('{"this is": not json}\n');
    await rejectsWith(server, (error) => error === fault);
    assert.deepEqual(wait.reasons, [fault]);
    const records = responses(output.text);
    assert.deepEqual(records.at(-1), {
        jsonrpc: '2.0',
        error: {code: -32700, message: records.at(-1)?.error?.message},
    });
    assert.match(records.at(-1)?.error?.message ?? '', /^Parse error: /);
    await closedStream(errors);
    assert.deepEqual(escapes.stop(), []);
});

test('an input error rejects closed with that error and aborts pending handlers with it', async () => {
    const escapes = watchEscapes();
    const {server, input, errors, wait} = await pendingSession();
    const fault = new Error('ECONNRESET: the client vanished');
    input.destroy(fault);
    await rejectsWith(server, (error) => error === fault);
    assert.deepEqual(wait.reasons, [fault]);
    assert.ok(errors.text.startsWith(diagnosticFor(fault)), errors.text);
    await closedStream(input);
    assert.deepEqual(escapes.stop(), []);
});

test('an input that closes without end rejects closed with a transport error naming it', async () => {
    const escapes = watchEscapes();
    const {server, input, errors, wait} = await pendingSession();
    input.destroy();
    const failure = await rejectsWith(
        server,
        (error) =>
            (error as Error).message ===
            'The input stream closed before its end: the MCP client went away without closing stdin',
    );
    assert.deepEqual(wait.reasons, [failure.errors[0]]);
    assert.ok(errors.text.startsWith(diagnosticFor(failure.errors[0] as Error)), errors.text);
    assert.deepEqual(escapes.stop(), []);
});

test('undecodable input rejects closed with a Utf8DecodeError that keeps the affected bytes', async () => {
    const escapes = watchEscapes();
    const {server, input, errors, wait} = await pendingSession();
    input.push(Buffer.from([0x7b, 0xff, 0xfe, 0x0a]));
    const failure = await rejectsWith(server, (error) => (error as Error).name === 'Utf8DecodeError');
    assert.deepEqual(wait.reasons, [failure.errors[0]]);
    assert.match(errors.text, /affectedChunksHex: \[ '7bfffe0a' \]/);
    assert.deepEqual(escapes.stop(), []);
});

test('a second stream failing after the first is kept in the same AggregateError', async () => {
    const escapes = watchEscapes();
    const {server, input, output, wait} = await pendingSession();
    output.hold = true;
    input.push(callRecord(1, 'echo'));
    await output.waitForLines(2);
    const first = new Error('input broke first');
    input.destroy(first);
    await closedStream(input);
    const second = new Error('then the output broke');
    output.destroy(second);
    let caught: unknown;
    await server.closed.catch((error: unknown) => {
        caught = error;
    });
    assert.ok(caught instanceof AggregateError);
    assert.deepEqual(caught.errors, [first, second]);
    assert.equal(caught.message, 'The MCP stdio session failed: input broke first; then the output broke');
    assert.deepEqual(wait.reasons, [first]);
    await closedStream(output);
    assert.deepEqual(escapes.stop(), []);
});

test('a write that throws synchronously is a transport failure, not an exception out of the session', async () => {
    const escapes = watchEscapes();
    const input = inputStream();
    const errors = new Sink();
    const fault = new TypeError('write exploded');
    const output = new Sink();
    output.write = () => {
        throw fault;
    };
    const wait = waitingTool();
    const server = createMcpStdioServer({
        serverInfo: {name: 'faults', version: '1'},
        tools: [wait.tool],
    }).start({
        input,
        output,
        error: errors,
    });
    input.push(initializeRecord);
    await rejectsWith(server, (error) => error === fault);
    assert.ok(errors.text.startsWith(diagnosticFor(fault)), errors.text);
    assert.deepEqual(escapes.stop(), []);
});
