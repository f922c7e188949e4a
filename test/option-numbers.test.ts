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

/**
 * One kind of numeric option: its entry point's prefix, its options, what its TypeError asks for,
 * which of `VALUES` it accepts (one flag each), and what its RangeError says, `{v}` standing for
 * the value as shown ("2147483648", "-1", "NaN"…).
 */
type Kind = [prefix: string, options: string[], kind: string, accepted: boolean[], range: string];

const LARGE_OK = [true, true, false, false, false, false, false];
const NONE_OK = [false, false, false, false, false, false, false];
const INFINITY_OK = [false, false, false, false, false, false, true];
const NUMBER = 'a number';
const MS = 'a number of milliseconds';
const TTL = 'a whole number of milliseconds of at least 0, got number {v}';
const TIMEOUT = 'a whole number of milliseconds from 1 to 2147483647, or Infinity for no timeout; got {v}';

/** The options of every kind, as rows of outcomes. */
function rows(kinds: readonly Kind[]): Row[] {
    const shown = ['2147483648', '4294967296', '-1', '1.5', 'NaN', STRING, 'Infinity'];
    return kinds.flatMap(([prefix, options, kind, accepted, range]) =>
        options.map((option) => ({
            option,
            outcomes: shown.map((value, index): Outcome => {
                if (accepted[index] === true) return 'ok';
                if (value === STRING)
                    return ['TypeError', `${prefix}${option} must be ${kind}, got ${STRING}`];
                return ['RangeError', `${prefix}${option} must be ${range.replace('{v}', value)}`];
            }),
        })),
    );
}

const SERVER_ROWS = rows([
    [
        SERVER,
        ['maxMessageBytes', 'outputHighWaterMark', 'maxSubscriptions'],
        NUMBER,
        LARGE_OK,
        'a positive integer, got {v}',
    ],
    [SERVER, ['listCache.ttlMs', 'readCache.ttlMs'], MS, LARGE_OK, TTL],
]);

const COMMON_ROWS = rows([
    [CLIENT, ['initializeTimeoutMs', 'listTimeoutMs', 'callTimeoutMs'], MS, INFINITY_OK, TIMEOUT],
]);

const LINE = 'a whole number from 0 to 4294967296, got {v}';
const GRACE = 'a whole number from 0 to 2147483647, got {v}';
const COUNT = 'an integer of at least 1, got number {v}';
const DELAY = 'an integer from 0 to 2147483647, got number {v}';

const STDIO_ROWS = rows([
    [CLIENT, ['maxMessageBytes'], NUMBER, LARGE_OK, LINE],
    [CLIENT, ['exitGraceMs', 'terminateGraceMs'], MS, NONE_OK, GRACE],
]);

const HTTP_ROWS = rows([
    [CLIENT, ['maxMessageBytes', 'reconnect.maxAttempts'], NUMBER, LARGE_OK, COUNT],
    [CLIENT, ['reconnect.initialDelayMs', 'reconnect.maxDelayMs', 'closeTimeoutMs'], MS, NONE_OK, DELAY],
]);

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
