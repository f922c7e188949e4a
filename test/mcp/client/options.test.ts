/** Programmer errors: thrown at the call site, naming the option and what it accepts. */
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {afterEach, test} from 'node:test';
import type {McpClientOptions} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, DEFAULT_CLIENT_INFO} from '../../../lib/mcp/client/index.js';
import {REPO_ROOT} from '../../helpers/paths.js';
import {closeAll, connectFake, GUARD} from './support.js';

afterEach(closeAll);

const base = {command: process.execPath};

/** Each case: options, the error class, and its exact message. */
const CONNECT: [unknown, string, string][] = [
    [undefined, 'TypeError', 'connectMcpClient(options) needs an options object, got undefined'],
    [
        {},
        'TypeError',
        'connectMcpClient: give command (to spawn a server over stdio) or url (to reach one over Streamable HTTP)',
    ],
    [
        {command: 'x', url: 'https://h/mcp'},
        'TypeError',
        'connectMcpClient: give either command (stdio) or url (Streamable HTTP), not both',
    ],
    [
        {url: 'http://h/mcp'},
        'TypeError',
        'connectMcpClient: the url http://h/mcp uses plain HTTP to a host that is not loopback, which would ' +
            'expose the session and its credentials; use https://h/mcp (plain HTTP is allowed only for ' +
            'localhost, 127.0.0.0/8 and [::1])',
    ],
    [
        {...base, stdin: 'x'},
        'TypeError',
        'connectMcpClient: unknown option "stdin"; the options are command, args, env, cwd, stderr, ' +
            'maxMessageBytes, exitGraceMs, terminateGraceMs, clientInfo, protocolVersion, initializeTimeoutMs, ' +
            'listTimeoutMs, callTimeoutMs, signal, onProtocolError, strict, onNotification, onLog, onListChanged, ' +
            'onResourceUpdated, versionNegotiation, discoverTimeoutMs, handlers, maxInputRounds',
    ],
    [{command: ''}, 'TypeError', 'connectMcpClient: command must be a non-empty string, got the string ""'],
    [{command: 3}, 'TypeError', 'connectMcpClient: command must be a non-empty string, got number 3'],
    [
        {...base, args: 'a b'},
        'TypeError',
        'connectMcpClient: args must be an array of strings, got the string "a b"',
    ],
    [{...base, args: ['a', 1]}, 'TypeError', 'connectMcpClient: args[1] must be a string, got number 1'],
    [
        {...base, env: 'X=1'},
        'TypeError',
        'connectMcpClient: env must be an object of strings, got the string "X=1"',
    ],
    [{...base, env: {A: 1}}, 'TypeError', 'connectMcpClient: env.A must be a string, got number 1'],
    [
        {...base, cwd: 7},
        'TypeError',
        'connectMcpClient: cwd must be a path string or a file: URL, got number 7',
    ],
    [
        {...base, stderr: 'pipe'},
        'TypeError',
        "connectMcpClient: stderr must be 'inherit', 'ignore' or a function receiving text, got the string \"pipe\"",
    ],
    [
        {...base, maxMessageBytes: '1'},
        'TypeError',
        'connectMcpClient: maxMessageBytes must be a number, got the string "1"',
    ],
    [
        {...base, exitGraceMs: -1},
        'RangeError',
        'connectMcpClient: exitGraceMs must be a whole number from 0 to 2147483647, got -1',
    ],
    [
        {...base, terminateGraceMs: 1.5},
        'RangeError',
        'connectMcpClient: terminateGraceMs must be a whole number from 0 to 2147483647, got 1.5',
    ],
    [
        {...base, clientInfo: {name: 'x'}},
        'TypeError',
        'connectMcpClient: clientInfo must be an object with "name" and "version" strings, got an object',
    ],
    [
        {...base, clientInfo: {name: 'x', version: '1', n: 1n}},
        'TypeError',
        'connectMcpClient: clientInfo cannot be serialized as JSON (Do not know how to serialize a BigInt)',
    ],
    [
        {...base, protocolVersion: '2026-07-28'},
        'RangeError',
        'connectMcpClient: protocolVersion is the string "2026-07-28"; the revisions this client speaks are ' +
            '2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05',
    ],
    [
        {...base, initializeTimeoutMs: '5'},
        'TypeError',
        'connectMcpClient: initializeTimeoutMs must be a number of milliseconds, got the string "5"',
    ],
    [
        {...base, listTimeoutMs: 0},
        'RangeError',
        'connectMcpClient: listTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, or ' +
            'Infinity for no timeout; got 0',
    ],
    [
        {...base, callTimeoutMs: 2 ** 31},
        'RangeError',
        'connectMcpClient: callTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, or ' +
            'Infinity for no timeout; got 2147483648',
    ],
    [{...base, signal: {}}, 'TypeError', 'connectMcpClient: signal must be an AbortSignal, got an object'],
    [
        {...base, strict: 'yes'},
        'TypeError',
        'connectMcpClient: strict must be true or false, got the string "yes"',
    ],
    [
        {url: 'http://127.0.0.1:1/mcp', strict: 1},
        'TypeError',
        'connectMcpClient: strict must be true or false, got number 1',
    ],
    [
        {...base, onProtocolError: 'log'},
        'TypeError',
        'connectMcpClient: onProtocolError must be a function receiving each protocol error event, got the string "log"',
    ],
    [
        {url: 'http://127.0.0.1:1/mcp', onProtocolError: true},
        'TypeError',
        'connectMcpClient: onProtocolError must be a function receiving each protocol error event, got boolean true',
    ],
];

for (const [options, name, message] of CONNECT) {
    test(`connectMcpClient(${JSON.stringify(options, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}) throws ${name}`, () => {
        assert.throws(() => connectMcpClient(options as McpClientOptions), {name, message});
    });
}

test('the default clientInfo is this package name and version', async () => {
    const manifest = JSON.parse(await readFile(new URL('package.json', `file://${REPO_ROOT}`), 'utf8')) as {
        name: string;
        version: string;
    };
    assert.deepEqual({...DEFAULT_CLIENT_INFO}, {name: manifest.name, version: manifest.version});
});

test('the methods check their arguments and options before sending anything', GUARD, async () => {
    const {client, wire} = await connectFake();
    const cases: [() => unknown, string, string][] = [
        [
            () => client.callTool(''),
            'TypeError',
            'client.callTool: the tool name must be a non-empty string, got the string ""',
        ],
        [
            () => client.callTool('t', [] as never),
            'TypeError',
            'client.callTool: args must be an object of arguments, got an array',
        ],
        [
            () => client.callTool('t', {n: 1n}),
            'TypeError',
            'client.callTool: args cannot be serialized as JSON (Do not know how to serialize a BigInt); pass JSON values only',
        ],
        [
            () => client.callTool('t', {}, 5 as never),
            'TypeError',
            'client.callTool needs an options object, got number 5',
        ],
        [
            () => client.callTool('t', {}, {timeout: 5} as never),
            'TypeError',
            'client.callTool: unknown option "timeout"; the options are signal, timeoutMs, onProgress, resetTimeoutOnProgress, maxTotalTimeoutMs',
        ],
        [
            () => client.callTool('t', {}, {onProgress: true} as never),
            'TypeError',
            'client.callTool: onProgress must be a function, got boolean true',
        ],
        [
            () => client.callTool('t', {}, {timeoutMs: Number.NaN}),
            'RangeError',
            'client.callTool: timeoutMs must be a whole number of milliseconds from 1 to 2147483647, or Infinity for no timeout; got NaN',
        ],
        [
            () => client.listTools({onProgress: () => {}} as never),
            'TypeError',
            'client.listTools: unknown option "onProgress"; the options are signal, timeoutMs',
        ],
        [
            () => client.listResources({signal: 'x'} as never),
            'TypeError',
            'client.listResources: signal must be an AbortSignal, got the string "x"',
        ],
        [
            () => client.readResource(1 as never),
            'TypeError',
            'client.readResource: the uri must be a non-empty string, got number 1',
        ],
    ];
    for (const [run, name, message] of cases) assert.throws(run, {name, message});
    // Nothing but the handshake reached the server.
    assert.deepEqual(await client.listTools({timeoutMs: Number.POSITIVE_INFINITY}), []);
    assert.equal((await wire.receivedCount(3)).length, 3);
    await client.close();
});
