/**
 * The official `@modelcontextprotocol/client` 2.x (a separate codebase from SDK 1.x) spawns the
 * observatory example with `node` and uses every part of it, including its `server/discover`
 * probe for the 2026-07-28 revision.
 */
import assert from 'node:assert/strict';
import type {ChildProcess} from 'node:child_process';
import {after, before, describe, test} from 'node:test';
import type {JSONRPCMessage} from '@modelcontextprotocol/client';
import {
    Client,
    ProtocolError,
    ResourceNotFoundError,
    SdkError,
    SdkErrorCode,
} from '@modelcontextprotocol/client';
import type {StdioServerParameters} from '@modelcontextprotocol/client/stdio';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {closeAll, exitOf, track} from '../../helpers/children.js';
import {
    OBSERVATORY_CATALOG,
    OBSERVATORY_INSTRUCTIONS,
    OBSERVATORY_RESOURCES,
    OBSERVATORY_TOOL_NAMES,
    PLATE_PNG,
    SKY_TONIGHT,
    survey,
} from '../../helpers/observatory.js';
import {MOON_PANTRY, OBSERVATORY} from '../../helpers/paths.js';
import type {SdkSession} from './support.js';
import {childOf, connectSdk, fixturePath, lastCallId, WireRecorder} from './support.js';

after(closeAll);

/** A guard so that a broken server fails the run instead of hanging it. */
const GUARD = {timeout: 60_000};

/** The longest timer Node accepts: a probe left unanswered would never fall back in a test run. */
const NEVER = 2 ** 31 - 1;

type Session = SdkSession<Client, StdioClientTransport>;

function connect(script: string): Promise<Session> {
    return connectSdk(
        new Client({name: 'client-v2-test', version: '2.0.0'}),
        new StdioClientTransport({command: process.execPath, args: [script], stderr: 'pipe'}),
    );
}

describe('the client 2.x with the observatory example', GUARD, () => {
    let session: Session;

    before(async () => {
        session = await connect(OBSERVATORY);
    });

    after(async () => {
        await session.client.close();
    });

    test('initializes at 2025-11-25 in the legacy era and sees the server identity and instructions', () => {
        const {client, wire} = session;
        assert.equal((wire.sent[0] as {method?: unknown}).method, 'initialize');
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
        assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
        assert.equal(client.getProtocolEra(), 'legacy');
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
    });

    test('calls a tool whose structuredContent the client validates against its outputSchema', async () => {
        const result = await session.client.callTool({name: 'sky.tonight', arguments: {site: 'Paranal'}});
        assert.deepEqual(result, {
            content: [{type: 'text', text: 'Paranal: Moon, Jupiter, Saturn visible; seeing 4/5.'}],
            structuredContent: {
                site: 'Paranal',
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
        assert.deepEqual(content[1], {type: 'image', data: PLATE_PNG, mimeType: 'image/png'});
        assert.equal(
            Buffer.from(content[2]?.data as string, 'base64')
                .subarray(8, 12)
                .toString('ascii'),
            'WAVE',
        );
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
        assert.deepEqual(
            await session.client.callTool({name: 'telescope.point', arguments: {target: 'vulcan'}}),
            {
                content: [
                    {
                        type: 'text',
                        text: 'No catalogued object is called "vulcan"; try one of moon, jupiter, saturn, m31.',
                    },
                ],
                isError: true,
            },
        );
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
    });

    test('gets the missing-resource error: -32002 on the wire, a ResourceNotFoundError in the client', async () => {
        const {client, wire} = session;
        await assert.rejects(client.readResource({uri: 'observatory://nowhere'}), (error: unknown) => {
            // This client files -32002 under its own ResourceNotFoundError, whose code it sets to -32602.
            assert.ok(error instanceof ResourceNotFoundError);
            assert.equal(error.uri, 'observatory://nowhere');
            assert.equal(error.message, 'Resource not found: observatory://nowhere');
            return true;
        });
        const request = wire.sent.filter((message) => message.method === 'resources/read').at(-1);
        assert.deepEqual(wire.answersTo(request?.id), [
            {
                jsonrpc: '2.0',
                id: request?.id,
                error: {
                    code: -32002,
                    message: 'Resource not found: observatory://nowhere',
                    data: {uri: 'observatory://nowhere'},
                },
            },
        ]);
    });

    test('cancels a slow call with an AbortSignal: the handler stops and no late response arrives', async () => {
        const {client, wire, stderr, clientErrors} = session;
        const controller = new AbortController();
        const call = client.callTool(
            {name: 'sky.survey', arguments: {sectors: 10000}},
            {signal: controller.signal},
        );
        const rejected = assert.rejects(call, (error: unknown) => {
            assert.ok(error instanceof SdkError);
            assert.equal(error.code, SdkErrorCode.RequestTimeout);
            assert.equal(error.message, 'Clouds rolled in');
            return true;
        });
        const started = await stderr.waitFor((line) =>
            /^observatory: survey \d+ started: 10000 sectors$/.test(line),
        );
        const id = lastCallId(wire, 'sky.survey');
        assert.equal(started, `observatory: survey ${id} started: 10000 sectors`);

        controller.abort('Clouds rolled in');
        await rejected;
        await stderr.waitFor(survey(id, /^stopped after \d+ sectors: Clouds rolled in$/));
        await client.ping();

        assert.deepEqual(
            wire.sent.filter((message) => message.method === 'notifications/cancelled'),
            [
                {
                    jsonrpc: '2.0',
                    method: 'notifications/cancelled',
                    params: {requestId: id, reason: 'Clouds rolled in'},
                },
            ],
        );
        assert.deepEqual(wire.answersTo(id), []);
        assert.deepEqual(clientErrors, []);
        assert.deepEqual(wire.errors, []);
    });

    test('times out a slow call: the client cancels it and the handler observes the cancellation', async () => {
        const {client, wire, stderr, clientErrors} = session;
        const before = wire.sent.length;
        await assert.rejects(
            client.callTool({name: 'sky.survey', arguments: {sectors: 10000}}, {timeout: 100}),
            (error: unknown) => {
                assert.ok(error instanceof SdkError);
                assert.equal(error.code, SdkErrorCode.RequestTimeout);
                assert.equal(error.message, 'Request timed out');
                assert.deepEqual(error.data, {timeout: 100});
                return true;
            },
        );
        const id = lastCallId(wire, 'sky.survey');
        assert.ok(wire.sent.indexOf(wire.sent.find((message) => message.id === id) ?? {}) >= before);
        assert.deepEqual(
            wire.sent.find(
                (message) =>
                    message.method === 'notifications/cancelled' &&
                    (message.params as {requestId?: unknown}).requestId === id,
            ),
            {
                jsonrpc: '2.0',
                method: 'notifications/cancelled',
                params: {requestId: id, reason: 'SdkError: Request timed out'},
            },
        );
        await stderr.waitFor(survey(id, /^stopped after \d+ sectors: SdkError: Request timed out$/));
        await client.ping();
        assert.deepEqual(wire.answersTo(id), []);
        assert.deepEqual(clientErrors, []);
    });
});

describe('the client 2.x and the server lifetime', GUARD, () => {
    test('closes the session and the server process exits by itself with code 0', async () => {
        const {client, transport, stderr} = await connect(OBSERVATORY);
        await client.readResource({uri: 'observatory://catalog'});
        const exited = exitOf(childOf(transport));
        await client.close();
        assert.deepEqual(await exited, {code: 0, signal: null});
        assert.deepEqual(stderr.lines, []);
    });

    test('a malformed line answered -32700 without an id does not disturb later requests', async () => {
        const {client, transport, wire, stderr, clientErrors} = await connect(OBSERVATORY);
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
        assert.equal(
            await stderr.waitFor((line) => line.includes('-32700')),
            `[arcane-os/mcp/stdio] Answered -32700: this input line is not valid JSON: ${JSON.stringify(malformed)}`,
        );
        assert.deepEqual(await client.callTool({name: 'telescope.point', arguments: {target: 'jupiter'}}), {
            content: [{type: 'text', text: 'The telescope is pointing at Jupiter.'}],
        });
        assert.deepEqual(await client.listResources(), {resources: OBSERVATORY_RESOURCES});
        assert.equal(clientErrors.length, 1);
        await client.close();
    });

    test('rejects structuredContent that does not match the outputSchema, so the validation above is real', async () => {
        const {client} = await connect(fixturePath('mismatch-server'));
        // The client compiles a tool's outputSchema when it lists the tool.
        await client.listTools();
        await assert.rejects(client.callTool({name: 'count'}), (error: unknown) => {
            assert.ok(error instanceof ProtocolError);
            assert.equal(error.code, -32602);
            assert.match(error.message, /^Structured content does not match the tool's output schema: /);
            return true;
        });
        await client.close();
    });
});

const MOON_MENU = {content: 'Moon soup\nExtra tentacles available.', message: {chef: 'Octopus', open: true}};
const MOON_MENU_RESULT = {
    content: [{type: 'text', text: JSON.stringify(MOON_MENU)}],
    structuredContent: MOON_MENU,
};

/**
 * A subclass of the SDK's stdio transport: the client probes `server/discover` on it in place
 * (on the same process that then serves the session), and it records every message both ways.
 */
class RecordingTransport extends StdioClientTransport {
    readonly outbound: JSONRPCMessage[] = [];
    readonly inbound: JSONRPCMessage[] = [];
    /** The spawned server, kept from `start` on: the client may close the transport itself. */
    child: ChildProcess | undefined;

    constructor(params: StdioServerParameters) {
        super(params);
        // Whoever installs a message handler (the probe, then the session), record what it receives.
        const recorded = new WeakSet<object>();
        let handler: ((message: JSONRPCMessage) => void) | undefined;
        Object.defineProperty(this, 'onmessage', {
            configurable: true,
            get: () => handler,
            set: (next: ((message: JSONRPCMessage) => void) | undefined) => {
                if (next === undefined || recorded.has(next)) {
                    handler = next;
                    return;
                }
                const wrapped = (message: JSONRPCMessage) => {
                    this.inbound.push(message);
                    next(message);
                };
                recorded.add(wrapped);
                handler = wrapped;
            },
        });
    }

    override async start(): Promise<void> {
        await super.start();
        this.child = childOf(this);
    }

    override send(message: JSONRPCMessage): Promise<void> {
        this.outbound.push(message);
        return super.send(message);
    }
}

describe(
    'the client 2.x probing a legacy-only server (moon-pantry keeps the default revision)',
    GUARD,
    () => {
        test('falls back to initialize at once: the probe is answered -32601 on the same process', async () => {
            const transport = track(new RecordingTransport({command: process.execPath, args: [MOON_PANTRY]}));
            const client = new Client(
                {name: 'modern-first', version: '2.0.0'},
                {versionNegotiation: {mode: 'auto', probe: {timeoutMs: NEVER}}},
            );
            await client.connect(transport);

            const probe = transport.outbound[0] as {
                id?: unknown;
                method?: unknown;
                params?: {_meta?: object};
            };
            assert.equal(probe.method, 'server/discover');
            assert.equal(typeof probe.id, 'string');
            assert.deepEqual(transport.inbound[0], {
                jsonrpc: '2.0',
                id: probe.id,
                error: {code: -32601, message: 'Method not found: "server/discover"'},
            });
            assert.deepEqual(
                transport.outbound
                    .slice(1, 3)
                    .map((message) => ('method' in message ? message.method : undefined)),
                ['initialize', 'notifications/initialized'],
            );
            assert.equal(client.getProtocolEra(), 'legacy');
            assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
            assert.deepEqual(await client.callTool({name: 'moon.menu'}), MOON_MENU_RESULT);
            const exited = exitOf(childOf(transport));
            await client.close();
            assert.deepEqual(await exited, {code: 0, signal: null});
        });

        test('falls back to initialize at once when the probe runs on a disposable sibling process', async () => {
            const transport = track(
                new StdioClientTransport({command: process.execPath, args: [MOON_PANTRY]}),
            );
            const wire = new WireRecorder(transport);
            const client = new Client(
                {name: 'modern-first', version: '2.0.0'},
                {versionNegotiation: {mode: 'auto', probe: {timeoutMs: NEVER}}},
            );
            await client.connect(transport);
            // The probe went to a sibling; this process saw only the legacy handshake.
            assert.deepEqual(
                wire.sent.slice(0, 2).map((message) => message.method),
                ['initialize', 'notifications/initialized'],
            );
            assert.equal(client.getProtocolEra(), 'legacy');
            assert.deepEqual(await client.callTool({name: 'moon.menu'}), MOON_MENU_RESULT);
            await client.close();
        });

        test('a client pinned to 2026-07-28 fails fast with a typed error instead of waiting', async () => {
            const transport = track(new RecordingTransport({command: process.execPath, args: [MOON_PANTRY]}));
            const client = new Client(
                {name: 'modern-only', version: '2.0.0'},
                {versionNegotiation: {mode: {pin: '2026-07-28'}, probe: {timeoutMs: NEVER}}},
            );
            await assert.rejects(client.connect(transport), (error: unknown) => {
                assert.ok(error instanceof SdkError);
                assert.equal(error.code, SdkErrorCode.EraNegotiationFailed);
                assert.equal(
                    error.message,
                    'Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via ' +
                        'server/discover (no fallback in pin mode)',
                );
                return true;
            });
            assert.deepEqual(
                transport.inbound.map((message) => ('error' in message ? message.error.code : undefined)),
                [-32601],
            );
            // The client gives up and closes the transport; the server ends with its input.
            assert.ok(transport.child !== undefined);
            const exited = exitOf(transport.child);
            await transport.close();
            assert.deepEqual(await exited, {code: 0, signal: null});
        });
    },
);
