// The moon-pantry example: one tool and one resource served to an MCP client over stdio.
// Run it as an MCP client's subprocess: `node examples/moon-pantry.mjs`.
import {createMcpStdioServer} from 'arcane-os/mcp/stdio';

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
