/**
 * The official `@modelcontextprotocol/client` 2.x in the 2026-07-28 era, against the observatory
 * example, which serves every revision (dual-era).
 *
 * How this client negotiates over stdio, as its source (`negotiateStdioViaSibling`) does it: with
 * the SDK's own `StdioClientTransport`, both `{pin: '2026-07-28'}` and `auto` send the
 * `server/discover` probe to a short-lived sibling process spawned from the same parameters, reap
 * that sibling at once (stdin ended, then SIGTERM in the same tick), and only then start the
 * process that serves the session, which never sees `initialize`. A subclass of the transport is
 * probed in place instead, on the process that then serves the session. The tests tap every
 * process the transport starts and assert both paths byte for byte; `auto` is in
 * modern-sdk-v2-auto.test.ts.
 */
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {ResourceNotFoundError, SdkError, SdkErrorCode} from '@modelcontextprotocol/client';
import {closeAll} from '../../helpers/children.js';
import {
    OBSERVATORY_CATALOG,
    OBSERVATORY_INSTRUCTIONS,
    OBSERVATORY_RESOURCES,
    OBSERVATORY_TOOL_NAMES,
    PLATE_PNG,
    SKY_TONIGHT,
    survey,
} from '../../helpers/observatory.js';
import type {ProcessTap, Wire} from './modern-support.js';
import {
    answerLine,
    assertAnswer,
    lastRequestId,
    MODERN,
    OBSERVATORY_INFO,
    OBSERVATORY_META,
} from './modern-support.js';
import type {Connected} from './sdk-v2-support.js';
import {assertSiblingProbe, connect, META, observatoryTransport} from './sdk-v2-support.js';

after(closeAll);

const GUARD = {timeout: 60_000};

/** The request of `method` the client sent last: it carries the envelope and no other `_meta`. */
function lastRequest(sent: Wire[], method: string): Wire {
    const id = lastRequestId(sent, method);
    return sent.find((message) => message.id === id) as Wire;
}

describe('the client 2.x pinned to 2026-07-28 with the observatory', GUARD, () => {
    let connected: Connected;
    let server: ProcessTap;

    before(async () => {
        connected = await connect({pin: MODERN}, observatoryTransport());
        assert.equal(connected.processes.length, 2);
        server = connected.processes[1] as ProcessTap;
    });

    test('probes server/discover on a sibling process, then serves the session without initialize', async () => {
        const {client, processes} = connected;
        await assertSiblingProbe(processes[0] as ProcessTap);
        assert.equal(server.input, '');
        assert.equal(client.getProtocolEra(), 'modern');
        assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
        assert.deepEqual(client.getServerVersion(), OBSERVATORY_INFO);
        assert.deepEqual(client.getServerCapabilities(), {tools: {}, resources: {}});
        assert.equal(client.getInstructions(), OBSERVATORY_INSTRUCTIONS);
    });

    test('lists the tools; the result carries resultType, the server identity and the caching hints', async () => {
        const result = await connected.client.listTools();
        assert.deepEqual(
            result.tools.map((tool) => tool.name),
            OBSERVATORY_TOOL_NAMES,
        );
        assert.deepEqual(result.tools[0], SKY_TONIGHT);
        assert.deepEqual(result, {
            _meta: OBSERVATORY_META,
            ttlMs: 300000,
            cacheScope: 'public',
            tools: result.tools,
        });
        const request = lastRequest(server.sent, 'tools/list');
        assert.deepEqual(request, {
            method: 'tools/list',
            jsonrpc: '2.0',
            id: request.id,
            params: {_meta: META},
        });
        const line = answerLine(server.output, request.id);
        const tools = (JSON.parse(line) as {result: {tools: unknown}}).result.tools;
        assert.equal(
            line,
            JSON.stringify({
                jsonrpc: '2.0',
                id: request.id,
                result: {
                    resultType: 'complete',
                    _meta: OBSERVATORY_META,
                    tools,
                    ttlMs: 300000,
                    cacheScope: 'public',
                },
            }),
        );
    });

    test('calls sky.tonight: its object structuredContent passes the outputSchema check of the client', async () => {
        const tonight = {
            site: 'Paranal',
            moonPhase: 'waxing gibbous',
            visible: ['Moon', 'Jupiter', 'Saturn'],
            seeing: 4,
        };
        const content = [{type: 'text', text: 'Paranal: Moon, Jupiter, Saturn visible; seeing 4/5.'}];
        const result = await connected.client.callTool({name: 'sky.tonight', arguments: {site: 'Paranal'}});
        assert.deepEqual(result, {_meta: OBSERVATORY_META, content, structuredContent: tonight});
        const id = lastRequestId(server.sent, 'tools/call', 'sky.tonight');
        assertAnswer(server.output, id, {
            resultType: 'complete',
            _meta: OBSERVATORY_META,
            content,
            structuredContent: tonight,
        });
    });

    test('the handler sees 2026-07-28 as its protocolVersion: the gallery gives every block type', async () => {
        const result = await connected.client.callTool({name: 'sky.gallery'});
        const content = result.content as {type: string}[];
        assert.deepEqual(
            content.map((block) => block.type),
            ['text', 'image', 'audio', 'resource_link', 'resource'],
        );
        assert.deepEqual(content[1], {type: 'image', data: PLATE_PNG, mimeType: 'image/png'});
    });

    test('gets a domain failure as an isError result', async () => {
        assert.deepEqual(
            await connected.client.callTool({name: 'telescope.point', arguments: {target: 'vulcan'}}),
            {
                _meta: OBSERVATORY_META,
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

    test('lists and reads the resources and lists no templates; a read carries the private, uncached hints', async () => {
        const {client} = connected;
        assert.deepEqual(await client.listResources(), {
            _meta: OBSERVATORY_META,
            ttlMs: 300000,
            cacheScope: 'public',
            resources: OBSERVATORY_RESOURCES,
        });
        const contents = [
            {
                uri: 'observatory://catalog',
                mimeType: 'application/json',
                text: JSON.stringify(OBSERVATORY_CATALOG),
            },
        ];
        assert.deepEqual(await client.readResource({uri: 'observatory://catalog'}), {
            _meta: OBSERVATORY_META,
            ttlMs: 0,
            cacheScope: 'private',
            contents,
        });
        const id = lastRequestId(server.sent, 'resources/read');
        assertAnswer(server.output, id, {
            resultType: 'complete',
            _meta: OBSERVATORY_META,
            contents,
            ttlMs: 0,
            cacheScope: 'private',
        });
        assert.deepEqual(await client.listResourceTemplates(), {
            _meta: OBSERVATORY_META,
            ttlMs: 300000,
            cacheScope: 'public',
            resourceTemplates: [],
        });
        assert.deepEqual(await client.readResource({uri: 'observatory://plates/m31.png'}), {
            _meta: OBSERVATORY_META,
            ttlMs: 0,
            cacheScope: 'private',
            contents: [{uri: 'observatory://plates/m31.png', mimeType: 'image/png', blob: PLATE_PNG}],
        });
    });

    test('gets the missing-resource error: -32602 with the uri, a ResourceNotFoundError in the client', async () => {
        await assert.rejects(
            connected.client.readResource({uri: 'observatory://nowhere'}),
            (error: unknown) => {
                assert.ok(error instanceof ResourceNotFoundError);
                assert.equal(error.code, -32602);
                assert.equal(error.message, 'Resource not found: observatory://nowhere');
                assert.equal(error.uri, 'observatory://nowhere');
                assert.deepEqual(error.data, {uri: 'observatory://nowhere'});
                return true;
            },
        );
        const id = lastRequestId(server.sent, 'resources/read');
        assert.equal(
            answerLine(server.output, id),
            '{"jsonrpc":"2.0","id":' +
                `${JSON.stringify(id)},"error":{"code":-32602,"message":"Resource not found: observatory://nowhere",` +
                '"data":{"uri":"observatory://nowhere"}}}',
        );
    });

    test('cancels a slow call with an AbortSignal: the handler sees the same reason and no answer is written', async () => {
        const {client, stderr, clientErrors} = connected;
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
        await stderr.waitFor((line) => /^observatory: survey \d+ started: 10000 sectors$/.test(line));
        const id = lastRequestId(server.sent, 'tools/call', 'sky.survey') as number;
        assert.ok(stderr.lines.includes(`observatory: survey ${id} started: 10000 sectors`));

        controller.abort('Clouds rolled in');
        await rejected;
        await stderr.waitFor(survey(id, /^stopped after \d+ sectors: Clouds rolled in$/));
        // A later request is answered after anything the cancelled one could still have produced.
        assert.deepEqual(await client.callTool({name: 'telescope.point', arguments: {target: 'jupiter'}}), {
            _meta: OBSERVATORY_META,
            content: [{type: 'text', text: 'The telescope is pointing at Jupiter.'}],
        });

        assert.deepEqual(
            server.sent.filter((message) => message.method === 'notifications/cancelled'),
            [
                {
                    jsonrpc: '2.0',
                    method: 'notifications/cancelled',
                    params: {requestId: id, reason: 'Clouds rolled in', _meta: META},
                },
            ],
        );
        assert.deepEqual(
            server.received.filter((message) => message.id === id),
            [],
        );
        assert.deepEqual(clientErrors, []);
    });

    test('closes the session: the server process exits by itself with code 0', async () => {
        const {client, stderr} = connected;
        await client.close();
        assert.deepEqual(await server.exited, {code: 0, signal: null});
        assert.deepEqual(
            stderr.lines.filter((line) => !line.startsWith('observatory: survey ')),
            [],
        );
    });
});
