/** Shared pieces of the HTTP handler tests: a catalog, request builders and an SSE reader. */

import type {HandlerContext, McpHttpHandlerOptions, McpTool} from '../../../lib/mcp/http/index.js';
import {createMcpHttpHandler} from '../../../lib/mcp/http/index.js';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
export const ENDPOINT = 'http://127.0.0.1/mcp';
export const SERVER_INFO = {name: 'http-test', version: '1.0.0'};
export const META = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
};
export const SERVER_META = `"_meta":{"io.modelcontextprotocol/serverInfo":${JSON.stringify(SERVER_INFO)}}`;

/** A handler promise the test settles, and the contexts its calls got. */
export class Gate {
    readonly contexts: HandlerContext[] = [];
    #release: ((value: unknown) => void)[] = [];
    #started: (() => void)[] = [];

    /** Resolves once `count` calls have started. */
    started(count: number): Promise<void> {
        if (this.contexts.length >= count) return Promise.resolve();
        return new Promise((resolve) => this.#started.push(() => this.contexts.length >= count && resolve()));
    }

    run(context: HandlerContext): Promise<unknown> {
        this.contexts.push(context);
        for (const check of this.#started) check();
        return new Promise((resolve, reject) => {
            this.#release.push(resolve);
            context.signal.addEventListener('abort', () => reject(context.signal.reason), {once: true});
        });
    }

    release(index: number, value: unknown): void {
        this.#release[index]?.(value);
    }
}

export const text = (value: string) => ({content: [{type: 'text' as const, text: value}]});

export function tools(gate: Gate): McpTool[] {
    return [
        {
            name: 'echo',
            inputSchema: {
                type: 'object',
                properties: {
                    region: {type: 'string', 'x-mcp-header': 'Region'},
                    count: {type: 'integer', 'x-mcp-header': 'Count'},
                    on: {type: 'boolean', 'x-mcp-header': 'On'},
                    nested: {type: 'object', properties: {zone: {type: 'string', 'x-mcp-header': 'Zone'}}},
                },
            },
            handler: (args) => text(JSON.stringify(args)),
        },
        {
            name: 'wait',
            inputSchema: {type: 'object'},
            handler: (_args, context) => gate.run(context) as never,
        },
        {
            name: 'burst',
            inputSchema: {type: 'object'},
            handler: async (_args, context) => {
                for (let progress = 1; progress <= 100; progress += 1) context.reportProgress({progress});
                return gate.run(context) as never;
            },
        },
        {
            name: 'steps',
            inputSchema: {type: 'object'},
            handler: async (_args, context) => {
                context.reportProgress({progress: 1, total: 2});
                return gate.run(context) as never;
            },
        },
    ];
}

export function makeHandler(gate = new Gate(), options: Partial<McpHttpHandlerOptions> = {}) {
    const diagnostics: string[] = [];
    const handler = createMcpHttpHandler({
        serverInfo: SERVER_INFO,
        protocolVersions: [MODERN, LEGACY],
        tools: tools(gate),
        resources: [{uri: 'mem://a', name: 'a', handler: () => ({contents: [{uri: 'mem://a', text: 'A'}]})}],
        onDiagnostic: (line) => void diagnostics.push(line),
        ...options,
    });
    return {handler, gate, diagnostics};
}

export type Headers = Record<string, string>;

/** A POST of `body` (serialized unless a string) with JSON content type and both Accept types. */
export function post(body: unknown, headers: Headers = {}, init: RequestInit = {}): Request {
    return new Request(ENDPOINT, {
        method: 'POST',
        headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
        },
        body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
        ...init,
    });
}

/** A modern request with the envelope, and its mirrored standard headers. */
export function modern(
    id: number | string,
    method: string,
    params: Record<string, unknown> = {},
    headers: Headers = {},
    init: RequestInit = {},
): Request {
    const named = (params.name ?? params.uri) as string | undefined;
    return post(
        {jsonrpc: '2.0', id, method, params: {...params, _meta: {...META, ...(params._meta as object)}}},
        {
            'mcp-protocol-version': MODERN,
            'mcp-method': method,
            ...(named === undefined ? {} : {'mcp-name': named}),
            ...headers,
        },
        init,
    );
}

export const initializeBody = (id: number | string = 0) => ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {protocolVersion: LEGACY, capabilities: {}, clientInfo: {name: 'test', version: '1'}},
});

/** Status, content type and body text of a response. */
export async function read(response: Response): Promise<[number, string | null, string]> {
    return [response.status, response.headers.get('content-type'), await response.text()];
}

export function errorBody(id: number | string | undefined, code: number, message: string): string {
    const error = JSON.stringify({code, message});
    return id === undefined
        ? `{"jsonrpc":"2.0","error":${error}}\n`
        : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${error}}\n`;
}

/**
 * Reads SSE events one at a time, straight from the body's own reader, so that cancelling it is
 * immediate. Each event comes without its blank line, or with it under `{whole: true}`.
 */
export function events(response: Response, {whole = false}: {whole?: boolean} = {}) {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    return {
        async next(): Promise<string | undefined> {
            for (;;) {
                const end = buffer.indexOf('\n\n');
                if (end >= 0) {
                    const event = buffer.slice(0, whole ? end + 2 : end);
                    buffer = buffer.slice(end + 2);
                    return event;
                }
                const {done, value} = await reader.read();
                if (done) return undefined;
                buffer += decoder.decode(value, {stream: true});
            }
        },
        cancel: (reason?: unknown) => reader.cancel(reason),
    };
}

export type {HandlerContext};
