/** Shorthands for what a server is built from: a text result and a tool with an object input. */
import type {CallToolResult, McpTool} from '../../lib/mcp/stdio/index.js';

export function text(value: string): CallToolResult {
    return {content: [{type: 'text', text: value}]};
}

export function tool(name: string, handler: McpTool['handler']): McpTool {
    return {name, inputSchema: {type: 'object'}, handler};
}
