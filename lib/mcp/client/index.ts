/**
 * `arcane-os/mcp/client`: a small, exact MCP client. It spawns a server over stdio (or reaches one
 * over Streamable HTTP), completes the handshake, and lists, calls and reads. Importing this module
 * starts nothing.
 */

export {DEFAULT_MAX_MESSAGE_BYTES} from '../../util/options.js';
/** The MCP wire shapes: results, content blocks, descriptors, identities. */
export type * from '../protocol/features.js';
export {LOGGING_LEVELS} from '../protocol/log-levels.js';
export type * from '../protocol/types.js';
export type {ServerRequestHandler, ServerRequestHandlers} from './answering.js';
export {DEFAULT_MAX_INPUT_ROUNDS} from './answering.js';
export type {McpClient} from './client-types.js';
export {connectMcpClient} from './connect.js';
export type {
    McpClientCommonOptions,
    McpClientOptions,
    McpHttpClientOptions,
    McpStdioClientOptions,
} from './connect-types.js';
export type {VersionNegotiation} from './era.js';
export {DEFAULT_DISCOVER_TIMEOUT_MS} from './era.js';
export {
    McpClientError,
    McpConnectionError,
    McpHttpError,
    McpProtocolViolationError,
    McpRemoteError,
    McpTimeoutError,
    McpToolError,
} from './errors.js';
export {MCP_CLIENT_PROTOCOL_VERSIONS} from './handshake.js';
export type {HttpReconnectOptions, HttpTransportOptions} from './http-options.js';
export type {InProcessServer, McpInProcessClientOptions} from './in-process.js';
export {connectInProcess} from './in-process.js';
export type {ListenFilter} from './listen-filter.js';
export type {ListenEnd, McpSubscription} from './listen-handle.js';
export type {ListName, NotificationOptions} from './notifications.js';
export type {CallToolOptions, RequestOptions} from './options.js';
export {DEFAULT_MAX_TOTAL_TIMEOUT_MS} from './options.js';
export type {Progress} from './request-terms.js';
export type {ToolValue} from './result.js';
export {readToolResult} from './result.js';
export {
    DEFAULT_CALL_TIMEOUT_MS,
    DEFAULT_CLIENT_INFO,
    DEFAULT_INITIALIZE_TIMEOUT_MS,
    DEFAULT_LIST_TIMEOUT_MS,
} from './settings.js';
export {DEFAULT_EXIT_GRACE_MS, DEFAULT_TERMINATE_GRACE_MS} from './stdio-options.js';
export type {McpProtocolErrorEvent, McpProtocolErrorKind} from './stray.js';
export {STRAY_TEXT_CHARS} from './stray.js';
