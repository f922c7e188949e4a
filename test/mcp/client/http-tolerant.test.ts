/**
 * Streamable HTTP under the same rules as stdio: an SSE event that is not JSON, one over
 * `maxMessageBytes`, and a response to an id never sent (on an SSE stream or in a JSON body) are
 * told to `onProtocolError` and skipped by default, and end the session with `strict: true`.
 */
import assert from 'node:assert/strict';
import type {ServerResponse} from 'node:http';
import {test} from 'node:test';
import type {McpProtocolErrorEvent} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import type {Fixture, Seen} from './http-fixture.js';
import {event, json, result, servedPerTest, sse} from './http-fixture.js';
import {scripted, TWO_PAGES} from './http-mcp.js';

const GUARD = {timeout: 30_000};

const serve = servedPerTest();

const ANSWER = {content: [{type: 'text', text: 'after the stray'}]};

/** The scripted server, except that `tools/call` is answered by `call`. */
async function serveCalls(call: (seen: Seen, res: ServerResponse) => void): Promise<Fixture> {
    const base = scripted(TWO_PAGES);
    return serve((seen, res) => {
        if ((seen.json as {method?: string} | undefined)?.method === 'tools/call') return call(seen, res);
        return base(seen, res);
    });
}

interface Case {
    what: string;
    call: (seen: Seen, res: ServerResponse) => void;
    maxMessageBytes?: number;
    event: (url: string) => McpProtocolErrorEvent;
}

const CASES: Case[] = [
    {
        what: 'an SSE event that is not JSON',
        call: (seen, res) => {
            sse(res);
            res.write('data: {not json\n\n');
            event(res, result(seen, ANSWER));
            res.end();
        },
        event: (url) => ({
            kind: 'not-json',
            message: `The answer to request 2 from POST ${url}: an SSE event is not JSON: "{not json"`,
            text: '{not json',
        }),
    },
    {
        what: 'an SSE event over maxMessageBytes',
        call: (seen, res) => {
            sse(res);
            res.write(`data: "${'z'.repeat(600)}"\n\n`);
            event(res, result(seen, ANSWER));
            res.end();
        },
        maxMessageBytes: 512,
        event: (url) => ({
            kind: 'oversized',
            message:
                `The answer to request 2 from POST ${url}: an SSE event reached 608 bytes, over maxMessageBytes ` +
                '(512 bytes); it was dropped',
            text: '',
        }),
    },
    {
        what: 'an SSE event answering an id never sent',
        call: (seen, res) => {
            sse(res);
            event(res, {jsonrpc: '2.0', id: 999, result: {}});
            event(res, result(seen, ANSWER));
            res.end();
        },
        event: () => ({
            kind: 'unmatched-response',
            message:
                'The MCP server sent an answer for request id 999, which this client never sent or already settled',
            text: '{"jsonrpc":"2.0","id":999,"result":{}}',
        }),
    },
    {
        what: 'a JSON body answering an id never sent beside the answer',
        call: (seen, res) =>
            json(res, [{jsonrpc: '2.0', id: 'other', error: {code: 1, message: 'm'}}, result(seen, ANSWER)]),
        event: () => ({
            kind: 'unmatched-response',
            message:
                'The MCP server sent an error for request id "other", which this client never sent or already settled',
            text: '{"jsonrpc":"2.0","id":"other","error":{"code":1,"message":"m"}}',
        }),
    },
];

for (const item of CASES) {
    test(`HTTP, by default: ${item.what} is told once and skipped; the call succeeds`, GUARD, async () => {
        const fixture = await serveCalls(item.call);
        const events: McpProtocolErrorEvent[] = [];
        const client = await connectMcpClient({
            url: fixture.url(),
            maxMessageBytes: item.maxMessageBytes,
            onProtocolError: (event) => events.push(event),
        });
        assert.deepEqual(await client.callTool('add', {a: 1, b: 2}), ANSWER);
        assert.deepEqual(events, [item.event(fixture.url())]);
        assert.deepEqual(await client.callTool('add', {a: 1, b: 2}), ANSWER);
        assert.equal(events.length, 2);
        await client.close();
    });

    test(`HTTP, strict: ${item.what} ends the session with a protocol violation`, GUARD, async () => {
        const fixture = await serveCalls(item.call);
        const expected = item.event(fixture.url());
        const client = await connectMcpClient({
            url: fixture.url(),
            maxMessageBytes: item.maxMessageBytes,
            strict: true,
        });
        await assert.rejects(client.callTool('add', {a: 1, b: 2}), (error) => {
            assert.ok(error instanceof McpProtocolViolationError, String(error));
            assert.equal(error.message, expected.message);
            return true;
        });
        await assert.rejects(client.listTools(), {
            name: 'McpConnectionError',
            message: `Cannot send tools/list: ${expected.message}`,
        });
        await client.close();
        assert.equal(fixture.seen.at(-1)?.method, 'DELETE');
    });
}
