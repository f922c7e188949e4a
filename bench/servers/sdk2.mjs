/**
 * The official SDK v2 server (`@modelcontextprotocol/server`: McpServer from a factory, served by
 * `serveStdio`), serving the bench catalog. `serveStdio` picks the era from the connection's
 * opening: `initialize` pins 2025-11-25 (the legacy scenarios), a request carrying the
 * 2026-07-28 per-request `_meta` pins the modern era (the modern scenario). With
 * `BENCH_VALIDATED=1` it adds the validated scenario's tool, on the same zod schema as ours.
 */
import {McpServer} from '@modelcontextprotocol/server';
import {serveStdio} from '@modelcontextprotocol/server/stdio';
import {z} from 'zod';
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';
import {checked, VALIDATED_TOOL, validatedSchema} from '../validated.mjs';

const schemas = {
    echo: z.object({text: z.string()}),
    sleep: z.object({ms: z.number().int().min(0)}),
    big: z.object({bytes: z.number().int().min(0)}),
};

function build() {
    const server = new McpServer({name: 'bench-sdk2', version: '1.0.0'});
    for (const [name, descriptor] of Object.entries(tools)) {
        const handler = handlers[name];
        // v2 hands the request's signal over as `ctx.mcpReq.signal`; the shared handlers read
        // `context.signal`, so they get `ctx.mcpReq` itself (no extra object per call).
        server.registerTool(
            name,
            {description: descriptor.description, inputSchema: schemas[name]},
            (args, ctx) => handler(args, ctx.mcpReq),
        );
    }
    if (process.env.BENCH_VALIDATED === '1') {
        server.registerTool(
            VALIDATED_TOOL,
            {description: 'Echo, validated.', inputSchema: validatedSchema},
            (args) => checked(args),
        );
    }
    server.registerResource('note', RESOURCE_URI, {mimeType: 'text/plain'}, (uri) =>
        readNote({uri: uri.href}),
    );
    return server;
}

serveStdio(build);
