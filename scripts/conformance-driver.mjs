// The client the official MCP conformance suite runs for its client scenarios: our
// `connectMcpClient` over Streamable HTTP. The suite starts a scenario server, then runs this
// script with the server's URL as the last argument and the scenario's name in
// MCP_CONFORMANCE_SCENARIO; it judges what reached its server. `scripts/conformance-client.mjs`
// runs the scenarios that apply to this client.
import {connectMcpClient, readToolResult} from 'arcane-os/mcp/client';

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

/** @typedef {import('arcane-os/mcp/client').McpClient} McpClient */

/**
 * What each scenario asks of a client, after the handshake that all of them check.
 * @type {Record<string, (client: McpClient) => Promise<void>>}
 */
const SCENARIOS = {
    /** The handshake alone. */
    initialize: async () => {},
    /** List the tools and call add_numbers; its server checks the arguments it receives. */
    tools_call: async (client) => {
        const tools = await client.listTools();
        if (!tools.some((tool) => tool.name === 'add_numbers')) {
            throw new Error(
                `tools_call: the server lists no add_numbers tool (it lists ${tools.map((t) => t.name)})`,
            );
        }
        const text = readToolResult(await client.callTool('add_numbers', {a: 5, b: 3}));
        if (text !== 'The sum of 5 and 3 is 8')
            throw new Error(`tools_call: unexpected answer ${JSON.stringify(text)}`);
    },
    /** The call's SSE stream is closed before its answer: the answer must be fetched by resuming it. */
    'sse-retry': async (client) => {
        await client.listTools();
        await client.callTool('test_reconnection', {});
    },
};

const run = SCENARIOS[scenario];
if (run === undefined) {
    process.stderr.write(
        `conformance-driver: scenario ${JSON.stringify(scenario)} is not one this client takes part in ` +
            `(${Object.keys(SCENARIOS).join(', ')})\n`,
    );
    process.exitCode = 2;
} else {
    const client = await connectMcpClient({
        url,
        clientInfo: {name: 'arcane-os-conformance', version: '0.1.0'},
    });
    try {
        await run(client);
        process.stdout.write(`conformance-driver: ${scenario} done against ${url}\n`);
    } catch (error) {
        process.stderr.write(
            `conformance-driver: ${scenario} failed: ${error instanceof Error ? error.stack : error}\n`,
        );
        process.exitCode = 1;
    } finally {
        await client.close();
    }
}
