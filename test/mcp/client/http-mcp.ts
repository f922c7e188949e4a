/**
 * A scripted MCP server as a fixture route: a session id from `initialize`, 202 for notifications,
 * `tools/list` in pages (each page named by the cursor that leads to it), two tools (`add`, which
 * answers over SSE, and `fail`, which answers a JSON `isError` result), and DELETE.
 */
import type {Route, Seen} from './http-fixture.js';
import {event, json, result, sse, status} from './http-fixture.js';

export const SESSION_ID = 'tls-session-7f3a';

export const SERVER_INFO = {name: 'scripted-http', version: '3.1.4'};

export interface Page {
    tools: unknown[];
    nextCursor?: string;
}

export const tool = (name: string, inputSchema: unknown = {type: 'object'}) => ({name, inputSchema});

export const ADD = tool('add', {
    type: 'object',
    properties: {a: {type: 'number'}, b: {type: 'number'}},
    required: ['a', 'b'],
    additionalProperties: false,
});

/** Two pages, the second reached by cursor `page-2`. */
export const TWO_PAGES: Page[] = [{tools: [ADD], nextCursor: 'page-2'}, {tools: [tool('fail')]}];

/** Serves `pages` (the first for no cursor, then one per `nextCursor`, in order). */
export function scripted(pages: readonly Page[]): Route {
    return (seen: Seen, res) => {
        if (seen.method === 'DELETE') return status(res, 204);
        if (seen.method === 'GET') return status(res, 405);
        const message = seen.json as {id?: unknown; method?: string; params?: Record<string, unknown>};
        if (message.id === undefined) return status(res, 202);
        switch (message.method) {
            case 'initialize':
                return json(
                    res,
                    result(seen, {
                        protocolVersion: '2025-11-25',
                        capabilities: {tools: {listChanged: false}},
                        serverInfo: SERVER_INFO,
                        instructions: 'Add numbers; fail on demand.',
                    }),
                    {'mcp-session-id': SESSION_ID},
                );
            case 'tools/list': {
                const cursor = message.params?.cursor;
                const index =
                    cursor === undefined
                        ? 0
                        : pages.findIndex((_page, i) => i > 0 && pages[i - 1]?.nextCursor === cursor);
                const page = pages[index];
                if (page === undefined) {
                    return json(res, {
                        jsonrpc: '2.0',
                        id: message.id,
                        error: {code: -32602, message: 'bad cursor'},
                    });
                }
                return json(res, result(seen, page));
            }
            case 'tools/call': {
                const params = message.params as {name: string; arguments: {a: number; b: number}};
                if (params.name === 'add') {
                    const sum = params.arguments.a + params.arguments.b;
                    sse(res);
                    res.write('id: ev-1\ndata:\n\n');
                    event(
                        res,
                        result(seen, {
                            content: [{type: 'text', text: String(sum)}],
                            structuredContent: {sum},
                        }),
                        'ev-2',
                    );
                    res.end();
                    return;
                }
                return json(
                    res,
                    result(seen, {content: [{type: 'text', text: 'it failed, as asked'}], isError: true}),
                );
            }
            default:
                return json(res, {
                    jsonrpc: '2.0',
                    id: message.id,
                    error: {code: -32601, message: 'no such method'},
                });
        }
    };
}
