/** Raw-wire shorthands for the prompt, template, completion and logging tests: exact lines per era. */
import type {McpStdioServerOptions} from '../../lib/mcp/stdio/index.js';
import type {Harness} from './streams.js';
import {harness} from './streams.js';

export const SERVER_INFO = {name: 'surface-test', version: '1.0.0'};
/** The server identity every 2026-07-28 result carries. */
export const IDENTITY =
    '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"surface-test","version":"1.0.0"}}';
/** The start of every 2026-07-28 result. */
export const HEAD = `{"resultType":"complete",${IDENTITY},`;
export const LIST_TAIL = ',"ttlMs":300000,"cacheScope":"public"}';
export const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
};

/** A dual-era server with `extra` options. */
export function serve(extra: Partial<McpStdioServerOptions>): Harness {
    return harness({serverInfo: SERVER_INFO, protocolVersions: ['2026-07-28', '2025-11-25'], ...extra});
}

/** Every complete output line so far, as exact text. */
export function lines(h: Harness): string[] {
    return h.output.text.split('\n').slice(0, -1);
}

/** Sends `message` and returns the lines it caused, up to and including the `count`-th. */
export async function exchange(h: Harness, message: object, count = 1): Promise<string[]> {
    const before = h.output.lineCount;
    h.send(message);
    await h.output.waitForLines(before + count);
    return lines(h).slice(before);
}

/** Sends a legacy request and returns its single answer line. */
export async function legacy(
    h: Harness,
    id: number | string,
    method: string,
    params?: object,
): Promise<string> {
    const message =
        params === undefined ? {jsonrpc: '2.0', id, method} : {jsonrpc: '2.0', id, method, params};
    return (await exchange(h, message))[0] as string;
}

/** Sends a request with the 2026-07-28 envelope (plus `meta`) and returns its single answer line. */
export async function modern(
    h: Harness,
    id: number | string,
    method: string,
    params: object = {},
    meta: object = {},
): Promise<string> {
    const message = {jsonrpc: '2.0', id, method, params: {...params, _meta: {...META, ...meta}}};
    return (await exchange(h, message))[0] as string;
}

/** The exact error line. */
export function errorLine(id: number | string, code: number, message: string, data?: unknown): string {
    const error = data === undefined ? {code, message} : {code, message, data};
    return JSON.stringify({jsonrpc: '2.0', id, error});
}

/** The exact legacy result line of `result`. */
export function resultLine(id: number | string, result: unknown): string {
    return JSON.stringify({jsonrpc: '2.0', id, result});
}

/** The exact 2026-07-28 result line: the result's fields after the head, `tail` appended. */
export function modernLine(id: number | string, result: object, tail = '}'): string {
    const body = JSON.stringify(result).slice(1, -1);
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${HEAD}${body}${tail}}`;
}

export async function end(h: Harness): Promise<void> {
    h.input.push(null);
    await h.server.closed;
}
