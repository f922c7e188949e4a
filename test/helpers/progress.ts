/** Shorthands the progress tests share: a server with one tool, calls with a token, exact lines. */
import type {McpStdioServerOptions, ToolHandler} from '../../lib/mcp/stdio/index.js';
import type {Harness} from './streams.js';
import {finish, harness, lines} from './streams.js';
import {tool} from './tools.js';

export {finish, lines};

export const serverInfo = {name: 'progress-test', version: '1.0.0'};

/** A server whose tool `work` runs `handler`, with any other options given. */
export function workServer(handler: ToolHandler, options: Partial<McpStdioServerOptions> = {}): Harness {
    return harness({serverInfo, tools: [tool('work', handler)], ...options});
}

/** Sends a legacy `tools/call` of `work` whose `params._meta` is `meta` (none when undefined). */
export function callWork(h: Harness, id: string | number, meta?: Record<string, unknown>): void {
    const params = meta === undefined ? {name: 'work'} : {name: 'work', _meta: meta};
    h.send({jsonrpc: '2.0', id, method: 'tools/call', params});
}

/** The exact line of one progress notification. */
export function progressLine(
    token: string | number,
    progress: number,
    total?: number,
    message?: string,
): string {
    const params: Record<string, unknown> = {progressToken: token, progress};
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return JSON.stringify({jsonrpc: '2.0', method: 'notifications/progress', params});
}

/** The exact line of a legacy text result. */
export function resultLine(id: string | number, value: string): string {
    return JSON.stringify({jsonrpc: '2.0', id, result: {content: [{type: 'text', text: value}]}});
}

/** Every line after the initialize response. */
export function afterInit(h: Harness): string[] {
    return lines(h).slice(1);
}
