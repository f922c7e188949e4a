/**
 * Every numeric option of both entry points, driven with the same seven values: a TypeError for a
 * value that is not a number, a RangeError for a number out of range (timers stop at 2^31 - 1 ms,
 * where Node's own timers would fire after 1 ms instead), each with its exact message.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {McpClientOptions} from '../lib/mcp/client/index.js';
import {connectMcpClient} from '../lib/mcp/client/index.js';
import type {McpStdioServerOptions} from '../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../lib/mcp/stdio/index.js';

const VALUES: readonly [string, unknown][] = [
    ['2**31', 2 ** 31],
    ['2**32', 2 ** 32],
    ['-1', -1],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
    ['a string', '5'],
    ['Infinity', Number.POSITIVE_INFINITY],
];

/** What one option answers to each of `VALUES`: 'ok', or the error's class and message. */
type Outcome = 'ok' | [name: 'TypeError' | 'RangeError', message: string];

interface Row {
    /** How the option is written: `reconnect.maxAttempts` is nested. */
    option: string;
    /** One outcome for each of `VALUES`, in order. */
    outcomes: Outcome[];
}

const SERVER = 'createMcpStdioServer: ';
const CLIENT = 'connectMcpClient: ';
const STRING = 'the string "5"';

/** The outcomes of an option whose values from `VALUES` are, in order, those marked true accepted. */
function outcomes(
    prefix: string,
    kind: string,
    expects: string,
    accepted: readonly boolean[],
    shown: (value: string) => string,
    separator = ',',
): Outcome[] {
    const bare = ['2147483648', '4294967296', '-1', '1.5', 'NaN', STRING, 'Infinity'];
    return bare.map((value, index) => {
        if (accepted[index] === true) return 'ok';
        if (value === STRING) return ['TypeError', `${prefix} must be ${kind}, got ${STRING}`];
        return ['RangeError', `${prefix} must be ${expects}${separator} got ${shown(value)}`];
    });
}

const bare = (value: string): string => value;
const described = (value: string): string => `number ${value}`;
const LARGE_OK = [true, true, false, false, false, false, false];
const NONE_OK = [false, false, false, false, false, false, false];
const INFINITY_OK = [false, false, false, false, false, false, true];

const SERVER_ROWS: Row[] = [
    ...['maxMessageBytes', 'outputHighWaterMark'].map((option) => ({
        option,
        outcomes: outcomes(`${SERVER}${option}`, 'a number', 'a positive integer', LARGE_OK, bare),
    })),
    ...['listCache.ttlMs', 'readCache.ttlMs'].map((option) => ({
        option,
        outcomes: outcomes(
            `${SERVER}${option}`,
            'a number of milliseconds',
            'a whole number of milliseconds of at least 0',
            LARGE_OK,
            described,
        ),
    })),
];

const TIMEOUT = 'a whole number of milliseconds from 1 to 2147483647, or Infinity for no timeout';
const COMMON_ROWS: Row[] = ['initializeTimeoutMs', 'listTimeoutMs', 'callTimeoutMs'].map((option) => ({
    option,
    outcomes: outcomes(`${CLIENT}${option}`, 'a number of milliseconds', TIMEOUT, INFINITY_OK, bare, ';'),
}));

const STDIO_ROWS: Row[] = [
    {
        option: 'maxMessageBytes',
        outcomes: outcomes(
            `${CLIENT}maxMessageBytes`,
            'a number',
            'a whole number from 0 to 4294967296',
            LARGE_OK,
            bare,
        ),
    },
    ...['exitGraceMs', 'terminateGraceMs'].map((option) => ({
        option,
        outcomes: outcomes(
            `${CLIENT}${option}`,
            'a number of milliseconds',
            'a whole number from 0 to 2147483647',
            NONE_OK,
            bare,
        ),
    })),
];

const HTTP_ROWS: Row[] = [
    ...['maxMessageBytes', 'reconnect.maxAttempts'].map((option) => ({
        option,
        outcomes: outcomes(`${CLIENT}${option}`, 'a number', 'an integer of at least 1', LARGE_OK, described),
    })),
    ...['reconnect.initialDelayMs', 'reconnect.maxDelayMs', 'closeTimeoutMs'].map((option) => ({
        option,
        outcomes: outcomes(
            `${CLIENT}${option}`,
            'a number of milliseconds',
            'an integer from 0 to 2147483647',
            NONE_OK,
            described,
        ),
    })),
];

/** `base` with `option` (dotted for a nested one) set to `value`. */
function withOption<T extends object>(base: T, option: string, value: unknown): T {
    const [outer, inner] = option.split('.') as [string, string | undefined];
    if (inner === undefined) return {...base, [outer]: value};
    return {...base, [outer]: {[inner]: value}};
}

/** Runs `attempt` for every row and value; an accepted value is handed to `accepted`. */
async function drive(
    rows: readonly Row[],
    attempt: (option: string, value: unknown) => unknown,
    accepted: (result: unknown) => Promise<void>,
): Promise<void> {
    for (const {option, outcomes: expected} of rows) {
        for (const [index, [label, value]] of VALUES.entries()) {
            const outcome = expected[index] as Outcome;
            const what = `${option}: ${label}`;
            if (outcome === 'ok') {
                await accepted(attempt(option, value));
                continue;
            }
            const [name, message] = outcome;
            assert.throws(() => attempt(option, value), {name, message}, what);
        }
    }
}

/** A program that does not exist: the stdio client fails to spawn it, after every check passed. */
const NO_SUCH_COMMAND = 'arcane-os-test-no-such-command';
/** A loopback port nothing listens on: the HTTP client fails to connect, after every check passed. */
const NO_SUCH_SERVER = 'http://127.0.0.1:9/mcp';

/** A connection that passed the checks fails only later, and never with a TypeError or RangeError. */
async function failsToConnect(result: unknown): Promise<void> {
    assert.ok(result instanceof Promise);
    await assert.rejects(result, (error: Error) => error.name === 'McpConnectionError');
}

test('createMcpStdioServer checks every numeric option the same way', async () => {
    const base: McpStdioServerOptions = {serverInfo: {name: 't', version: '1'}};
    await drive(
        SERVER_ROWS,
        (option, value) => createMcpStdioServer(withOption(base, option, value)),
        async (server) => {
            assert.equal(typeof (server as {start?: unknown}).start, 'function');
        },
    );
});

test('connectMcpClient over stdio checks every numeric option the same way', async () => {
    const base = {command: NO_SUCH_COMMAND, stderr: 'ignore'} as McpClientOptions;
    await drive(
        [...COMMON_ROWS, ...STDIO_ROWS],
        (option, value) => connectMcpClient(withOption(base, option, value)),
        failsToConnect,
    );
});

test('connectMcpClient over Streamable HTTP checks every numeric option the same way', async () => {
    const base = {url: NO_SUCH_SERVER} as McpClientOptions;
    await drive(
        [...COMMON_ROWS, ...HTTP_ROWS],
        (option, value) => connectMcpClient(withOption(base, option, value)),
        failsToConnect,
    );
});
