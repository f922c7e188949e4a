/**
 * Listing every page: `tools/list`, `resources/list`, `resources/templates/list` and
 * `prompts/list` are followed through `nextCursor` until it is absent, refusing what would make the
 * listing endless or ambiguous.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {McpProtocolViolationError, McpTimeoutError} from './errors.js';
import type {CheckedRequestOptions} from './options.js';
import type {Requests} from './requests.js';

/** The member of a list result that holds its entries. */
export type ListKey = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/**
 * Follows `nextCursor` until it is absent (`null` is read as absent). `timeoutMs` bounds the
 * whole listing, every page together, so a server cannot keep it going forever.
 */
export async function listAll(
    requests: Requests,
    method: string,
    key: ListKey,
    options: CheckedRequestOptions,
): Promise<JsonObject[]> {
    const started = performance.now();
    const items: JsonObject[] = [];
    const names = new Map<string, number>();
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; ; page += 1) {
        const elapsedMs = performance.now() - started;
        if (elapsedMs >= options.timeoutMs) throw new McpTimeoutError(method, options.timeoutMs);
        const params: JsonObject = cursor === undefined ? {} : {cursor};
        const result = await requests.request(method, params, {
            signal: options.signal,
            timeoutMs: options.timeoutMs,
            elapsedMs,
            cancellable: true,
        });
        const where = `The MCP server's ${method} result (page ${page})`;
        if (!isObject(result) || !Array.isArray(result[key])) {
            throw new McpProtocolViolationError(`${where} is not an object with a "${key}" array`);
        }
        for (const [index, entry] of (result[key] as unknown[]).entries()) {
            items.push(checkEntry(where, key, index, entry, page, names));
        }
        const next = result.nextCursor;
        if (next === undefined || next === null) return items;
        if (typeof next !== 'string') {
            throw new McpProtocolViolationError(
                `${where} has a "nextCursor" that is not a string: ${describe(next)}`,
            );
        }
        if (cursors.has(next)) {
            throw new McpProtocolViolationError(
                `${where} repeats the cursor ${JSON.stringify(next.slice(0, 200))}, which an earlier page already gave; ` +
                    'following it would list the same pages forever',
            );
        }
        cursors.add(next);
        cursor = next;
    }
}

/**
 * A tool needs a name (unique over every page) and an `inputSchema` object; a prompt a unique
 * name; a resource a `uri`; a template a `uriTemplate`.
 */
function checkEntry(
    where: string,
    key: ListKey,
    index: number,
    entry: unknown,
    page: number,
    names: Map<string, number>,
): JsonObject {
    const at = `${where} ${key}[${index}]`;
    if (!isObject(entry)) throw new McpProtocolViolationError(`${at} is not an object`);
    if (key === 'resources') {
        if (typeof entry.uri !== 'string') throw new McpProtocolViolationError(`${at} has no "uri" string`);
        return entry;
    }
    if (key === 'resourceTemplates') {
        if (typeof entry.uriTemplate !== 'string') {
            throw new McpProtocolViolationError(`${at} has no "uriTemplate" string`);
        }
        return entry;
    }
    const name = entry.name;
    if (typeof name !== 'string' || name === '') {
        throw new McpProtocolViolationError(`${at} has no "name" string`);
    }
    if (key === 'tools' && !isObject(entry.inputSchema)) {
        throw new McpProtocolViolationError(`${at} (${JSON.stringify(name)}) has no "inputSchema" object`);
    }
    const first = names.get(name);
    const kind = key === 'tools' ? 'tool' : 'prompt';
    if (first !== undefined) {
        throw new McpProtocolViolationError(
            `${at} repeats the ${kind} name ${JSON.stringify(name)}, already listed on page ${first}; ` +
                `${kind} names must be unique, so a ${key === 'tools' ? 'call' : 'get'} by that name would be ambiguous`,
        );
    }
    names.set(name, page);
    return entry;
}
