/** Serves the bench catalog over stdio with a given build of the adapter. */
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';

/** The opt-in of the modern scenario: 2026-07-28 beside the legacy default. */
const DUAL_ERA = ['2026-07-28', '2025-11-25'];

/**
 * @param {typeof import('arcane-os/mcp/stdio')} adapter the module: `createMcpStdioServer` and
 *   `MCP_PROTOCOL_VERSIONS` (the revisions that build serves)
 * @param {string} name
 *
 * With `BENCH_ERA=modern` in the environment, the server opts in to 2026-07-28 when the build
 * serves it; an older build keeps its default profile, so the driver's `server/discover` probe gets
 * -32601 and the modern scenario reports "not supported by this build". With `BENCH_VALIDATED=1`
 * it adds the validated scenario's tool on a build that takes Standard Schema tools (one with
 * `defineTool`), loading zod only then, so no other scenario pays for it.
 */
export async function serve(adapter, name) {
    const extra = [];
    if (process.env.BENCH_VALIDATED === '1' && typeof adapter.defineTool === 'function') {
        const {checked, VALIDATED_TOOL, validatedSchema} = await import('../validated.mjs');
        extra.push({name: VALIDATED_TOOL, inputSchema: validatedSchema, handler: checked});
    }
    const server = adapter.createMcpStdioServer(benchOptions(adapter, name, extra));
    server.start();
    try {
        await server.closed;
    } catch {
        process.exitCode = 1;
    }
}

/**
 * The options of the bench catalog for one build (with the modern opt-in when asked and served),
 * `extra` tools after the catalog's own.
 */
export function benchOptions(adapter, name, extra = []) {
    const serves = adapter.MCP_PROTOCOL_VERSIONS ?? [];
    const modern =
        process.env.BENCH_ERA === 'modern' && DUAL_ERA.every((version) => serves.includes(version));
    return {
        serverInfo: {name, version: '1.0.0'},
        tools: Object.entries(tools)
            .map(([tool, descriptor]) => ({
                name: tool,
                ...descriptor,
                handler: handlers[tool],
            }))
            .concat(extra),
        resources: [{uri: RESOURCE_URI, name: 'note', mimeType: 'text/plain', handler: readNote}],
        ...(modern ? {protocolVersions: DUAL_ERA} : {}),
    };
}
