/**
 * The options of `connectMcpClient`: those every transport takes, and stdio's and Streamable
 * HTTP's own. Types only; `settings.ts` and `stdio-options.ts` check them.
 */
import type {Implementation} from '../protocol/types.js';
import type {ServerRequestHandlers} from './answering.js';
import type {VersionNegotiation} from './era.js';
import type {HttpTransportOptions} from './http-options.js';
import type {NotificationOptions} from './notifications.js';
import type {McpProtocolErrorEvent} from './stray.js';

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
