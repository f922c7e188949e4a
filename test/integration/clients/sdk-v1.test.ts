/**
 * The official TypeScript SDK 1.x client (`@modelcontextprotocol/sdk`: `Client` and
 * `StdioClientTransport`) spawns the observatory example with `node` and uses every part of it.
 */
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {McpError} from '@modelcontextprotocol/sdk/types.js';
import {closeAll, exitOf} from '../../helpers/children.js';
import {
    OBSERVATORY_CATALOG,
    OBSERVATORY_INSTRUCTIONS,
    OBSERVATORY_RESOURCES,
    OBSERVATORY_TOOL_NAMES,
    PLATE_PNG,
    SKY_TONIGHT,
    survey,
} from '../../helpers/observatory.js';
import {OBSERVATORY} from '../../helpers/paths.js';
import type {SdkSession} from './support.js';
import {childOf, connectSdk, fixturePath, lastCallId} from './support.js';

after(closeAll);

/** A guard so that a broken server fails the run instead of hanging it. */
const GUARD = {timeout: 60_000};

type Session = SdkSession<Client, StdioClientTransport>;

function connect(script: string): Promise<Session> {
    return connectSdk(
        new Client({name: 'sdk-v1-test', version: '1.0.0'}),
        new StdioClientTransport({command: process.execPath, args: [script], stderr: 'pipe'}),
    );
}

describe('the SDK 1.x client with the observatory example', GUARD, () => {
    let session: Session;

    before(async () => {
        session = await connect(OBSERVATORY);
    });

    after(async () => {
        await session.client.close();
    });

    test('initializes at 2025-11-25 and sees the server identity, capabilities and instructions', () => {
        const {client, wire} = session;
        assert.deepEqual(wire.sent[0], {
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {
                protocolVersion: '2025-11-25',
                capabilities: {},
                clientInfo: {name: 'sdk-v1-test', version: '1.0.0'},
            },
        });
        assert.deepEqual(wire.received[0], {
            jsonrpc: '2.0',
            id: 0,
            result: {
                protocolVersion: '2025-11-25',
                capabilities: {tools: {}, resources: {}},
                serverInfo: {name: 'observatory', version: '1.0.0', title: 'Observatory'},
                instructions: OBSERVATORY_INSTRUCTIONS,
            },
        });
        assert.deepEqual(wire.sent[1], {jsonrpc: '2.0', method: 'notifications/initialized'});
        assert.deepEqual(client.getServerVersion(), {
            name: 'observatory',
            version: '1.0.0',
            title: 'Observatory',
        });
        assert.deepEqual(client.getServerCapabilities(), {tools: {}, resources: {}});
        assert.equal(client.getInstructions(), OBSERVATORY_INSTRUCTIONS);
    });

    test('lists the tools with schemas, annotations, icons and outputSchema intact', async () => {
        const {tools} = await session.client.listTools();
        assert.deepEqual(
            tools.map((tool) => tool.name),
            OBSERVATORY_TOOL_NAMES,
        );
        assert.deepEqual(tools[0], SKY_TONIGHT);
        assert.deepEqual(tools[2]?.annotations, {
            readOnlyHint: false,
            destructiveHint: false,
            idempotentHint: true,
        });
        assert.deepEqual(tools[3]?.inputSchema, {
            type: 'object',
            properties: {sectors: {type: 'integer', minimum: 1, maximum: 10000, default: 20}},
        });
    });

    test('calls a tool whose structuredContent the client validates against its outputSchema', async () => {
        await session.client.listTools();
        const result = await session.client.callTool({name: 'sky.tonight', arguments: {site: 'La Palma'}});
        assert.deepEqual(result, {
            content: [{type: 'text', text: 'La Palma: Moon, Jupiter, Saturn visible; seeing 4/5.'}],
            structuredContent: {
                site: 'La Palma',
                moonPhase: 'waxing gibbous',
                visible: ['Moon', 'Jupiter', 'Saturn'],
                seeing: 4,
            },
        });
    });

    test('receives text, image, audio, resource_link and embedded resource blocks from one call', async () => {
        const result = await session.client.callTool({name: 'sky.gallery'});
        const content = result.content as {type: string; [key: string]: unknown}[];
        assert.deepEqual(
            content.map((block) => block.type),
            ['text', 'image', 'audio', 'resource_link', 'resource'],
        );
        assert.deepEqual(content[0], {type: 'text', text: 'Tonight from the observatory:'});
        assert.deepEqual(content[1], {type: 'image', data: PLATE_PNG, mimeType: 'image/png'});
        assert.equal(content[2]?.mimeType, 'audio/wav');
        const wav = Buffer.from(content[2]?.data as string, 'base64');
        assert.equal(wav.subarray(0, 4).toString('ascii'), 'RIFF');
        assert.equal(wav.subarray(8, 12).toString('ascii'), 'WAVE');
        assert.equal(wav.length, 44 + 320);
        assert.deepEqual(content[3], {
            type: 'resource_link',
            uri: 'observatory://catalog',
            name: 'catalog',
            mimeType: 'application/json',
        });
        assert.deepEqual(content[4], {
            type: 'resource',
            resource: {
                uri: 'observatory://notes/tonight',
                mimeType: 'text/plain',
                text: 'Clear skies, light wind.',
            },
        });
    });

    test('gets a domain failure as an isError result rather than an exception', async () => {
        const result = await session.client.callTool({name: 'telescope.point', arguments: {target: 'pluto'}});
        assert.deepEqual(result, {
            content: [
                {
                    type: 'text',
                    text: 'No catalogued object is called "pluto"; try one of moon, jupiter, saturn, m31.',
                },
            ],
            isError: true,
        });
    });

    test('lists the text and the blob resource and reads both exactly', async () => {
        const {resources} = await session.client.listResources();
        assert.deepEqual(resources, OBSERVATORY_RESOURCES);
        assert.deepEqual(await session.client.readResource({uri: 'observatory://catalog'}), {
            contents: [
                {
                    uri: 'observatory://catalog',
                    mimeType: 'application/json',
                    text: JSON.stringify(OBSERVATORY_CATALOG),
                },
            ],
        });
        assert.deepEqual(await session.client.readResource({uri: 'observatory://plates/m31.png'}), {
            contents: [{uri: 'observatory://plates/m31.png', mimeType: 'image/png', blob: PLATE_PNG}],
        });
        assert.deepEqual(await session.client.listResourceTemplates(), {resourceTemplates: []});
    });

    test('gets -32002 with the uri as data for a resource that is not in the catalog', async () => {
        await assert.rejects(
            session.client.readResource({uri: 'observatory://nowhere'}),
            (error: unknown) => {
                assert.ok(error instanceof McpError);
                assert.equal(error.code, -32002);
                assert.equal(error.message, 'MCP error -32002: Resource not found: observatory://nowhere');
                assert.deepEqual(error.data, {uri: 'observatory://nowhere'});
                return true;
            },
        );
    });

    test('cancels a slow call with an AbortSignal: the handler stops and no late response arrives', async () => {
        const {client, wire, stderr, clientErrors} = session;
        const controller = new AbortController();
        const call = client.callTool({name: 'sky.survey', arguments: {sectors: 10000}}, undefined, {
            signal: controller.signal,
        });
        const rejected = assert.rejects(call, (error: unknown) => {
            assert.ok(error instanceof McpError);
            assert.equal(error.code, -32001);
            assert.equal(error.message, 'MCP error -32001: The observer changed their mind');
            return true;
        });
        const id = lastCallId(wire, 'sky.survey');
        await stderr.waitFor(survey(id, 'started: 10000 sectors'));

        controller.abort('The observer changed their mind');
        await rejected;
        await stderr.waitFor(survey(id, /^stopped after \d+ sectors: The observer changed their mind$/));
        // The server answers in order: anything it wrote for the cancelled call precedes this pong.
        await client.ping();

        assert.deepEqual(
            wire.sent.filter((message) => message.method === 'notifications/cancelled'),
            [
                {
                    jsonrpc: '2.0',
                    method: 'notifications/cancelled',
                    params: {requestId: id, reason: 'The observer changed their mind'},
                },
            ],
        );
        assert.deepEqual(wire.answersTo(id), []);
        assert.equal(stderr.lines.filter(survey(id, 'finished')).length, 0);
        assert.deepEqual(clientErrors, []);
        assert.deepEqual(wire.errors, []);
    });

    test('times out a slow call: the client cancels it and the handler observes the cancellation', async () => {
        const {client, wire, stderr, clientErrors} = session;
        const call = client.callTool({name: 'sky.survey', arguments: {sectors: 10000}}, undefined, {
            timeout: 100,
        });
        const id = lastCallId(wire, 'sky.survey');
        await assert.rejects(call, (error: unknown) => {
            assert.ok(error instanceof McpError);
            assert.equal(error.code, -32001);
            assert.equal(error.message, 'MCP error -32001: Request timed out');
            assert.deepEqual(error.data, {timeout: 100});
            return true;
        });
        const cancelled = wire.sent.find(
            (message) =>
                message.method === 'notifications/cancelled' &&
                (message.params as {requestId?: unknown}).requestId === id,
        );
        assert.deepEqual(cancelled, {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: {requestId: id, reason: 'McpError: MCP error -32001: Request timed out'},
        });
        await stderr.waitFor(
            survey(id, /^stopped after \d+ sectors: McpError: MCP error -32001: Request timed out$/),
        );
        await client.ping();
        assert.deepEqual(wire.answersTo(id), []);
        assert.deepEqual(clientErrors, []);
    });
});

describe('the SDK 1.x client and the server lifetime', GUARD, () => {
    test('closes the session and the server process exits by itself with code 0', async () => {
        const {client, transport, stderr} = await connect(OBSERVATORY);
        await client.callTool({name: 'telescope.point', arguments: {target: 'm31'}});
        const exited = exitOf(childOf(transport));
        await client.close();
        // The SDK sends SIGTERM only to a server still running two seconds after stdin closed.
        assert.deepEqual(await exited, {code: 0, signal: null});
        assert.deepEqual(stderr.lines, []);
    });

    test('a malformed line answered -32700 without an id does not disturb later requests', async () => {
        const {client, transport, wire, clientErrors} = await connect(OBSERVATORY);
        const malformed = '{"jsonrpc":"2.0","id":7,"method":"tools/list"';
        let parseMessage = '';
        try {
            JSON.parse(malformed);
        } catch (error) {
            parseMessage = (error as Error).message;
        }
        const parseError = {jsonrpc: '2.0', error: {code: -32700, message: `Parse error: ${parseMessage}`}};

        childOf(transport).stdin?.write(`${malformed}\n`);
        await client.ping();

        assert.deepEqual(wire.received.at(-2), parseError);
        assert.deepEqual(
            clientErrors.map((error) => error.message),
            [`Received a response for an unknown message ID: ${JSON.stringify(parseError)}`],
        );
        const {tools} = await client.listTools();
        assert.deepEqual(tools[0], SKY_TONIGHT);
        assert.deepEqual(await client.callTool({name: 'telescope.point', arguments: {target: 'saturn'}}), {
            content: [{type: 'text', text: 'The telescope is pointing at Saturn.'}],
        });
        assert.equal(clientErrors.length, 1);
        await client.close();
    });

    test('rejects structuredContent that does not match the outputSchema, so the validation above is real', async () => {
        const {client} = await connect(fixturePath('mismatch-server'));
        await client.listTools();
        await assert.rejects(client.callTool({name: 'count'}), (error: unknown) => {
            assert.ok(error instanceof McpError);
            assert.equal(error.code, -32602);
            assert.match(
                error.message,
                /^MCP error -32602: Structured content does not match the tool's output schema: /,
            );
            return true;
        });
        await client.close();
    });
});
