/**
 * A legacy call's log messages over Streamable HTTP reach real clients on the SSE answer of the
 * call's own POST: this package's client (`onLog`) and the official SDK 1.x client (its logging
 * notification handler), against `createMcpHttpHandler` on node:http.
 */
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {Client as ClientV1} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport as TransportV1} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {LoggingMessageNotificationSchema} from '@modelcontextprotocol/sdk/types.js';
import type {LoggingMessage} from '../../../lib/mcp/client/index.js';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import type {McpHttpHandler, NodeHttpServer} from '../../../lib/mcp/http/index.js';
import {createMcpHttpHandler, serveNodeHttp} from '../../../lib/mcp/http/index.js';

const CLIENT_INFO = {name: 'http-logging-test', version: '1.0.0'};

/** The content type each `tools/call` POST was answered with, in order. */
const callAnswers: (string | null)[] = [];

function logHandler(): McpHttpHandler {
    return createMcpHttpHandler({
        serverInfo: {name: 'http-logging', version: '1.0.0'},
        protocolVersions: ['2025-11-25', '2025-03-26'],
        logging: true,
        tools: [
            {
                name: 'survey',
                inputSchema: {type: 'object'},
                handler: async (_args, {log}) => {
                    log('debug', 'below the level');
                    log('info', {stage: 'start'}, 'survey');
                    await new Promise((resolve) => setImmediate(resolve));
                    log('warning', 'almost done');
                    return {content: [{type: 'text', text: 'surveyed'}]};
                },
            },
        ],
        onDiagnostic: () => {},
    });
}

describe('log messages of a legacy call over HTTP', {timeout: 60_000}, () => {
    let handler: McpHttpHandler;
    let served: NodeHttpServer;
    before(async () => {
        handler = logHandler();
        served = await serveNodeHttp({
            fetch: async (request) => {
                const method =
                    request.method === 'POST'
                        ? ((await request.clone().json()) as {method?: string}).method
                        : '';
                const response = await handler.fetch(request);
                if (method === 'tools/call') callAnswers.push(response.headers.get('content-type'));
                return response;
            },
        });
    });
    after(async () => {
        await handler.close({cancelPending: true});
        await served.close();
    });

    for (const protocolVersion of ['2025-11-25', '2025-03-26']) {
        test(`reach this package's client through onLog, ${protocolVersion}`, async () => {
            const logs: LoggingMessage[] = [];
            const client = await connectMcpClient({
                url: served.url,
                clientInfo: CLIENT_INFO,
                protocolVersion,
                onLog: (message) => void logs.push(message),
            });
            try {
                await client.setLoggingLevel('info');
                const earlier = callAnswers.length;
                const result = await client.callTool('survey', {});
                assert.deepEqual(result.content, [{type: 'text', text: 'surveyed'}]);
                assert.deepEqual(logs, [
                    {level: 'info', logger: 'survey', data: {stage: 'start'}},
                    {level: 'warning', data: 'almost done'},
                ]);
                assert.deepEqual(callAnswers.slice(earlier), ['text/event-stream']);
            } finally {
                await client.close();
            }
        });
    }

    test("reach the official SDK 1.x client's logging notification handler", async () => {
        const client = new ClientV1(CLIENT_INFO);
        const logs: unknown[] = [];
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
            logs.push(notification.params);
        });
        const transport = new TransportV1(new URL(served.url));
        await client.connect(transport);
        try {
            await client.setLoggingLevel('info');
            const earlier = callAnswers.length;
            const result = await client.callTool({name: 'survey', arguments: {}});
            assert.deepEqual(result.content, [{type: 'text', text: 'surveyed'}]);
            assert.deepEqual(logs, [
                {level: 'info', logger: 'survey', data: {stage: 'start'}},
                {level: 'warning', data: 'almost done'},
            ]);
            assert.deepEqual(callAnswers.slice(earlier), ['text/event-stream']);
            await transport.terminateSession();
        } finally {
            await client.close();
        }
    });
});
