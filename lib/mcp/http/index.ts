/**
 * `arcane-os/mcp/http`: serve an application's tools and resources to remote MCP clients over
 * Streamable HTTP, both eras, as a Web-standard fetch handler; plus a small adapter for Node's
 * `http`. Importing this module starts nothing.
 */
export {MCP_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS} from '../server/catalog.js';
export {ErrorCode, McpProtocolError} from '../server/errors.js';
export type {
    CallToolResult,
    ContentBlock,
    HandlerContext,
    Implementation,
    JsonObject,
    McpResource,
    McpTool,
    ProgressUpdate,
    ReadResourceParams,
    ReadResourceResult,
    RequestId,
    ResourceHandler,
    ToolHandler,
} from '../server/types.js';
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
