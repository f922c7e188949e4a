/** arcane-os/mcp/stdio serving the bench catalog. */
import {createMcpStdioServer} from 'arcane-os/mcp/stdio';
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';

const server = createMcpStdioServer({
    serverInfo: {name: 'bench-ours', version: '1.0.0'},
    tools: Object.entries(tools).map(([name, descriptor]) => ({
        name,
        ...descriptor,
        handler: handlers[name],
    })),
    resources: [{uri: RESOURCE_URI, name: 'note', mimeType: 'text/plain', handler: readNote}],
});

server.start();
try {
    await server.closed;
} catch {
    process.exitCode = 1;
}
