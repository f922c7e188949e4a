/**
 * The request headers of 2026-07-28 over Streamable HTTP: `Mcp-Method`, `Mcp-Name`, and the
 * `Mcp-Param-*` headers a tool's `x-mcp-header` annotations ask for, with the Base64 sentinel
 * form for values a header cannot carry as they are.
 */
import {isObject} from '../../jsonrpc/records.js';
import type {JsonObject} from '../protocol/types.js';

/** One annotated parameter: the header name part and the chain of `properties` keys to its value. */
export interface HeaderParam {
    name: string;
    path: readonly string[];
}

/** The methods whose `params.name` or `params.uri` is mirrored into `Mcp-Name`. */
const NAMED: Readonly<Record<string, string>> = {
    'tools/call': 'name',
    'resources/read': 'uri',
    'prompts/get': 'name',
};

/** RFC 9110 `tchar`, one or more. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Keywords whose values are data, not subschemas: an annotation-looking key inside them is not one. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples']);
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** A value as a header carries it: as it is when it is plain visible ASCII, else the Base64 sentinel form. */
export function headerValue(value: string): string {
    const plain =
        /^[\x20-\x7e]*$/.test(value) &&
        !/^[ ]|[ ]$/.test(value) &&
        !(value.startsWith('=?base64?') && value.endsWith('?='));
    return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** `Mcp-Method`, and `Mcp-Name` where the method has one. */
export function standardHeaders(method: string, params: JsonObject): Record<string, string> {
    const headers: Record<string, string> = {'mcp-method': method};
    const key = NAMED[method];
    const name = key === undefined ? undefined : params[key];
    if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
    return headers;
}

/**
 * The annotated parameters of a tool's `inputSchema`, or the reason its annotations are invalid:
 * every `x-mcp-header` must sit on a primitive property reached from the root through
 * `properties` only, be a token, and be unique regardless of case.
 */
export function headerParams(inputSchema: unknown): HeaderParam[] | string {
    const found: HeaderParam[] = [];
    const problem = walk(inputSchema, [], found);
    if (problem !== undefined) return problem;
    const seen = new Set<string>();
    for (const param of found) {
        const folded = param.name.toLowerCase();
        if (seen.has(folded)) return `x-mcp-header ${JSON.stringify(param.name)} is given more than once`;
        seen.add(folded);
    }
    return found;
}

/** `path` is the `properties` chain to `node`, or undefined once the chain left `properties`. */
function walk(node: unknown, path: string[] | undefined, found: HeaderParam[]): string | undefined {
    if (Array.isArray(node)) {
        for (const item of node) {
            const problem = walk(item, undefined, found);
            if (problem !== undefined) return problem;
        }
        return undefined;
    }
    if (!isObject(node)) return undefined;
    if (Object.hasOwn(node, 'x-mcp-header')) {
        const name = node['x-mcp-header'];
        const where =
            path === undefined ? 'outside a chain of "properties"' : `at ${path.join('.') || 'the root'}`;
        if (path === undefined || path.length === 0) return `x-mcp-header is ${where}`;
        if (typeof name !== 'string' || !TOKEN.test(name)) {
            return `x-mcp-header ${where} is not an HTTP token: ${JSON.stringify(name)}`;
        }
        if (typeof node.type !== 'string' || !HEADER_TYPES.has(node.type)) {
            return `x-mcp-header ${JSON.stringify(name)} is on a property whose type is not string, integer or boolean`;
        }
        found.push({name, path});
    }
    for (const [key, value] of Object.entries(node)) {
        if (key === 'x-mcp-header' || DATA_KEYWORDS.has(key)) continue;
        if (key === 'properties' && path !== undefined && isObject(value)) {
            for (const [property, schema] of Object.entries(value)) {
                const problem = walk(schema, [...path, property], found);
                if (problem !== undefined) return problem;
            }
            continue;
        }
        const problem = walk(value, undefined, found);
        if (problem !== undefined) return problem;
    }
    return undefined;
}

/** The `Mcp-Param-*` headers of one call: a parameter absent or `null` in `args` gets none. */
export function paramHeaders(params: readonly HeaderParam[], args: unknown): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const {name, path} of params) {
        let value: unknown = args;
        for (const key of path) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
        let text: string | undefined;
        if (typeof value === 'string') text = value;
        else if (typeof value === 'boolean') text = value ? 'true' : 'false';
        else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
        if (text !== undefined) headers[`mcp-param-${name.toLowerCase()}`] = headerValue(text);
    }
    return headers;
}
