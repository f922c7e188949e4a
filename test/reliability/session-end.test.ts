/**
 * No zombie: however a session ends, an app in the README example's shape (start, await closed,
 * set its exit code, return) exits by itself while its client keeps stdin open, with the exit code
 * it chose. Each way of ending runs over spawn's socket pairs and over real OS pipes (fifos), which
 * behave differently under Node's one kind of pipe stream. The app is fixtures/session-end-app.ts.
 *
 * The bound (HANG_BOUND_MS) is no timing assertion: it only turns a hang into a failure, whose
 * message carries the app's stderr.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {REPO_ROOT} from '../helpers/paths.js';
import {callRecord, initializeRecord, MARK} from './support.js';
import type {Client} from './transports.js';
import {exitWithin, launch, TRANSPORTS} from './transports.js';

const app = fileURLToPath(new URL('./fixtures/session-end-app.js', import.meta.url));
const RESOLVED = 3;
const REJECTED = 4;

interface Way {
    /** What ends the session, as the test names it. */
    name: string;
    /** The fixture's name for it. */
    arg: string;
    /** The app's exit code. */
    code: number;
    /** The failure that `closed` rejects with, when it does. */
    failure?: string;
    /** Everything the client does after `initialize`. */
    drive(client: Client): Promise<void> | void;
}

function trigger(client: Client): void {
    client.stdin.write(callRecord('trigger', 'trigger'));
}

const WAYS: readonly Way[] = [
    {
        name: 'EOF',
        arg: 'eof',
        code: RESOLVED,
        async drive(client) {
            trigger(client);
            await client.stdoutIncludes('"id":"trigger","result"');
            client.stdin.end();
        },
    },
    {name: 'close() from a handler', arg: 'close', code: RESOLVED, drive: trigger},
    {
        name: 'close({cancelPending: true}) from a handler',
        arg: 'cancel-pending',
        code: RESOLVED,
        drive(client) {
            client.stdin.write(callRecord('pending', 'wait'));
            trigger(client);
        },
    },
    {
        name: 'an output write that fails through its callback',
        arg: 'output-error',
        code: REJECTED,
        failure: 'fixture: ENOSPC, the output device is full',
        drive: trigger,
    },
    {
        name: 'an output that emits error instead of calling back',
        arg: 'output-error-event',
        code: REJECTED,
        failure: 'fixture: the output pipe broke',
        drive: trigger,
    },
    {
        name: 'an output that emits close instead of calling back',
        arg: 'output-close',
        code: REJECTED,
        failure: 'The output stream closed before a pending write completed',
        drive: trigger,
    },
    {
        name: 'an output that emits finish instead of calling back',
        arg: 'output-finish',
        code: REJECTED,
        failure: 'The output stream finished before a pending write completed',
        drive: trigger,
    },
    {
        name: 'a diagnostic write that fails',
        arg: 'diagnostic-error',
        code: REJECTED,
        failure: 'fixture: EIO, the diagnostic device failed',
        drive(client) {
            client.stdin.write(`{${MARK}${'x'.repeat(4096)}\n`);
        },
    },
    {
        name: 'EPIPE from a client that stops reading stdout in the middle of a result',
        arg: 'epipe',
        code: REJECTED,
        failure: 'write EPIPE',
        async drive(client) {
            trigger(client);
            await client.stdoutIncludes('"id":"trigger","result"');
            client.stdout.destroy();
        },
    },
    {
        name: 'an input error',
        arg: 'input-error',
        code: REJECTED,
        failure: 'fixture: EIO, the input device failed',
        drive: trigger,
    },
    {
        name: 'an input close without end',
        arg: 'input-close',
        code: REJECTED,
        failure: 'The input stream closed before its end: the MCP client went away without closing stdin',
        drive: trigger,
    },
    {
        name: 'invalid UTF-8',
        arg: 'invalid-utf8',
        code: REJECTED,
        failure:
            'The input is not valid UTF-8: the MCP client must send UTF-8 encoded JSON-RPC records, one per line. ' +
            'The transport was closed.',
        drive(client) {
            client.stdin.write(
                Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":"\xff"}\n', 'latin1'),
            );
        },
    },
    {
        name: 'an input chunk that is not bytes',
        arg: 'non-bytes',
        code: REJECTED,
        failure:
            'The input stream produced number 42 instead of bytes or a string; ' +
            'give start() a byte or text stream, not an object-mode stream of other values',
        drive: trigger,
    },
];

for (const transport of TRANSPORTS) {
    for (const way of WAYS) {
        const outcome = way.code === RESOLVED ? 'closed resolved' : 'closed rejected';
        test(`after ${way.name}, the app exits by itself with the code it chose (${outcome}) over ${transport} pipes`, async () => {
            const client = await launch(transport, [app, way.arg], REPO_ROOT);
            try {
                client.stdin.write(initializeRecord);
                await client.stdoutIncludes('"id":"init","result"');
                await way.drive(client);
                const exit = await exitWithin(client);
                const stderr = client.stderrText();
                assert.deepEqual(exit, {code: way.code, signal: null}, stderr);
                const last =
                    way.failure === undefined
                        ? 'session-end-app: closed resolved\n'
                        : `session-end-app: closed rejected: The MCP stdio session failed: ${way.failure}\n`;
                assert.ok(stderr.endsWith(last), stderr);
                assert.ok(!/Uncaught|Unhandled 'error' event|triggerUncaughtException/.test(stderr), stderr);
            } finally {
                await client.release();
            }
        });
    }
}
