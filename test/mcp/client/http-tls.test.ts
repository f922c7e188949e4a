/**
 * The client over loopback TLS, end to end: a node:https fixture with a certificate made at test
 * time by a throwaway CA, and our client in a child process that trusts that CA through
 * NODE_EXTRA_CA_CERTS (the way a user trusts a private CA). The fixture records every request, so
 * the handshake, pagination, the calls and the session's end are asserted on the wire; the child
 * must exit by itself once the client is closed, with the fixture still up.
 */
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import {runNode} from '../../helpers/process.js';
import type {Certificates, Seen} from './http-fixture.js';
import {Fixture, makeCertificates} from './http-fixture.js';
import type {Page} from './http-mcp.js';
import {ADD, SERVER_INFO, SESSION_ID, scripted, TWO_PAGES, tool} from './http-mcp.js';

/** Turns a hang into a failure; nothing here should come near it. */
const GUARD = {timeout: 30_000};

const DRIVER = fileURLToPath(new URL('./fixtures/http-driver.js', import.meta.url));

let certificates: Certificates;
before(() => {
    certificates = makeCertificates();
});
after(() => certificates.remove());

interface Step {
    step: string;
    value?: unknown;
    error?: {name: string; message: string; cause?: {name: string; message: string}};
}

/** Serves `pages` over TLS and runs the driver against it; resolves once the child has exited. */
async function drive(
    pages: readonly Page[],
    scenario: string,
    host = 'localhost',
    listen = false,
): Promise<{steps: Step[]; seen: Seen[]; code: number | null; stderr: string; url: string}> {
    const fixture = await Fixture.start(scripted(pages), certificates);
    try {
        const url = fixture.url(host);
        const {code, stdout, stderr} = await runNode([DRIVER, url, scenario, listen ? 'listen' : ''], {
            cwd: process.cwd(),
            env: {...process.env, NODE_EXTRA_CA_CERTS: certificates.caFile},
        });
        const steps = stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Step);
        return {steps, seen: [...fixture.seen], code, stderr, url};
    } finally {
        await fixture.close();
    }
}

const headers = (seen: Seen) => ({
    'content-type': seen.headers['content-type'],
    accept: seen.headers.accept,
    'mcp-session-id': seen.headers['mcp-session-id'],
    'mcp-protocol-version': seen.headers['mcp-protocol-version'],
    authorization: seen.headers.authorization,
});

const POST_HEADERS = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': SESSION_ID,
    'mcp-protocol-version': '2025-11-25',
    authorization: 'Bearer test-token',
};

test(
    'over TLS: the handshake, every page of tools, a call, an error call, and DELETE at close, exactly',
    GUARD,
    async () => {
        const {steps, seen, code, stderr} = await drive(TWO_PAGES, 'tools');
        assert.equal(stderr, '');
        assert.equal(code, 0);
        assert.deepEqual(steps, [
            {
                step: 'connect',
                value: {
                    serverInfo: SERVER_INFO,
                    protocolVersion: '2025-11-25',
                    capabilities: {tools: {listChanged: false}},
                    instructions: 'Add numbers; fail on demand.',
                },
            },
            {step: 'listTools', value: [ADD, tool('fail')]},
            {step: 'callTool', value: {content: [{type: 'text', text: '3'}], structuredContent: {sum: 3}}},
            {
                step: 'callTool error',
                value: {content: [{type: 'text', text: 'it failed, as asked'}], isError: true},
            },
            {
                step: 'readToolResult',
                error: {name: 'McpToolError', message: 'The tool reported an error: it failed, as asked'},
            },
            {step: 'close'},
        ]);
        assert.deepEqual(
            seen.map((s) => [s.method, s.path, s.body]),
            [
                [
                    'POST',
                    '/mcp',
                    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"arcane-os","version":"0.1.0"}}}',
                ],
                ['POST', '/mcp', '{"jsonrpc":"2.0","method":"notifications/initialized"}'],
                ['POST', '/mcp', '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'],
                [
                    'POST',
                    '/mcp',
                    '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"page-2"}}',
                ],
                [
                    'POST',
                    '/mcp',
                    '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}',
                ],
                [
                    'POST',
                    '/mcp',
                    '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fail","arguments":{}}}',
                ],
                [
                    'POST',
                    '/mcp',
                    '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"fail","arguments":{}}}',
                ],
                ['DELETE', '/mcp', ''],
            ],
        );
        const [initialize, ...later] = seen as [Seen, ...Seen[]];
        assert.deepEqual(headers(initialize), {
            ...POST_HEADERS,
            'mcp-session-id': undefined,
            'mcp-protocol-version': undefined,
        });
        for (const request of later.slice(0, -1)) assert.deepEqual(headers(request), POST_HEADERS);
        assert.deepEqual(headers(later.at(-1) as Seen), {
            ...POST_HEADERS,
            'content-type': undefined,
            accept: '*/*',
        });
    },
);

test('over TLS: a repeated cursor is rejected and the session still ends by DELETE', GUARD, async () => {
    const pages = [
        {tools: [tool('a')], nextCursor: 'again'},
        {tools: [tool('b')], nextCursor: 'again'},
    ];
    const {steps, seen, code} = await drive(pages, 'list');
    assert.equal(code, 0);
    assert.deepEqual(steps.slice(1), [
        {
            step: 'listTools',
            error: {
                name: 'McpProtocolViolationError',
                message:
                    'The MCP server\'s tools/list result (page 2) repeats the cursor "again", which an earlier page ' +
                    'already gave; following it would list the same pages forever',
            },
        },
        {step: 'close'},
    ]);
    assert.deepEqual(
        seen.slice(1).map((s) => `${s.method} ${s.body}`),
        [
            'POST {"jsonrpc":"2.0","method":"notifications/initialized"}',
            'POST {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}',
            'POST {"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"again"}}',
            'DELETE ',
        ],
    );
    assert.equal(seen.at(-1)?.headers['mcp-session-id'], SESSION_ID);
});

test('over TLS: a tool name listed twice is rejected', GUARD, async () => {
    const pages = [{tools: [ADD], nextCursor: 'p2'}, {tools: [tool('add')]}];
    const {steps, code} = await drive(pages, 'list', '127.0.0.1');
    assert.equal(code, 0);
    assert.deepEqual(steps[1], {
        step: 'listTools',
        error: {
            name: 'McpProtocolViolationError',
            message:
                'The MCP server\'s tools/list result (page 2) tools[0] repeats the tool name "add", already listed on ' +
                'page 1; tool names must be unique, so a call by that name would be ambiguous',
        },
    });
});

test(
    'over TLS with the GET stream on: a server without one (405) is fine and the process still exits',
    GUARD,
    async () => {
        const {steps, seen, code} = await drive(TWO_PAGES, 'list', 'localhost', true);
        assert.equal(code, 0);
        assert.deepEqual(
            steps.map((s) => s.step),
            ['connect', 'listTools', 'close'],
        );
        assert.deepEqual(
            seen.map((s) => s.method),
            ['POST', 'POST', 'GET', 'POST', 'POST', 'DELETE'],
        );
        assert.equal(seen[2]?.headers.accept, 'text/event-stream');
    },
);

test('a certificate the process does not trust fails the connection with the TLS reason', GUARD, async () => {
    const fixture = await Fixture.start(scripted(TWO_PAGES), certificates);
    try {
        await assert.rejects(connectMcpClient({url: fixture.url('localhost')}), (error: Error) => {
            assert.equal(error.name, 'McpConnectionError');
            // Node 24 and later append a hint of their own (`; if the root CA is installed locally,
            // try running Node.js with --use-system-ca`) to the TLS reason; ours is the prefix.
            const ours = `Could not send initialize to the MCP server: POST ${fixture.url('localhost')} failed: unable to verify the first certificate`;
            assert.ok(
                error.message === ours ||
                    error.message ===
                        `${ours}; if the root CA is installed locally, try running Node.js with --use-system-ca`,
                error.message,
            );
            assert.equal((error.cause as Error).name, 'McpHttpError');
            return true;
        });
        assert.deepEqual(fixture.seen, []);
    } finally {
        await fixture.close();
    }
});

test('plain HTTP to a remote host is refused at connect with a TypeError, before any request', GUARD, () => {
    assert.throws(() => connectMcpClient({url: 'http://mcp.example.com/mcp'}), {
        name: 'TypeError',
        message:
            'connectMcpClient: the url http://mcp.example.com/mcp uses plain HTTP to a host that is not loopback, ' +
            'which would expose the session and its credentials; use https://mcp.example.com/mcp (plain HTTP is ' +
            'allowed only for localhost, 127.0.0.0/8 and [::1])',
    });
});
