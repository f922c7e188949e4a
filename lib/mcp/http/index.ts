/**
 * `arcane-os/mcp/http`: serve an application's tools, resources, resource templates and prompts to
 * remote MCP clients over Streamable HTTP, both eras, as a Web-standard fetch handler; plus a small
 * adapter for Node's `http`. The catalog types are the stdio entry's own. Importing this module
 * starts nothing.
 */
export {MCP_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS} from '../protocol/versions.js';
export type * from '../server/catalog-types.js';
export {defineTool} from '../server/define-tool.js';
export {ErrorCode, McpProtocolError} from '../server/errors.js';
export {createMcpHttpHandler} from './handler.js';
export type {FetchHandler, NodeHttpServer, NodeListener, ServeOptions} from './node.js';
export {serveNodeHttp, toNodeListener} from './node.js';
export {DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT_MS} from './options.js';
export type {
    HttpCloseOptions,
    McpHttpHandler,
    McpHttpHandlerOptions,
    SessionEndInfo,
    SessionEndReason,
} from './types.js';
