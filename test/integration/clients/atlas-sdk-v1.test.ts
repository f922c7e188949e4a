/**
 * The official TypeScript SDK 1.x client spawns the star-atlas example (2025-11-25, the newest
 * revision it speaks) and uses its whole surface: the zod-typed tool, the prompt, the resource
 * template, and completion of a prompt argument and of a template variable.
 */
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {McpError} from '@modelcontextprotocol/sdk/types.js';
import {
    ATLAS_CAPABILITIES,
    ATLAS_DISTANCE,
    ATLAS_INFO,
    M42_LIGHT_YEARS,
    OBJECT_TEMPLATE,
    OBSERVE_PROMPT,
    objectContents,
    observeResult,
    STAR_ATLAS,
    UNKNOWN_ID_RESULT,
} from '../../examples/star-atlas-session.js';
import {closeAll, track} from '../../helpers/children.js';
import {WireRecorder} from './support.js';

after(closeAll);

const GUARD = {timeout: 60_000};

describe('the SDK 1.x client with the star-atlas example', GUARD, () => {
    let client: Client;
    let wire: WireRecorder;
    const clientErrors: Error[] = [];

    before(async () => {
        const transport = new StdioClientTransport({command: process.execPath, args: [STAR_ATLAS]});
        wire = new WireRecorder(transport);
        client = track(new Client({name: 'atlas-sdk-v1', version: '1.0.0'}));
        client.onerror = (error) => clientErrors.push(error);
        await client.connect(transport);
    });

    after(async () => {
        await client.close();
        assert.deepEqual(clientErrors, []);
        assert.deepEqual(wire.errors, []);
    });

    test('initializes at 2025-11-25 and sees prompts, resources and completions offered', () => {
        assert.deepEqual(wire.received[0], {
            jsonrpc: '2.0',
            id: 0,
            result: {protocolVersion: '2025-11-25', capabilities: ATLAS_CAPABILITIES, serverInfo: ATLAS_INFO},
        });
        assert.deepEqual(client.getServerCapabilities(), ATLAS_CAPABILITIES);
    });

    test('lists the typed tool with the JSON Schema its zod schemas convert to', async () => {
        assert.deepEqual(await client.listTools(), {tools: [ATLAS_DISTANCE]});
    });

    test("calls it: the schema's default reaches the handler; the client accepts the structured result", async () => {
        assert.deepEqual(
            await client.callTool({name: 'atlas.distance', arguments: {id: 'm42'}}),
            M42_LIGHT_YEARS,
        );
    });

    test('an argument the schema refuses is an isError result naming it, not a protocol error', async () => {
        assert.deepEqual(
            await client.callTool({name: 'atlas.distance', arguments: {id: 'm99'}}),
            UNKNOWN_ID_RESULT,
        );
    });

    test('lists the prompt and gets it, its message embedding the object resource', async () => {
        assert.deepEqual(await client.listPrompts(), {prompts: [OBSERVE_PROMPT]});
        assert.deepEqual(
            await client.getPrompt({name: 'observe', arguments: {object: 'm42'}}),
            observeResult('m42'),
        );
        assert.deepEqual(
            await client.getPrompt({name: 'observe', arguments: {object: 'm57', instrument: 'binoculars'}}),
            observeResult('m57', 'binoculars'),
        );
    });

    test('a prompt without its required argument is -32602', async () => {
        await assert.rejects(
            client.getPrompt({name: 'observe', arguments: {instrument: 'eyes'}}),
            (error) => {
                assert.ok(error instanceof McpError);
                assert.equal(error.code, -32602);
                assert.equal(
                    error.message,
                    'MCP error -32602: prompts/get of prompt "observe" is missing the required argument "object"',
                );
                return true;
            },
        );
    });

    test('completes the prompt argument, with the other arguments as context', async () => {
        assert.deepEqual(
            await client.complete({
                ref: {type: 'ref/prompt', name: 'observe'},
                argument: {name: 'object', value: 'm4'},
            }),
            {completion: {values: ['m42', 'm45']}},
        );
        assert.deepEqual(
            await client.complete({
                ref: {type: 'ref/prompt', name: 'observe'},
                argument: {name: 'instrument', value: 'b'},
                context: {arguments: {object: 'm42'}},
            }),
            {completion: {values: ['binoculars']}},
        );
        const sent = wire.sent.filter((message) => message.method === 'completion/complete').at(-1);
        assert.deepEqual(sent?.params, {
            ref: {type: 'ref/prompt', name: 'observe'},
            argument: {name: 'instrument', value: 'b'},
            context: {arguments: {object: 'm42'}},
        });
    });

    test('lists the template, completes its variable and reads a resource through it', async () => {
        assert.deepEqual(await client.listResourceTemplates(), {resourceTemplates: [OBJECT_TEMPLATE]});
        assert.deepEqual(
            await client.complete({
                ref: {type: 'ref/resource', uri: 'atlas://objects/{id}'},
                argument: {name: 'id', value: 'm1'},
            }),
            {completion: {values: ['m13']}},
        );
        assert.deepEqual(await client.readResource({uri: 'atlas://objects/m45'}), {
            contents: [objectContents('m45')],
        });
    });

    test('a uri the template matches but the catalogue lacks is -32002 with the uri as data', async () => {
        await assert.rejects(client.readResource({uri: 'atlas://objects/m99'}), (error) => {
            assert.ok(error instanceof McpError);
            assert.equal(error.code, -32002);
            assert.equal(error.message, 'MCP error -32002: Resource not found: atlas://objects/m99');
            assert.deepEqual(error.data, {uri: 'atlas://objects/m99'});
            return true;
        });
    });
});
