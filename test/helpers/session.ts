/** Shorthands the session tests share: a text result, a server whose handlers wait, a tool call. */

import {settlement} from '../../lib/mcp/server/call.js';
import type {HandlerContext, McpTool} from '../../lib/mcp/stdio/index.js';
import {Gate} from './deferred.js';
import type {Harness} from './streams.js';
import {harness} from './streams.js';
import {text, tool} from './tools.js';

export {text, tool};

/**
 * A server with a tool `slow` and a resource `slow://r` whose handlers wait until the test settles
 * them through `gate`.
 */
export function slowServer(name = 'slow-server'): {gate: Gate<HandlerContext>; h: Harness} {
    const gate = new Gate<HandlerContext>();
    const h = harness({
        serverInfo: {name, version: '1.0.0'},
        tools: [tool('slow', gate.handler as McpTool['handler'])],
        resources: [{uri: 'slow://r', name: 'r', handler: gate.handler as never}],
    });
    return {gate, h};
}

/** Sends a `tools/call` of `name` (default `slow`) with this id. */
export function call(h: Harness, id: string | number, name = 'slow'): void {
    h.send({jsonrpc: '2.0', id, method: 'tools/call', params: {name}});
}

/**
 * Resolves when the call with this id has settled and waits for its turn-end answer. Register it
 * before settling the handler: it observes the session's settlement, not a count of microtasks.
 */
export function whenSettled(id: string | number): Promise<void> {
    return new Promise((resolve) => {
        const previous = settlement.observe;
        settlement.observe = (settled) => {
            previous?.(settled);
            if (settled !== id) return;
            settlement.observe = previous;
            resolve();
        };
    });
}
