// The moon-pantry server as an application entry for a native bundle. Packed beneath a bundle's
// app/ folder, it is started by the bundle's runtime rather than as Node's main module:
//
//     node <bundle>/runtime/arcane-core.mjs --arcane-app-entry native/moon-mcp.mjs
//
// The runtime imports this module, so its top-level code starts the session and awaits its end.
// The sample app in examples/native-app/ carries a copy of this file (a test keeps the two equal).
import {createMcpStdioServer} from 'arcane-os/mcp/stdio';

// Logs belong on stderr: stdout carries MCP records only. The app's arguments reach it unchanged.
process.stderr.write(`moon-pantry: started with argv ${JSON.stringify(process.argv)}\n`);

const menu = {
    content: 'Moon soup\nExtra tentacles available.',
    message: {chef: 'Octopus', open: true},
};

const server = createMcpStdioServer({
    serverInfo: {name: 'moon-pantry', version: '1.0.0'},
    instructions: 'Ask moon.menu for the complete lunar dinner menu.',
    tools: [
        {
            name: 'moon.menu',
            description: 'Read the complete lunar dinner menu.',
            inputSchema: {type: 'object'},
            annotations: {readOnlyHint: true},
            handler: readMenu,
        },
    ],
    resources: [
        {
            uri: 'pantry://menu',
            name: 'menu',
            title: 'Lunar dinner menu',
            mimeType: 'application/json',
            handler: readMenuResource,
        },
    ],
});

/** @type {import('arcane-os/mcp/stdio').ToolHandler} */
function readMenu(_args, {signal}) {
    signal.throwIfAborted();
    return {
        content: [{type: 'text', text: JSON.stringify(menu)}],
        structuredContent: menu,
    };
}

/** @type {import('arcane-os/mcp/stdio').ResourceHandler} */
function readMenuResource({uri}, {signal}) {
    signal.throwIfAborted();
    return {
        contents: [{uri, mimeType: 'application/json', text: JSON.stringify(menu)}],
    };
}

server.start();
try {
    await server.closed;
} catch {
    // The adapter has already written the failure to stderr.
    process.exitCode = 1;
}
