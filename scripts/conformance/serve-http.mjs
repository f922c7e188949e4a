// Serves a conformance catalog over Streamable HTTP on 127.0.0.1 at the port in PORT (0 or unset:
// any free one), both eras, with no bridge: `server-app.mjs --http` calls this. Prints the MCP
// endpoint's URL as the first line on stdout, and closes on SIGTERM or SIGINT.
//
// Beside the catalog it is given, it serves the tools only the HTTP scenarios call:
//
//   test_header_echo            its `region` is mirrored into `Mcp-Param-Region` by 2026-07-28
//                               clients (the custom-header scenario looks for such a tool)
//   test_missing_capability     refuses -32021 unless the request declares the sampling capability
//   test_streaming_elicitation  reports progress, then answers; this server never sends a request
//                               on a response stream, which is what the stateless scenario checks
//   test_logging_tool           logs at info, which reaches only a request that asked for logs
import {setTimeout as delay} from 'node:timers/promises';
import {
    createMcpHttpHandler,
    MCP_PROTOCOL_VERSIONS,
    McpProtocolError,
    serveNodeHttp,
} from 'arcane-os/mcp/http';

const NO_ARGUMENTS = {type: 'object', properties: {}};

/** @type {import('arcane-os/mcp/http').McpTool[]} */
const HTTP_TOOLS = [
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
    {
        name: 'test_missing_capability',
        description: 'Needs the client to declare the sampling capability.',
        inputSchema: NO_ARGUMENTS,
        handler: (_args, {clientCapabilities}) => {
            if (clientCapabilities.sampling === undefined) {
                throw new McpProtocolError(-32021, 'Missing required client capability: sampling', {
                    requiredCapabilities: {sampling: {}},
                });
            }
            return {content: [{type: 'text', text: 'The client declared sampling.'}]};
        },
    },
    {
        name: 'test_streaming_elicitation',
        description: 'Reports progress on its response stream, then answers.',
        inputSchema: NO_ARGUMENTS,
        handler: async (_args, {reportProgress, signal}) => {
            reportProgress({progress: 1, total: 2, message: 'working'});
            await delay(20, undefined, {signal});
            return {content: [{type: 'text', text: 'Done; no input was needed.'}]};
        },
    },
    {
        name: 'test_logging_tool',
        description: 'Logs one message at info, then answers.',
        inputSchema: NO_ARGUMENTS,
        handler: (_args, {log}) => {
            const sent = log('info', 'test_logging_tool ran');
            return {content: [{type: 'text', text: sent ? 'Logged.' : 'Nothing logged: not asked to.'}]};
        },
    },
];

/** @param {import('arcane-os/mcp/http').McpHttpHandlerOptions} catalog */
export async function serveHttp(catalog) {
    const handler = createMcpHttpHandler({
        ...catalog,
        protocolVersions: [...MCP_PROTOCOL_VERSIONS].reverse(),
        tools: [...(catalog.tools ?? []), ...HTTP_TOOLS],
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
