/**
 * `connectMcpClient(options)`: checks the options, chooses the transport (`command` is stdio, `url`
 * is Streamable HTTP), and runs the handshake.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {
    checkKeys,
    checkNumber,
    checkSignal,
    checkString,
    DEFAULT_MAX_MESSAGE_BYTES,
    MAX_TIMER_MS,
    timerRule,
} from '../../util/options.js';
import type {Implementation} from '../protocol/types.js';
import type {ServerRequestHandlers} from './answering.js';
import {checkHandlers, DEFAULT_MAX_INPUT_ROUNDS} from './answering.js';
import type {VersionNegotiation} from './era.js';
import {checkDiscoverTimeout, checkVersionNegotiation} from './era.js';
import {HttpTransport} from './http.js';
import type {HttpTransportOptions} from './http-options.js';
import {HTTP_OPTION_NAMES} from './http-options.js';
import type {NotificationOptions} from './notifications.js';
import {checkNotificationOptions, NOTIFICATION_OPTION_NAMES} from './notifications.js';
import {TIMEOUT_RULE} from './options.js';
import type {McpClient, SessionSettings} from './session.js';
import {MCP_CLIENT_PROTOCOL_VERSIONS, openSession} from './session.js';
import {StdioTransport} from './stdio.js';
import type {McpProtocolErrorEvent} from './stray.js';

/** The `clientInfo` sent by default: this package's name and version. */
export const DEFAULT_CLIENT_INFO: Readonly<Implementation> = Object.freeze({
    name: 'arcane-os',
    version: '0.1.0',
});

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
export const DEFAULT_LIST_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_EXIT_GRACE_MS = 2_000;
export const DEFAULT_TERMINATE_GRACE_MS = 2_000;

/** What every transport takes; the notification callbacks are described on `NotificationOptions`. */
export interface McpClientCommonOptions extends NotificationOptions {
    /** Sent as `clientInfo` in `initialize`. Default: `{name: 'arcane-os', version: <this package's>}`. */
    clientInfo?: Implementation;
    /** The revision proposed in `initialize`; one of `MCP_CLIENT_PROTOCOL_VERSIONS`. Default: `'2025-11-25'`. */
    protocolVersion?: string;
    /** Bounds the `initialize` exchange, in milliseconds (or `Infinity`). Default: 30000. */
    initializeTimeoutMs?: number;
    /**
     * The default bound of `listTools()`, `listResources()`, `listResourceTemplates()` and
     * `listPrompts()`, every page together. Default: 30000.
     */
    listTimeoutMs?: number;
    /**
     * The default bound of every request that is not a listing: `callTool()`, `readResource()`,
     * `getPrompt()`, `complete()`, `ping()`, `setLoggingLevel()` and the subscriptions. Default: 60000.
     */
    callTimeoutMs?: number;
    /** Aborts connecting: the promise rejects with `signal.reason`, and nothing is left running. */
    signal?: AbortSignal;
    /**
     * Told of each problem the server causes that belongs to no request: a stdio line or SSE event
     * that is not UTF-8, not JSON or over `maxMessageBytes`, JSON that is not JSON-RPC, a response
     * to an id never sent or already answered. Called synchronously as it is read, also while
     * connecting; what it throws (or a promise it returns that rejects) is dropped, so catch inside
     * it. Default: none, and the client prints nothing.
     */
    onProtocolError?: (event: McpProtocolErrorEvent) => void;
    /**
     * `true`: any such problem ends the session, failing every pending and later call with an
     * `McpProtocolViolationError`, for testing a server of one's own. `false`: it is skipped, and
     * calls go on. A problem in the answer to a request fails that request only, either way.
     * Default: `false`.
     */
    strict?: boolean;
    /**
     * The era: `'legacy'` sends `initialize` with no probe; `'auto'` probes `server/discover`
     * (2026-07-28) and falls back to `initialize` when the server answers as a legacy one;
     * `'2026-07-28'` speaks that revision only. Default: `'legacy'`.
     */
    versionNegotiation?: VersionNegotiation;
    /** How long `'auto'` waits for its probe's answer before taking the server for a legacy one, in ms. Default: 3000. */
    discoverTimeoutMs?: number;
    /** Handlers for the server's requests; each one given declares its capability. Default: none. */
    handlers?: ServerRequestHandlers;
    /** How many times a modern request is sent again for the input its server asks for. Default: 8. */
    maxInputRounds?: number;
}

/** stdio: the client spawns the server (never through a shell) and owns the child until it is gone. */
export interface McpStdioClientOptions extends McpClientCommonOptions {
    /** The program to run. On Windows, npm-style `.cmd` shims (`npx`) are run through their Node script. */
    command: string;
    /** Its arguments, passed as they are. Default: none. */
    args?: readonly string[];
    /** The child's whole environment, as `child_process.spawn` takes it. Default: `process.env`. */
    env?: NodeJS.ProcessEnv;
    /** The child's working directory. Default: this process's. */
    cwd?: string | URL;
    /**
     * The child's stderr: `'inherit'` shares this process's, `'ignore'` discards it, a function
     * receives it as text chunks (not split into lines). Default: `'inherit'`.
     */
    stderr?: 'inherit' | 'ignore' | ((text: string) => void);
    /** The longest line accepted from the server, in bytes, line feed excluded. Default: 64 MiB. */
    maxMessageBytes?: number;
    /** After stdin is ended, how long the child may take to exit before SIGTERM, in ms. Default: 2000. */
    exitGraceMs?: number;
    /** After SIGTERM, how long the child may take to exit before SIGKILL, in ms. Default: 2000. */
    terminateGraceMs?: number;
    url?: never;
}

/**
 * Streamable HTTP: `url` must be `https:`, or `http:` on a loopback host. `url`, `headers`,
 * `listen`, `reconnect`, `maxMessageBytes` and `closeTimeoutMs` are described, with their
 * defaults, on `HttpTransportOptions`.
 */
export interface McpHttpClientOptions extends McpClientCommonOptions, HttpTransportOptions {
    command?: never;
}

export type McpClientOptions = McpStdioClientOptions | McpHttpClientOptions;

/** The options every way of connecting takes. */
/** The bound on input rounds: none up to a thousand. */
const ROUNDS_RULE: NumberRule = {
    min: 0,
    max: 1000,
    kind: 'a number',
    expects: 'a whole number from 0 to 1000',
};

export const COMMON_OPTION_NAMES = [
    'clientInfo',
    'protocolVersion',
    'initializeTimeoutMs',
    'listTimeoutMs',
    'callTimeoutMs',
    'signal',
    'onProtocolError',
    'strict',
    ...NOTIFICATION_OPTION_NAMES,
    'versionNegotiation',
    'discoverTimeoutMs',
    'handlers',
    'maxInputRounds',
];
const STDIO = [
    'command',
    'args',
    'env',
    'cwd',
    'stderr',
    'maxMessageBytes',
    'exitGraceMs',
    'terminateGraceMs',
];

const WHERE = 'connectMcpClient';

/** The longest line the stdio transport takes: up to 4 GiB, where a Buffer's length stops. */
export const LINE_BYTES_RULE: NumberRule = {
    min: 0,
    max: 2 ** 32,
    kind: 'a number',
    expects: `a whole number from 0 to ${2 ** 32}`,
};
/** The child's grace periods. */
export const GRACE_RULE = timerRule(0, `a whole number from 0 to ${MAX_TIMER_MS}`);

/** Connects to an MCP server and completes the handshake. See `McpClientOptions`. */
export function connectMcpClient(options: McpClientOptions): Promise<McpClient> {
    if (!isObject(options)) {
        throw new TypeError(`${WHERE}(options) needs an options object, got ${describe(options)}`);
    }
    const hasCommand = options.command !== undefined;
    const hasUrl = options.url !== undefined;
    if (hasCommand === hasUrl) {
        throw new TypeError(
            hasCommand
                ? `${WHERE}: give either command (stdio) or url (Streamable HTTP), not both`
                : `${WHERE}: give command (to spawn a server over stdio) or url (to reach one over Streamable HTTP)`,
        );
    }
    if (hasUrl) {
        const http = options as McpHttpClientOptions;
        checkKeys(WHERE, http, [...HTTP_OPTION_NAMES, ...COMMON_OPTION_NAMES]);
        const settings = sessionSettings(http);
        const {url, headers, listen, reconnect, maxMessageBytes, closeTimeoutMs} = http;
        const own = {url, headers, listen, reconnect, maxMessageBytes, closeTimeoutMs};
        return openSession(new HttpTransport(own, WHERE), settings);
    }
    const stdio = options as McpStdioClientOptions;
    checkKeys(WHERE, stdio, [...STDIO, ...COMMON_OPTION_NAMES]);
    const settings = sessionSettings(stdio);
    const transport = new StdioTransport({
        command: checkString(WHERE, 'command', stdio.command),
        args: checkArgs(stdio.args),
        env: checkEnv(stdio.env),
        cwd: checkCwd(stdio.cwd),
        stderr: checkStderr(stdio.stderr),
        strict: settings.strict,
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
    });
    return openSession(transport, settings);
}

/** The transport-independent settings, checked. Exported for the HTTP branch. */
export function sessionSettings(options: McpClientCommonOptions, where = WHERE): SessionSettings {
    const protocolVersion = options.protocolVersion ?? MCP_CLIENT_PROTOCOL_VERSIONS[0];
    if (typeof protocolVersion !== 'string' || !MCP_CLIENT_PROTOCOL_VERSIONS.includes(protocolVersion)) {
        throw new RangeError(
            `${where}: protocolVersion is ${describe(protocolVersion)}; the revisions this client speaks are ` +
                MCP_CLIENT_PROTOCOL_VERSIONS.join(', '),
        );
    }
    return {
        clientInfo: checkClientInfo(options.clientInfo, where),
        protocolVersion,
        initializeTimeoutMs: checkNumber(
            where,
            'initializeTimeoutMs',
            options.initializeTimeoutMs,
            DEFAULT_INITIALIZE_TIMEOUT_MS,
            TIMEOUT_RULE,
        ),
        listTimeoutMs: checkNumber(
            where,
            'listTimeoutMs',
            options.listTimeoutMs,
            DEFAULT_LIST_TIMEOUT_MS,
            TIMEOUT_RULE,
        ),
        callTimeoutMs: checkNumber(
            where,
            'callTimeoutMs',
            options.callTimeoutMs,
            DEFAULT_CALL_TIMEOUT_MS,
            TIMEOUT_RULE,
        ),
        signal: checkSignal(where, options.signal),
        strict: checkStrict(options.strict, where),
        onProtocolError: checkOnProtocolError(options.onProtocolError, where),
        notifications: checkNotificationOptions(where, options),
        versionNegotiation: checkVersionNegotiation(where, options.versionNegotiation),
        discoverTimeoutMs: checkDiscoverTimeout(where, options.discoverTimeoutMs),
        handlers: checkHandlers(where, options.handlers),
        maxInputRounds: checkNumber(
            where,
            'maxInputRounds',
            options.maxInputRounds,
            DEFAULT_MAX_INPUT_ROUNDS,
            ROUNDS_RULE,
        ),
    };
}

function checkStrict(value: unknown, where: string): boolean {
    if (value === undefined) return false;
    if (typeof value === 'boolean') return value;
    throw new TypeError(`${where}: strict must be true or false, got ${describe(value)}`);
}

function checkOnProtocolError(value: unknown, where: string): McpClientCommonOptions['onProtocolError'] {
    if (value === undefined || typeof value === 'function') {
        return value as McpClientCommonOptions['onProtocolError'];
    }
    throw new TypeError(
        `${where}: onProtocolError must be a function receiving each protocol error event, got ${describe(value)}`,
    );
}

/** Copied through JSON, so later changes to the caller's object have no effect. */
function checkClientInfo(value: unknown, where: string): Implementation {
    if (value === undefined) return {...DEFAULT_CLIENT_INFO};
    if (!isObject(value) || typeof value.name !== 'string' || typeof value.version !== 'string') {
        throw new TypeError(
            `${where}: clientInfo must be an object with "name" and "version" strings, got ${describe(value)}`,
        );
    }
    try {
        return JSON.parse(JSON.stringify(value)) as Implementation;
    } catch (error) {
        throw new TypeError(
            `${where}: clientInfo cannot be serialized as JSON (${(error as Error).message})`,
            {
                cause: error,
            },
        );
    }
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
