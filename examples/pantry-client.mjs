// The pantry-client example: drives the moon-pantry example server with arcane-os/mcp/client.
// Run it from the repository root: `node examples/pantry-client.mjs`.
import {fileURLToPath} from 'node:url';
import {connectMcpClient, readToolResult} from 'arcane-os/mcp/client';

const client = await connectMcpClient({
    command: process.execPath,
    args: [fileURLToPath(new URL('./moon-pantry.mjs', import.meta.url))],
    stderr: 'inherit',
});
try {
    console.log(`${client.serverInfo.name} ${client.serverInfo.version}, MCP ${client.protocolVersion}`);
    console.log(client.instructions);
    for (const tool of await client.listTools()) {
        console.log(`tool ${tool.name}: ${tool.description}`);
    }

    const result = await client.callTool('moon.menu', {}, {timeoutMs: 10_000});
    console.log(readToolResult(result));

    for (const resource of await client.listResources()) {
        const {contents} = await client.readResource(resource.uri);
        console.log(`resource ${resource.uri}: ${contents.length} item(s)`);
    }
} finally {
    await client.close(); // ends the server's stdin; it exits by itself
}
