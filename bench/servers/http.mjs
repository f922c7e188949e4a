/**
 * The HTTP bench servers: the bench catalog behind one `node:http` server, through the same Node
 * adapter (`toNodeListener`) for every handler, so the figures compare handlers, not engines.
 *
 *   node bench/servers/http.mjs ours    createMcpHttpHandler (both eras; legacy with sessions)
 *   node bench/servers/http.mjs sdk2    the official v2 createMcpHandler (legacy served stateless,
 *                                       as that entry does by default)
 *   node bench/servers/http.mjs base    ours, handler and Node adapter from the build BENCH_BASE
 *                                       names (build-base.mjs prints its stdio module's path)
 *
 * Prints the endpoint URL as its first line; ends when stdin does.
 */
import {pathToFileURL} from 'node:url';
import * as current from 'arcane-os/mcp/http';
import {benchOptions} from './serve.mjs';

const kind = process.argv[2];

async function sdk2Handler() {
    const [{createMcpHandler, McpServer}, {z}, {handlers, RESOURCE_URI, readNote, tools}] = await Promise.all(
        [import('@modelcontextprotocol/server'), import('zod'), import('../handlers.mjs')],
    );
    const schemas = {
        echo: z.object({text: z.string()}),
        sleep: z.object({ms: z.number().int().min(0)}),
        big: z.object({bytes: z.number().int().min(0)}),
    };
    // The factory runs once per request, as createMcpHandler requires.
    return createMcpHandler(() => {
        const server = new McpServer({name: 'bench-sdk2-http', version: '1.0.0'});
        for (const [name, descriptor] of Object.entries(tools)) {
            server.registerTool(
                name,
                {description: descriptor.description, inputSchema: schemas[name]},
                (args, ctx) => handlers[name](args, ctx.mcpReq),
            );
        }
        server.registerResource('note', RESOURCE_URI, {mimeType: 'text/plain'}, (uri) =>
            readNote({uri: uri.href}),
        );
        return server;
    });
}

/** This build's HTTP entry and stdio adapter, or those of the build BENCH_BASE names. */
async function build(base) {
    if (!base) return [current, await import('arcane-os/mcp/stdio')];
    const stdio = process.env.BENCH_BASE;
    const http = stdio.replace(/stdio\.js$/, 'http.js').replace(/stdio([/\\])index\.js$/, 'http$1index.js');
    return Promise.all([import(pathToFileURL(http).href), import(pathToFileURL(stdio).href)]);
}

const [{createMcpHttpHandler, serveNodeHttp}, adapter] = await build(kind === 'base');
let handler;
if (kind === 'ours' || kind === 'base') {
    handler = createMcpHttpHandler({
        ...benchOptions(adapter, 'bench-ours-http'),
        protocolVersions: ['2026-07-28', '2025-11-25'],
    });
} else if (kind === 'sdk2') {
    handler = await sdk2Handler();
} else {
    process.stderr.write(`bench/servers/http.mjs: the server must be ours, base or sdk2, not ${kind}\n`);
    process.exit(2);
}
const served = await serveNodeHttp(handler);
process.stdout.write(`${served.url}\n`);
process.stdin.resume();
process.stdin.once('end', async () => {
    await handler.close();
    await served.close();
    process.stdin.pause();
});
