// The second part of `npm run demo`: the official MCP TypeScript SDK client starts
// examples/star-atlas.mjs and drives its typed tool, its prompt and its resource template, with
// completion of a prompt argument and of a template variable.
import {fileURLToPath} from 'node:url';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

const example = fileURLToPath(new URL('../examples/star-atlas.mjs', import.meta.url));

/** @param {(line: string) => void} say */
export async function atlasDemo(say) {
    say('arcane-os/mcp/stdio demo, part two: the SDK client runs "node examples/star-atlas.mjs"\n');
    const transport = new StdioClientTransport({command: process.execPath, args: [example]});
    const client = new Client({name: 'arcane-os-demo', version: '1.0.0'});
    await client.connect(transport);
    const info = client.getServerVersion();
    say('→ initialize');
    say(`← ${info?.name} ${info?.version}`);
    say(`  offers: ${Object.keys(client.getServerCapabilities() ?? {}).join(', ')}\n`);

    const {tools} = await client.listTools();
    say('→ tools/list  (the input schema is what the zod schema converts to)');
    for (const tool of tools) {
        const properties = /** @type {Record<string, {enum?: string[], default?: unknown}>} */ (
            tool.inputSchema.properties ?? {}
        );
        const fields = Object.entries(properties).map(
            ([name, field]) =>
                `${name}${tool.inputSchema.required?.includes(name) ? '*' : ''}` +
                `${field.enum ? ` ${field.enum.join('|')}` : ''}` +
                `${field.default === undefined ? '' : ` (default ${JSON.stringify(field.default)})`}`,
        );
        say(`  ${tool.name}  ${fields.join('; ')}`);
    }
    say('');
    for (const args of [{id: 'm42', unit: 'pc'}, {id: 'm42'}, {id: 'm99'}]) {
        say(`→ tools/call atlas.distance ${JSON.stringify(args)}`);
        const result = await client.callTool({name: 'atlas.distance', arguments: args});
        for (const block of /** @type {Array<{type: string, text?: string}>} */ (result.content)) {
            say(`← ${block.type}: ${block.text}`);
        }
        if (result.structuredContent) say(`  structuredContent: ${JSON.stringify(result.structuredContent)}`);
        if (!('unit' in args) && !result.isError)
            say("  (no unit given: the schema's default reached the handler)");
        if (result.isError) say('  isError: true (the schema refused the arguments; the handler never ran)');
    }
    say('');

    const {prompts} = await client.listPrompts();
    say('→ prompts/list');
    for (const prompt of prompts) {
        const names = (prompt.arguments ?? []).map((arg) => `${arg.name}${arg.required ? '*' : ''}`);
        say(`  ${prompt.name}(${names.join(', ')})  ${prompt.description}`);
    }
    await complete(client, say, {type: 'ref/prompt', name: 'observe'}, 'object', 'm4');
    say('→ prompts/get observe {"object":"m42"}');
    const prompt = await client.getPrompt({name: 'observe', arguments: {object: 'm42'}});
    for (const {role, content} of prompt.messages) {
        say(
            `← ${role}: ${content.type === 'resource' ? `resource ${content.resource.uri}` : content.type === 'text' ? content.text : content.type}`,
        );
    }
    say('');

    const {resourceTemplates} = await client.listResourceTemplates();
    say('→ resources/templates/list');
    for (const template of resourceTemplates) {
        say(`  ${template.uriTemplate}  ${template.mimeType}  ${template.title}`);
    }
    await complete(client, say, {type: 'ref/resource', uri: 'atlas://objects/{id}'}, 'id', 'm1');
    say('→ resources/read atlas://objects/m45');
    const read = await client.readResource({uri: 'atlas://objects/m45'});
    for (const contents of read.contents) {
        say(`← ${contents.mimeType}: ${'text' in contents ? contents.text : '(binary)'}`);
    }
    await client.close();
    say("→ close: the client ends the server's stdin, and the server drains and exits");
}

/**
 * @param {Client} client
 * @param {(line: string) => void} say
 * @param {{type: 'ref/prompt', name: string} | {type: 'ref/resource', uri: string}} ref
 * @param {string} name
 * @param {string} value
 */
async function complete(client, say, ref, name, value) {
    say(`→ completion/complete ${'name' in ref ? ref.name : ref.uri} ${name}="${value}"`);
    const {completion} = await client.complete({ref, argument: {name, value}});
    say(`← ${completion.values.join(', ')}`);
}
