/** Legacy sessions over HTTP: a call's log messages go on the SSE answer of the POST that carried it. */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {McpTool} from '../../../lib/mcp/http/index.js';
import {ENDPOINT, events, Gate, initializeBody, LEGACY, makeHandler, post, read, text} from './support.js';

/** A tool that logs before and after it waits for the gate. */
function chatty(gate: Gate): McpTool {
    return {
        name: 'chatty',
        inputSchema: {type: 'object'},
        handler: async (_args, context) => {
            context.log('debug', 'not asked for');
            context.log('info', {step: 'started'}, 'chatty');
            const value = await gate.run(context);
            context.log('warning', 'finishing');
            return value as never;
        },
    };
}

async function setUp(level = 'info') {
    const gate = new Gate();
    const {handler} = makeHandler(gate, {logging: true, tools: [chatty(gate)]});
    const opened = await handler.fetch(post(initializeBody()));
    await opened.text();
    const id = opened.headers.get('mcp-session-id') as string;
    const headers = {'mcp-session-id': id, 'mcp-protocol-version': LEGACY};
    const set = await handler.fetch(
        post({jsonrpc: '2.0', id: 'level', method: 'logging/setLevel', params: {level}}, headers),
    );
    assert.deepEqual(await read(set), [
        200,
        'application/json',
        '{"jsonrpc":"2.0","id":"level","result":{}}\n',
    ]);
    const stream = await handler.fetch(
        new Request(ENDPOINT, {headers: {...headers, accept: 'text/event-stream'}}),
    );
    assert.equal(stream.status, 200);
    return {handler, gate, headers, stream};
}

const callBody = (id: number) => ({jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'chatty'}});
const event = (record: string) => `event: message\ndata: ${record}`;

describe('a legacy call logging over HTTP', () => {
    test('its messages go on its own POST, which becomes an SSE stream; the GET stream gets none', async () => {
        const {handler, gate, headers, stream} = await setUp();
        const response = await handler.fetch(post(callBody(7), headers));
        assert.equal(response.headers.get('content-type'), 'text/event-stream');
        const answer = events(response);
        assert.equal(
            await answer.next(),
            event(
                '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"chatty","data":{"step":"started"}}}',
            ),
        );
        await gate.started(1);
        gate.release(0, text('done'));
        assert.equal(
            await answer.next(),
            event(
                '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"finishing"}}',
            ),
        );
        assert.equal(
            await answer.next(),
            event('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"done"}]}}'),
        );
        assert.equal(await answer.next(), undefined);
        // Closing ends the session and its GET stream: everything it carried is read then.
        await handler.close();
        assert.equal(await stream.text(), '');
    });

    test('once its POST client has gone, its messages go nowhere: not on the GET stream', async () => {
        const {handler, gate, headers, stream} = await setUp();
        const response = await handler.fetch(post(callBody(6), headers));
        const answer = events(response);
        assert.equal(
            await answer.next(),
            event(
                '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"chatty","data":{"step":"started"}}}',
            ),
        );
        await answer.cancel();
        await gate.started(1);
        // Not a cancellation in these revisions: the handler runs on, and logs once more.
        gate.release(0, text('unheard'));
        await handler.drain();
        assert.equal(gate.contexts[0]?.signal.aborted, false);
        await handler.close();
        assert.equal(await stream.text(), '');
    });

    test('a POST that accepts only JSON gets its answer as JSON, and the messages go nowhere else', async () => {
        const {handler, gate, headers, stream} = await setUp();
        const pending = handler.fetch(post(callBody(8), {...headers, accept: 'application/json'}));
        await gate.started(1);
        gate.release(0, text('quiet'));
        assert.deepEqual(await read(await pending), [
            200,
            'application/json',
            '{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"quiet"}]}}\n',
        ]);
        await handler.close();
        assert.equal(await stream.text(), '');
    });

    test('a message below the session level is not sent, and the answer stays JSON', async () => {
        const {handler, gate, headers, stream} = await setUp('error');
        const pending = handler.fetch(post(callBody(9), headers));
        await gate.started(1);
        gate.release(0, text('silent'));
        assert.deepEqual(await read(await pending), [
            200,
            'application/json',
            '{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"silent"}]}}\n',
        ]);
        await handler.close();
        assert.equal(await stream.text(), '');
    });
});
