/** The official SDK server (McpServer + StdioServerTransport) serving the bench catalog. */
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import {z} from 'zod';
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';

const server = new McpServer({name: 'bench-sdk', version: '1.0.0'});
const shapes = {
    echo: {text: z.string()},
    sleep: {ms: z.number().int().min(0)},
    big: {bytes: z.number().int().min(0)},
};
for (const [name, descriptor] of Object.entries(tools)) {
    server.registerTool(
        name,
        {description: descriptor.description, inputSchema: shapes[name]},
        handlers[name],
    );
}
server.registerResource('note', RESOURCE_URI, {mimeType: 'text/plain'}, (uri) => readNote({uri: uri.href}));

await server.connect(new StdioServerTransport());
