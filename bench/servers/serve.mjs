/** Serves the bench catalog over stdio with a given build of the adapter. */
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';

/**
 * @param {typeof import('arcane-os/mcp/stdio').createMcpStdioServer} createMcpStdioServer
 * @param {string} name
 */
export async function serve(createMcpStdioServer, name) {
    const server = createMcpStdioServer({
        serverInfo: {name, version: '1.0.0'},
        tools: Object.entries(tools).map(([tool, descriptor]) => ({
            name: tool,
            ...descriptor,
            handler: handlers[tool],
        })),
        resources: [{uri: RESOURCE_URI, name: 'note', mimeType: 'text/plain', handler: readNote}],
    });
    server.start();
    try {
        await server.closed;
    } catch {
        process.exitCode = 1;
    }
}
