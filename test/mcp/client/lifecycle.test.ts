/**
 * The session's end: close() is idempotent and ends the child by the documented escalation, the
 * child's stderr is the caller's, and a process that used the client ends by itself afterwards.
 */
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {connectMcpClient, McpConnectionError} from '../../../lib/mcp/client/index.js';
import {MOON_PANTRY, REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';
import {assertGone, closeAll, connectFake, GUARD, startFake} from './support.js';

afterEach(closeAll);

const CLIENT_RUN = fileURLToPath(new URL('./fixtures/client-run.js', import.meta.url));

test(
    'close() returns one promise to every caller, ends stdin, and the child exits by itself',
    GUARD,
    async () => {
        const {client, wire, pid} = await connectFake();
        const closing = client.close();
        assert.equal(client.close(), closing);
        await closing;
        assert.equal(client.close(), closing);
        assertGone(pid);
        assert.equal(wire.lines.at(-1), 'EOF');
        assert.equal(wire.lines.includes('SIGTERM'), false);
        await assert.rejects(client.callTool('x'), {
            name: 'McpConnectionError',
            message: 'Cannot send tools/call: The MCP client was closed',
        });
        await assert.rejects(client.listTools(), {name: 'McpConnectionError'});
    },
);

test('a child that ignores the end of stdin gets SIGTERM after exitGraceMs', GUARD, async () => {
    const {client, wire, pid} = await connectFake({ignoreEof: true}, {exitGraceMs: 50});
    await client.close();
    assertGone(pid);
    assert.equal(wire.lines.includes('EOF'), true);
});

test('a child that ignores SIGTERM too gets SIGKILL after terminateGraceMs', GUARD, async () => {
    const {client, wire, pid} = await connectFake(
        {ignoreEof: true, ignoreTerm: true},
        {
            exitGraceMs: 50,
            terminateGraceMs: 50,
        },
    );
    await client.close();
    assertGone(pid);
    assert.deepEqual(wire.lines.slice(-2), ['EOF', 'SIGTERM']);
});

test('closing with requests pending cancels them on the wire, then ends stdin', GUARD, async () => {
    const {client, wire, pid} = await connectFake({
        script: {'tools/call': [{silent: true}], 'resources/read': [{silent: true}]},
    });
    const call = client.callTool('slow');
    const read = client.readResource('x:y');
    // Observed before anything is awaited, so an early settlement fails here, not as an unhandled rejection.
    const failures = Promise.all([
        assert.rejects(call, {
            name: 'McpConnectionError',
            message: 'The MCP client was closed before the server answered tools/call',
        }),
        assert.rejects(read, {
            name: 'McpConnectionError',
            message: 'The MCP client was closed before the server answered resources/read',
        }),
    ]);
    // The server reads its input in order and answers in order: once tools/list is answered, it has
    // read both requests, and whatever it wrote for them has reached the client before this answer.
    assert.deepEqual(await client.listTools(), []);
    await client.close();
    await failures;
    assertGone(pid);
    assert.deepEqual(wire.lines.slice(-3), [
        'RECV {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"The client is closing"}}',
        'RECV {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"The client is closing"}}',
        'EOF',
    ]);
});

test(
    'a command that does not exist fails connecting with a connection error that says what to check',
    GUARD,
    async () => {
        await assert.rejects(connectMcpClient({command: 'arcane-no-such-command-3f9a'}), (error) => {
            assert.ok(error instanceof McpConnectionError);
            assert.equal(
                error.message,
                'Could not start the MCP server "arcane-no-such-command-3f9a": spawn arcane-no-such-command-3f9a ' +
                    'ENOENT; check that the command exists and is on the PATH',
            );
            assert.equal((error.cause as NodeJS.ErrnoException).code, 'ENOENT');
            return true;
        });
    },
);

test('a missing cwd is named among the things to check', GUARD, async () => {
    const cwd = join(tmpdir(), 'arcane-no-such-directory-7c1e');
    await assert.rejects(connectMcpClient({command: process.execPath, cwd}), {
        name: 'McpConnectionError',
        message: `Could not start the MCP server ${JSON.stringify(process.execPath)}: spawn ${process.execPath} ENOENT; check that the command exists and is on the PATH, and that cwd exists`,
    });
});

test('cwd and env reach the child', GUARD, async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'arcane-client-'));
    try {
        const {client, wire} = await connectFake(
            {},
            {cwd: new URL(`file://${cwd}/`), env: {FAKE_MARK: 'marked'}},
        );
        assert.equal(await wire.until((line) => line.startsWith('CWD ')), `CWD ${cwd}`);
        assert.equal(await wire.until((line) => line.startsWith('MARK ')), 'MARK marked');
        await client.close();
    } finally {
        await rm(cwd, {recursive: true});
    }
});

test("stderr 'inherit' and 'ignore' both serve a whole session", GUARD, async () => {
    for (const stderr of ['inherit', 'ignore'] as const) {
        const client = await connectMcpClient({
            command: process.execPath,
            args: [MOON_PANTRY],
            stderr,
            cwd: REPO_ROOT,
        });
        assert.equal(client.serverInfo.name, 'moon-pantry');
        await client.close();
    }
});

test('a stderr callback that throws ends the session with that error as the cause', GUARD, async () => {
    const thrown = new Error('logger broke');
    const {connecting} = startFake(
        {},
        {
            stderr: () => {
                throw thrown;
            },
        },
    );
    await assert.rejects(connecting, (error) => {
        assert.ok(error instanceof McpConnectionError);
        assert.equal(error.message, 'The stderr callback threw: logger broke');
        assert.equal(error.cause, thrown);
        return true;
    });
});

/**
 * Each case: how the fake answers the call, whether the script closes (and is strict), and what
 * the call gave. A stray line ends only a strict session by itself; a tolerant one goes on.
 */
const ENDS: [string, object, string, object][] = [
    ['a normal session, closed', {}, 'close', {result: {content: [{type: 'text', text: 'called x'}]}}],
    [
        'a line that is not JSON in a strict session, never closed by the caller',
        {script: {'tools/call': [{raw: 'oops\n'}]}},
        ' strict',
        {
            name: 'McpProtocolViolationError',
            message:
                'The MCP server wrote a line to stdout that is not JSON: "oops". An MCP server over stdio must write ' +
                'only JSON-RPC messages to stdout (logs belong on stderr).',
        },
    ],
    [
        'an answer to an unknown id in a strict session, never closed by the caller',
        {script: {'tools/call': [{raw: '{"jsonrpc":"2.0","id":99,"result":{}}\n'}]}},
        ' strict',
        {
            name: 'McpProtocolViolationError',
            message:
                'The MCP server sent an answer for request id 99, which this client never sent or already settled',
        },
    ],
    [
        'a line that is not JSON tolerated, then a timeout, closed',
        {script: {'tools/call': [{raw: 'oops\n'}]}},
        'close',
        {
            name: 'McpTimeoutError',
            message:
                'The MCP server did not answer tools/call within 200 ms; the client stopped waiting and sent ' +
                'notifications/cancelled, but the server may still be working on it. Raise timeoutMs if the ' +
                'operation needs longer.',
        },
    ],
    [
        'a server exiting mid-call, never closed by the caller',
        {script: {'tools/call': [{exit: 5}]}},
        '',
        {
            name: 'McpConnectionError',
            message: `The MCP server process (${process.execPath}) exited with code 5; its stderr may say why`,
        },
    ],
    [
        'a timeout against a server that ignores EOF and SIGTERM, closed',
        {script: {'tools/call': [{silent: true}]}, ignoreEof: true, ignoreTerm: true},
        'close',
        {
            name: 'McpTimeoutError',
            message:
                'The MCP server did not answer tools/call within 200 ms; the client stopped waiting and sent ' +
                'notifications/cancelled, but the server may still be working on it. Raise timeoutMs if the ' +
                'operation needs longer.',
        },
    ],
];

for (const [what, config, mode, outcome] of ENDS) {
    test(`the client process ends by itself after ${what}`, GUARD, async () => {
        const finished = await runNode([CLIENT_RUN, JSON.stringify(config), ...mode.split(' ')], {
            cwd: REPO_ROOT,
        });
        assert.deepEqual(
            {code: finished.code, stderr: finished.stderr, outcome: JSON.parse(finished.stdout)},
            {code: 0, stderr: '', outcome},
        );
    });
}
