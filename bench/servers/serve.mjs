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
 * -32601 and the modern scenario reports "not supported by this build".
 */
export async function serve(adapter, name) {
    const server = adapter.createMcpStdioServer(benchOptions(adapter, name));
    server.start();
    try {
        await server.closed;
    } catch {
        process.exitCode = 1;
    }
}

/** The options of the bench catalog for one build (with the modern opt-in when asked and served). */
export function benchOptions(adapter, name) {
    const serves = adapter.MCP_PROTOCOL_VERSIONS ?? [];
    const modern =
        process.env.BENCH_ERA === 'modern' && DUAL_ERA.every((version) => serves.includes(version));
    return {
        serverInfo: {name, version: '1.0.0'},
        tools: Object.entries(tools).map(([tool, descriptor]) => ({
            name: tool,
            ...descriptor,
            handler: handlers[tool],
        })),
        resources: [{uri: RESOURCE_URI, name: 'note', mimeType: 'text/plain', handler: readNote}],
        ...(modern ? {protocolVersions: DUAL_ERA} : {}),
    };
}
