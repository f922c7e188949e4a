/**
 * `arcane-os/mcp/stdio`: serve an application's own tools, resources, resource templates and
 * prompts to one MCP client over stdio. Importing this module starts nothing.
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
export type {
    StructuredToolResult,
    ToolArguments,
    ToolErrorResult,
    ToolInputSchema,
    ToolOutputSchema,
    TypedTool,
    TypedToolResult,
} from '../server/define-tool.js';
export {defineTool} from '../server/define-tool.js';
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
    StandardInput,
    StandardIssue,
    StandardJSONSchemaV1,
    StandardJsonSchemaConverter,
    StandardOutput,
    StandardPathSegment,
    StandardResult,
    StandardSchemaV1,
} from '../server/standard-schema.js';
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
    McpSchemaTool,
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
    ToolFields,
    ToolHandler,
} from '../server/types.js';
export {createMcpStdioServer} from './server.js';
