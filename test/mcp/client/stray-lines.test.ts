/**
 * Each kind of stray line (one that belongs to no request), in both modes: with `strict: true` it
 * ends the session with the same error as ever; by default it reaches `onProtocolError` exactly
 * once, is skipped, and every call succeeds.
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import type {McpProtocolErrorEvent} from '../../../lib/mcp/client/index.js';
import {McpConnectionError, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import {assertGone, closeAll, connectFake, GUARD} from './support.js';

afterEach(closeAll);

/** A good answer to the request, written right after a stray line. */
const ANSWER = '{"jsonrpc":"2.0","id":$ID,"result":{"content":[]}}\n';

const NOT_JSON_TAIL =
    '. An MCP server over stdio must write only JSON-RPC messages to stdout (logs belong on stderr).';

interface StrayCase {
    what: string;
    /** The stray line, written by the fake in place of the answer to the first tools/call. */
    stray: string;
    maxMessageBytes?: number;
    /** The message a strict session ends with: today's, unchanged. */
    strict: string;
    /** What `onProtocolError` receives, in both modes. */
    event: McpProtocolErrorEvent;
}

const STRAYS: StrayCase[] = [
    {
        what: 'a line that is not JSON',
        stray: 'Server ready on stdio!\n',
        strict: `The MCP server wrote a line to stdout that is not JSON: "Server ready on stdio!"${NOT_JSON_TAIL}`,
        event: {
            kind: 'not-json',
            message: `The MCP server wrote a line to stdout that is not JSON: "Server ready on stdio!"${NOT_JSON_TAIL}`,
            text: 'Server ready on stdio!',
        },
    },
    {
        what: 'a long non-JSON line (shown shortened)',
        stray: `${'x'.repeat(300)}\n`,
        strict: `The MCP server wrote a line to stdout that is not JSON: "${'x'.repeat(80)}…"${NOT_JSON_TAIL}`,
        event: {
            kind: 'not-json',
            message: `The MCP server wrote a line to stdout that is not JSON: "${'x'.repeat(80)}…"${NOT_JSON_TAIL}`,
            text: `${'x'.repeat(200)}…`,
        },
    },
    {
        what: 'an answer to an id the client never sent',
        stray: '{"jsonrpc":"2.0","id":77,"result":{}}\n',
        strict: 'The MCP server sent an answer for request id 77, which this client never sent or already settled',
        event: {
            kind: 'unmatched-response',
            message:
                'The MCP server sent an answer for request id 77, which this client never sent or already settled',
            text: '{"jsonrpc":"2.0","id":77,"result":{}}',
        },
    },
    {
        what: 'an error for an id the client never sent',
        stray: '{"jsonrpc":"2.0","id":"2","error":{"code":1,"message":"m"}}\n',
        strict: 'The MCP server sent an error for request id "2", which this client never sent or already settled',
        event: {
            kind: 'unmatched-response',
            message:
                'The MCP server sent an error for request id "2", which this client never sent or already settled',
            text: '{"jsonrpc":"2.0","id":"2","error":{"code":1,"message":"m"}}',
        },
    },
    {
        what: 'an error without an id (the server could not read a message)',
        stray: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n',
        strict:
            'The MCP server sent an error without a request id (code -32700: "Parse error"); it could not read a ' +
            'message this client sent',
        event: {
            kind: 'unmatched-response',
            message:
                'The MCP server sent an error without a request id (code -32700: "Parse error"); it could not ' +
                'read a message this client sent',
            text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
        },
    },
    {
        what: 'a response without result, error or a usable id',
        stray: '{"jsonrpc":"2.0","id":1.5}\n',
        strict: 'The MCP server sent a response that cannot be matched to a request: it has neither "result" nor "error"',
        event: {
            kind: 'not-json-rpc',
            message:
                'The MCP server sent a response that cannot be matched to a request: it has neither "result" nor "error"',
            text: '{"jsonrpc":"2.0","id":1.5}',
        },
    },
    {
        what: 'a message that is not valid JSON-RPC',
        stray: '{"jsonrpc":"1.0","method":"notifications/message"}\n',
        strict: 'The MCP server sent an invalid message: The "jsonrpc" member must be exactly "2.0"',
        event: {
            kind: 'not-json-rpc',
            message: 'The MCP server sent an invalid message: The "jsonrpc" member must be exactly "2.0"',
            text: '{"jsonrpc":"1.0","method":"notifications/message"}',
        },
    },
    {
        what: 'a line over maxMessageBytes (not buffered)',
        stray: `{"jsonrpc":"2.0","id":$ID,"result":{"content":[{"type":"text","text":"${'y'.repeat(200)}"}]}}\n`,
        maxMessageBytes: 200,
        strict:
            "The MCP server wrote a line of 273 bytes, over the client's limit of 200 bytes (maxMessageBytes); " +
            'the line was discarded',
        event: {
            kind: 'oversized',
            message:
                "The MCP server wrote a line of 273 bytes, over the client's limit of 200 bytes (maxMessageBytes); " +
                'the line was discarded',
            text: '',
        },
    },
];

for (const stray of STRAYS) {
    test(`strict: ${stray.what} ends the session with a protocol violation`, GUARD, async () => {
        const {client, pid} = await connectFake(
            {script: {'tools/call': [{raw: stray.stray}]}},
            {strict: true, maxMessageBytes: stray.maxMessageBytes},
        );
        let failure: unknown;
        await assert.rejects(client.callTool('x'), (error) => {
            failure = error;
            assert.ok(error instanceof McpProtocolViolationError, String(error));
            assert.equal(error.message, stray.strict);
            return true;
        });
        await client.close();
        assertGone(pid);
        // Later calls fail at once with a connection error caused by the violation.
        await assert.rejects(client.callTool('y'), (error) => {
            assert.ok(error instanceof McpConnectionError);
            assert.equal(error.cause, failure);
            return true;
        });
    });

    test(`by default: ${stray.what} is told once and skipped; calls go on`, GUARD, async () => {
        const events: McpProtocolErrorEvent[] = [];
        const {client, pid} = await connectFake(
            {
                script: {
                    'tools/call': [
                        {raw: stray.stray + ANSWER},
                        {result: {content: [{type: 'text', text: 'b'}]}},
                    ],
                },
            },
            {onProtocolError: (event) => events.push(event), maxMessageBytes: stray.maxMessageBytes},
        );
        assert.deepEqual(await client.callTool('x'), {content: []});
        assert.deepEqual(events, [stray.event]);
        assert.deepEqual(await client.callTool('y'), {content: [{type: 'text', text: 'b'}]});
        assert.equal(events.length, 1);
        await client.close();
        assertGone(pid);
    });
}
