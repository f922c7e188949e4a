/**
 * `arcane-os/mcp/stdio`: serve an application's own tools, resources, resource templates and
 * prompts to one MCP client over stdio. Importing this module starts nothing.
 */

export {Utf8DecodeError} from '../../jsonrpc/utf8-error.js';
export {MCP_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS} from '../protocol/versions.js';
export {McpAnswerError, McpAskError} from '../server/asking/errors.js';
export type * from '../server/catalog-types.js';
export {defineTool} from '../server/define-tool.js';
export {ErrorCode, McpProtocolError} from '../server/errors.js';
export type {McpStdioServerOptions} from '../server/options.js';
export type {CloseOptions, McpStdioServer, StartOptions} from '../server/types.js';
export {createMcpStdioServer} from './server.js';
