/**
 * The tolerant client against a server written with the official SDK 1.x, as a third party would,
 * that logs a banner and a line between answers with `console.log`: every call succeeds and each
 * line reaches `onProtocolError` once; with `strict: true` the banner fails connecting, as before.
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {McpProtocolErrorEvent} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import {assertGone, closeAll, GUARD, Wire} from '../../mcp/client/support.js';

afterEach(closeAll);

const SERVER = fileURLToPath(new URL('./fixtures/chatty-sdk-server.js', import.meta.url));

const NOT_JSON_TAIL =
    '. An MCP server over stdio must write only JSON-RPC messages to stdout (logs belong on stderr).';

function notJson(text: string): McpProtocolErrorEvent {
    return {
        kind: 'not-json',
        message: `The MCP server wrote a line to stdout that is not JSON: ${JSON.stringify(text)}${NOT_JSON_TAIL}`,
        text,
    };
}

const ran = (name: string) => ({content: [{type: 'text', text: `ran ${name}`}]});

test(
    'by default, an SDK 1.x server that logs on stdout serves every call; each line is told once',
    GUARD,
    async () => {
        const events: McpProtocolErrorEvent[] = [];
        const wire = new Wire();
        const client = await connectMcpClient({
            command: process.execPath,
            args: [SERVER],
            stderr: wire.stderr,
            onProtocolError: (event) => events.push(event),
        });
        assert.deepEqual(client.serverInfo, {name: 'chatty-sdk', version: '1.0.0'});
        assert.deepEqual(await client.callTool('quiet'), ran('quiet'));
        assert.deepEqual(await client.callTool('noisy'), ran('noisy'));
        assert.deepEqual(await client.callTool('quiet'), ran('quiet'));
        assert.deepEqual(events, [
            notJson('chatty MCP server v1.0.0 ready on stdio'),
            notJson('[chatty] running noisy'),
        ]);
        await client.close();
        assertGone(await wire.pid());
    },
);

test(
    'with strict: true, the SDK 1.x server fails connecting with its banner, as it always did',
    GUARD,
    async () => {
        const wire = new Wire();
        const connecting = connectMcpClient({
            command: process.execPath,
            args: [SERVER],
            stderr: wire.stderr,
            strict: true,
        });
        await assert.rejects(connecting, (error) => {
            assert.ok(error instanceof McpProtocolViolationError);
            assert.equal(
                error.message,
                `The MCP server wrote a line to stdout that is not JSON: "chatty MCP server v1.0.0 ready on stdio"${NOT_JSON_TAIL}`,
            );
            return true;
        });
        assertGone(await wire.pid());
    },
);
