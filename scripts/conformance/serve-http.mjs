// Serves a conformance catalog over Streamable HTTP on 127.0.0.1 at the port in PORT (0 or unset:
// any free one), both eras, with no bridge: `server-app.mjs --http` calls this. Prints the MCP
// endpoint's URL as the first line on stdout, and closes on SIGTERM or SIGINT.
//
// Beside the catalog it is given, it serves `test_header_echo`, whose `region` argument is
// mirrored into an `Mcp-Param-Region` header by 2026-07-28 clients: the suite's custom-header
// scenario looks for such a tool.
import {createMcpHttpHandler, MCP_PROTOCOL_VERSIONS, serveNodeHttp} from 'arcane-os/mcp/http';

/** @param {import('arcane-os/mcp/http').McpHttpHandlerOptions} catalog */
export async function serveHttp(catalog) {
    const handler = createMcpHttpHandler({
        ...catalog,
        protocolVersions: [...MCP_PROTOCOL_VERSIONS].reverse(),
        tools: [
            ...(catalog.tools ?? []),
            {
                name: 'test_header_echo',
                description: 'Echoes its region, which clients also send as the Mcp-Param-Region header.',
                inputSchema: {
                    type: 'object',
                    properties: {region: {type: 'string', 'x-mcp-header': 'Region'}},
                    required: ['region'],
                },
                handler: (args) => ({content: [{type: 'text', text: `region ${args.region}`}]}),
            },
        ],
    });
    const port = Number(process.env.PORT ?? 0);
    const served = await serveNodeHttp(handler, {port});
    process.stdout.write(`${served.url}\n`);
    const stop = async () => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        await handler.close({cancelPending: true});
        await served.close();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return {handler, served, stop};
}
