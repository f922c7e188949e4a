// One catalog, two transports: `node examples/star-catalog.mjs` serves it to one client over
// stdio; `node examples/star-catalog.mjs --http` serves it to any number of clients over
// Streamable HTTP on 127.0.0.1 (PORT, default 3001), both protocol eras, and prints its URL.
// Put a bearer-token check in front when it listens beyond this machine (docs/http.md).
import {createMcpHttpHandler, serveNodeHttp} from 'arcane-os/mcp/http';
import {createMcpStdioServer, MCP_PROTOCOL_VERSIONS} from 'arcane-os/mcp/stdio';

const STARS = {
    sirius: {constellation: 'Canis Major', magnitude: -1.46},
    canopus: {constellation: 'Carina', magnitude: -0.74},
    vega: {constellation: 'Lyra', magnitude: 0.03},
};

/** @type {import('arcane-os/mcp/stdio').McpStdioServerOptions} */
const catalog = {
    serverInfo: {name: 'star-catalog', version: '1.0.0'},
    protocolVersions: [...MCP_PROTOCOL_VERSIONS],
    tools: [
        {
            name: 'look_up_star',
            description: 'Constellation and apparent magnitude of a bright star.',
            inputSchema: {
                type: 'object',
                properties: {star: {type: 'string', enum: Object.keys(STARS), 'x-mcp-header': 'Star'}},
                required: ['star'],
            },
            handler: ({star}) => {
                const found = STARS[/** @type {keyof typeof STARS} */ (star)];
                if (found === undefined)
                    throw new Error(`No star named ${JSON.stringify(star)} in this catalog`);
                return {
                    content: [
                        {type: 'text', text: `${star}: ${found.constellation}, magnitude ${found.magnitude}`},
                    ],
                };
            },
        },
    ],
    resources: [
        {
            uri: 'stars://index',
            name: 'index',
            mimeType: 'application/json',
            handler: () => ({
                contents: [
                    {
                        uri: 'stars://index',
                        mimeType: 'application/json',
                        text: JSON.stringify(Object.keys(STARS)),
                    },
                ],
            }),
        },
    ],
};

if (process.argv.includes('--http')) {
    const handler = createMcpHttpHandler(catalog);
    const served = await serveNodeHttp(handler, {port: Number(process.env.PORT ?? 3001)});
    process.stdout.write(`${served.url}\n`);
    const stop = async () => {
        await handler.close();
        await served.close();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
} else {
    createMcpStdioServer(catalog).start();
}
