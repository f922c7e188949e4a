/**
 * `arcane-os/mcp/stdio`: serve an application's own tools and static resources to one MCP client
 * over stdio. Importing this module starts nothing.
 */

export {Utf8DecodeError} from '../../jsonrpc/framing.js';
export {MCP_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS} from '../protocol/versions.js';
export {McpAnswerError, McpAskError} from '../server/asking/errors.js';
export type {
    AskErrorCode,
    AskingContext,
    AskOptions,
    AskRequestOptions,
    CreateMessageRequest,
    CreateMessageResult,
    ElicitField,
    ElicitFormRequest,
    ElicitRequest,
    ElicitResult,
    ElicitUrlRequest,
    ListRootsResult,
    Root,
    SamplingMessage,
} from '../server/asking/types.js';
export {ErrorCode, McpProtocolError} from '../server/errors.js';
export type {
    AudioContent,
    BlobResourceContents,
    CacheOption,
    CallToolResult,
    CloseOptions,
    ContentBlock,
    EmbeddedResource,
    HandlerContext,
    Icon,
    ImageContent,
    Implementation,
    JsonObject,
    McpResource,
    McpStdioServer,
    McpStdioServerOptions,
    McpTool,
    ObjectSchema,
    ProgressUpdate,
    ReadResourceParams,
    ReadResourceResult,
    RequestId,
    ResourceDescriptor,
    ResourceHandler,
    ResourceLink,
    StartOptions,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
    ToolDescriptor,
    ToolHandler,
} from '../server/types.js';
export {createMcpStdioServer} from './server.js';
