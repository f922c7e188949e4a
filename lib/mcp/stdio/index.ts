/**
 * `arcane-os/mcp/stdio`: serve an application's own tools, resources, resource templates and
 * prompts to one MCP client over stdio. Importing this module starts nothing.
 */

export {Utf8DecodeError} from '../../jsonrpc/framing.js';
export {MCP_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS} from '../server/catalog.js';
export {ErrorCode, McpProtocolError} from '../server/errors.js';
export type {
    Completer,
    Completers,
    CompletionContext,
    GetPromptResult,
    McpPrompt,
    McpResourceTemplate,
    PromptArgument,
    PromptDescriptor,
    PromptHandler,
    PromptMessage,
    ResourceTemplateDescriptor,
    TemplateContext,
    TemplateHandler,
} from '../server/feature-types.js';
export type {CacheOption, McpStdioServerOptions} from '../server/options.js';
export type {
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    CloseOptions,
    ContentBlock,
    EmbeddedResource,
    HandlerContext,
    HandlerMethod,
    Icon,
    ImageContent,
    Implementation,
    JsonObject,
    LoggingLevel,
    McpResource,
    McpStdioServer,
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
