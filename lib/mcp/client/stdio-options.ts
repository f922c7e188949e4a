/**
 * stdio's own options of `connectMcpClient` (and the grace periods and line bound
 * `connectInProcess` shares), checked into the transport's settings.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {
    checkNumber,
    checkString,
    DEFAULT_MAX_MESSAGE_BYTES,
    MAX_TIMER_MS,
    timerRule,
} from '../../util/options.js';
import type {McpStdioClientOptions} from './connect-types.js';
import type {StdioTransportSettings} from './stdio.js';

export const DEFAULT_EXIT_GRACE_MS = 2_000;
export const DEFAULT_TERMINATE_GRACE_MS = 2_000;

const WHERE = 'connectMcpClient';

export const STDIO_OPTION_NAMES = [
    'command',
    'args',
    'env',
    'cwd',
    'stderr',
    'maxMessageBytes',
    'exitGraceMs',
    'terminateGraceMs',
];

/** The longest line the stdio transport takes: up to 4 GiB, where a Buffer's length stops. */
export const LINE_BYTES_RULE: NumberRule = {
    min: 0,
    max: 2 ** 32,
    kind: 'a number',
    expects: `a whole number from 0 to ${2 ** 32}`,
};
/** The child's grace periods. */
export const GRACE_RULE = timerRule(0, `a whole number from 0 to ${MAX_TIMER_MS}`);

/** stdio's own options, checked; `strict` comes from the common ones. */
export function stdioSettings(stdio: McpStdioClientOptions, strict: boolean): StdioTransportSettings {
    return {
        command: checkString(WHERE, 'command', stdio.command),
        args: checkArgs(stdio.args),
        env: checkEnv(stdio.env),
        cwd: checkCwd(stdio.cwd),
        stderr: checkStderr(stdio.stderr),
        strict,
        maxMessageBytes: checkNumber(
            WHERE,
            'maxMessageBytes',
            stdio.maxMessageBytes,
            DEFAULT_MAX_MESSAGE_BYTES,
            LINE_BYTES_RULE,
        ),
        exitGraceMs: checkNumber(WHERE, 'exitGraceMs', stdio.exitGraceMs, DEFAULT_EXIT_GRACE_MS, GRACE_RULE),
        terminateGraceMs: checkNumber(
            WHERE,
            'terminateGraceMs',
            stdio.terminateGraceMs,
            DEFAULT_TERMINATE_GRACE_MS,
            GRACE_RULE,
        ),
    };
}

function checkArgs(value: unknown): string[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
        throw new TypeError(`${WHERE}: args must be an array of strings, got ${describe(value)}`);
    }
    return Array.from(value, (arg: unknown, index) => {
        if (typeof arg !== 'string') {
            throw new TypeError(`${WHERE}: args[${index}] must be a string, got ${describe(arg)}`);
        }
        return arg;
    });
}

function checkEnv(value: unknown): NodeJS.ProcessEnv | undefined {
    if (value === undefined) return undefined;
    if (!isObject(value)) {
        throw new TypeError(`${WHERE}: env must be an object of strings, got ${describe(value)}`);
    }
    const env: NodeJS.ProcessEnv = {};
    for (const [key, entry] of Object.entries(value)) {
        if (entry === undefined) continue;
        if (typeof entry !== 'string') {
            throw new TypeError(`${WHERE}: env.${key} must be a string, got ${describe(entry)}`);
        }
        env[key] = entry;
    }
    return env;
}

function checkCwd(value: unknown): string | URL | undefined {
    if (value === undefined || typeof value === 'string' || value instanceof URL) return value;
    throw new TypeError(`${WHERE}: cwd must be a path string or a file: URL, got ${describe(value)}`);
}

export function checkStderr(value: unknown, where = WHERE): McpStdioClientOptions['stderr'] & {} {
    if (value === undefined) return 'inherit';
    if (value === 'inherit' || value === 'ignore' || typeof value === 'function') {
        return value as McpStdioClientOptions['stderr'] & {};
    }
    throw new TypeError(
        `${where}: stderr must be 'inherit', 'ignore' or a function receiving text, got ${describe(value)}`,
    );
}
