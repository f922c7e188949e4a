// The client the official MCP conformance suite runs for its client scenarios: our
// `connectMcpClient` over Streamable HTTP. The suite starts a scenario server, then runs this
// script with the server's URL as the last argument, the scenario's name in
// MCP_CONFORMANCE_SCENARIO and the revision it judges in MCP_CONFORMANCE_PROTOCOL_VERSION; it
// judges what reached its server. At 2026-07-28 the client is pinned to that revision; earlier,
// it negotiates by `initialize` as by default. `scripts/conformance-client.mjs` runs the
// scenarios that apply to this client.
import {connectMcpClient, readToolResult} from 'arcane-os/mcp/client';

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
const modern = revision === '2026-07-28';
/** What a scenario tells its client beyond its name (the calls to make, say), as the suite sent it. */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** @typedef {import('arcane-os/mcp/client').McpClient} McpClient */

/** An elicitation form answered by accepting it as it is: the client fills in the schema's defaults. */
const acceptForm = async () => ({action: 'accept', content: {}});

/** Every tool listed, each called with no arguments (or `args(name)`), its answer unread. */
async function callEach(client, args = () => ({})) {
    for (const tool of await client.listTools()) await client.callTool(tool.name, args(tool.name));
}

/**
 * What each scenario asks of a client, after the handshake that all of them check, and the
 * connection options it needs beside the era.
 * @type {Record<string, {options?: object, run: (client: McpClient) => Promise<void>}>}
 */
const SCENARIOS = {
    /** The handshake alone. */
    initialize: {run: async () => {}},
    /** List the tools and call add_numbers; its server checks the arguments it receives. */
    tools_call: {
        run: async (client) => {
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
    },
    /** The call's SSE stream is closed before its answer: the answer must be fetched by resuming it. */
    'sse-retry': {
        run: async (client) => {
            await client.listTools();
            await client.callTool('test_reconnection', {});
        },
    },
    /** The server elicits a form whose every field has a default; accepting it must send them. */
    'elicitation-sep1034-client-defaults': {
        // Its server elicits outside the call's stream, on the standalone GET stream.
        options: {listen: true, handlers: {elicitation: {form: acceptForm}}},
        run: (client) => callEach(client),
    },
    /** The tools' input schemas must reach the caller with every 2020-12 keyword kept. */
    'json-schema-2020-12-preservation': {
        run: async (client) => {
            const tools = await client.listTools();
            const focal = tools.find((tool) => tool.name !== 'json_schema_echo');
            if (focal === undefined) throw new Error('json-schema-2020-12-preservation: no tool to echo');
            await client.callTool('json_schema_echo', {schema: focal.inputSchema});
        },
    },
    /** A network `$ref` in an input schema must not be fetched: the list is taken as it is. */
    'json-schema-ref-no-deref': {run: (client) => client.listTools().then(() => undefined)},
    /** Every request carries the modern envelope; the first is refused for its revision. */
    'request-metadata': {
        options: {
            handlers: {
                elicitation: {form: acceptForm},
                sampling: async () => ({role: 'assistant', content: {type: 'text', text: ''}, model: 'none'}),
                roots: async () => ({roots: []}),
            },
        },
        run: (client) => callEach(client),
    },
    /** Input rounds: requestState echoed exactly, omitted when absent, new ids, no leaking between calls. */
    'sep-2322-client-request-state': {
        options: {
            handlers: {elicitation: {form: async () => ({action: 'accept', content: {confirmed: true}})}},
        },
        run: (client) => callEach(client),
    },
    /** Mcp-Method and Mcp-Name on each request. */
    'http-standard-headers': {
        run: async (client) => {
            await callEach(client);
            for (const resource of await client.listResources().catch(() => [])) {
                await client.readResource(resource.uri);
            }
            for (const prompt of await client.listPrompts().catch(() => [])) {
                await client.getPrompt(prompt.name);
            }
        },
    },
    /** Mcp-Param-* headers mirrored from x-mcp-header parameters, in plain and Base64 form. */
    'http-custom-headers': {
        run: async (client) => {
            await client.listTools();
            for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments);
        },
    },
    /** Tools with invalid x-mcp-header annotations are left out; the valid ones are called. */
    'http-invalid-tool-headers': {run: (client) => callEach(client)},
};

const entry = SCENARIOS[scenario];
if (entry === undefined) {
    process.stderr.write(
        `conformance-driver: scenario ${JSON.stringify(scenario)} is not one this client takes part in ` +
            `(${Object.keys(SCENARIOS).join(', ')})\n`,
    );
    process.exitCode = 2;
} else {
    const client = await connectMcpClient({
        url,
        clientInfo: {name: 'arcane-os-conformance', version: '0.1.0'},
        ...(modern ? {versionNegotiation: '2026-07-28'} : {}),
        ...entry.options,
    });
    try {
        await entry.run(client);
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
