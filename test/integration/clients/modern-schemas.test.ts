/**
 * Schemas and structured content across the eras, with the official SDK clients. The dual-era
 * observatory's `sky.tonight` (an object outputSchema) is proven with SDK 1.x and the 2.x client in
 * legacy mode (sdk-v1, client-v2) and pinned to 2026-07-28 (modern-sdk-v2). Here a server that
 * serves 2026-07-28 only declares an array outputSchema and returns array structuredContent: the
 * 2.x client pinned to that revision validates it both ways, and legacy clients, which could not
 * represent it, are refused at `initialize` with -32022 naming the revision the server serves.
 */
import assert from 'node:assert/strict';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {after, describe, test} from 'node:test';
import {Client, ProtocolError, UnsupportedProtocolVersionError} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {Client as ClientV1} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport as StdioClientTransportV1} from '@modelcontextprotocol/sdk/client/stdio.js';
import {McpError} from '@modelcontextprotocol/sdk/types.js';
import {closeAll, exitOf, track} from '../../helpers/children.js';
import {REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';
import {BRIGHTEST, STAR_LIST_SCHEMA} from './fixtures/stars.js';
import type {ProcessTap} from './modern-support.js';
import {assertAnswer, lastRequestId, MODERN, SERVER_INFO_KEY, tapped} from './modern-support.js';
import {childOf, fixturePath} from './support.js';

after(closeAll);

const GUARD = {timeout: 60_000};

const CONSTELLATIONS = fixturePath('modern-only-server');
const META = {[SERVER_INFO_KEY]: {name: 'constellations', version: '1.0.0'}};

const REFUSAL =
    'This server serves only 2026-07-28, which has no "initialize": send each request with ' +
    'params._meta["io.modelcontextprotocol/protocolVersion"] and ' +
    'params._meta["io.modelcontextprotocol/clientCapabilities"]';

function transport(): StdioClientTransport {
    return new StdioClientTransport({command: process.execPath, args: [CONSTELLATIONS], stderr: 'pipe'});
}

describe('the client 2.x pinned to 2026-07-28 with a modern-only server', GUARD, () => {
    test('lists the array outputSchema as authored and accepts array structuredContent that matches it', async () => {
        const client = track(
            new Client(
                {name: 'modern-schemas', version: '2.0.0'},
                {versionNegotiation: {mode: {pin: MODERN}}},
            ),
        );
        const {taps} = await tapped(StdioClientTransport.prototype, childOf, () =>
            client.connect(transport()),
        );
        const server = taps[1] as ProcessTap;
        assert.equal(client.getProtocolEra(), 'modern');
        assert.deepEqual(client.getServerCapabilities(), {tools: {}, resources: {}});

        const {tools} = await client.listTools();
        assert.deepEqual(
            tools.map((tool) => [tool.name, tool.outputSchema]),
            [
                ['stars.brightest', STAR_LIST_SCHEMA],
                ['stars.miscounted', STAR_LIST_SCHEMA],
            ],
        );

        const two = BRIGHTEST.slice(0, 2);
        const content = [{type: 'text', text: 'Sirius, Canopus'}];
        assert.deepEqual(await client.callTool({name: 'stars.brightest', arguments: {count: 2}}), {
            _meta: META,
            content,
            structuredContent: two,
        });
        const id = lastRequestId(server.sent, 'tools/call', 'stars.brightest');
        assertAnswer(server.output, id, {
            resultType: 'complete',
            _meta: META,
            content,
            structuredContent: two,
        });

        assert.deepEqual(await client.readResource({uri: 'stars://catalog'}), {
            _meta: META,
            ttlMs: 0,
            cacheScope: 'private',
            contents: [
                {uri: 'stars://catalog', mimeType: 'application/json', text: JSON.stringify(BRIGHTEST)},
            ],
        });
        await client.close();
        assert.deepEqual(await server.exited, {code: 0, signal: null});
    });

    test('rejects array structuredContent that breaks the array outputSchema, so the check above is real', async () => {
        const client = track(
            new Client(
                {name: 'modern-schemas', version: '2.0.0'},
                {versionNegotiation: {mode: {pin: MODERN}}},
            ),
        );
        const session = transport();
        await client.connect(session);
        await client.listTools();
        await assert.rejects(client.callTool({name: 'stars.miscounted'}), (error: unknown) => {
            assert.ok(error instanceof ProtocolError);
            assert.equal(error.code, -32602);
            assert.equal(
                error.message,
                "Structured content does not match the tool's output schema: " +
                    'data/0 must be object, data/1 must be object, data/2 must be object',
            );
            return true;
        });
        const exited = exitOf(childOf(session));
        await client.close();
        assert.deepEqual(await exited, {code: 0, signal: null});
    });
});

describe('legacy clients with a modern-only server', GUARD, () => {
    test('the client 2.x in legacy mode is refused at initialize with -32022 and the supported revisions', async () => {
        const client = track(new Client({name: 'legacy-v2', version: '2.0.0'}));
        const session = transport();
        const {taps} = await tapped(StdioClientTransport.prototype, childOf, () =>
            assert.rejects(client.connect(session), (error: unknown) => {
                assert.ok(error instanceof UnsupportedProtocolVersionError);
                assert.equal(error.code, -32022);
                assert.equal(error.message, REFUSAL);
                assert.deepEqual(error.data, {supported: ['2026-07-28'], requested: '2025-11-25'});
                return true;
            }),
        );
        const server = taps[0] as ProcessTap;
        assert.equal(
            server.output,
            `${JSON.stringify({
                jsonrpc: '2.0',
                id: 0,
                error: {
                    code: -32022,
                    message: REFUSAL,
                    data: {supported: ['2026-07-28'], requested: '2025-11-25'},
                },
            })}\n`,
        );
        // The client closes the transport itself; the server then ends with its input.
        assert.deepEqual(await server.exited, {code: 0, signal: null});
    });

    test('the SDK 1.x client is refused at initialize with the same -32022', async () => {
        const session = new StdioClientTransportV1({command: process.execPath, args: [CONSTELLATIONS]});
        const client = track(new ClientV1({name: 'legacy-v1', version: '1.0.0'}));
        const {taps} = await tapped(StdioClientTransportV1.prototype, childOf, () =>
            assert.rejects(client.connect(session), (error: unknown) => {
                assert.ok(error instanceof McpError);
                assert.equal(error.code, -32022);
                assert.equal(error.message, `MCP error -32022: ${REFUSAL}`);
                assert.deepEqual(error.data, {supported: ['2026-07-28'], requested: '2025-11-25'});
                return true;
            }),
        );
        const server = taps[0] as ProcessTap;
        assert.deepEqual(
            server.sent.map((message) => message.method),
            ['initialize'],
        );
        await client.close();
        assert.deepEqual(await server.exited, {code: 0, signal: null});
    });

    test('the Inspector CLI 1.0.3 is refused at initialize and prints the -32022 message', async () => {
        // Inspector CLI 1.0.3 reads its own identity from ../package.json of its working directory.
        const inspector = join(
            dirname(
                createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json'),
            ),
            'build/cli.js',
        );
        const run = await runNode(
            [inspector, '--cli', process.execPath, CONSTELLATIONS, '--method', 'tools/list'],
            {
                cwd: join(REPO_ROOT, 'examples'),
            },
        );
        assert.equal(run.code, 1);
        assert.equal(run.stdout, '');
        assert.ok(
            run.stderr.includes(`\nFailed to connect to MCP server: MCP error -32022: ${REFUSAL}\n`),
            run.stderr,
        );
    });
});
