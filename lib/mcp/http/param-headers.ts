/**
 * The request headers that mirror body values in 2026-07-28: the Base64 sentinel form, the
 * `x-mcp-header` annotations of the tools' input schemas (`Mcp-Param-{name}`), and the comparison
 * of a header with its body value.
 */
import {isObject} from '../../jsonrpc/records.js';

/** One annotated parameter: its header (lower-cased), where it sits in the arguments, its type. */
export interface ParamHeader {
    readonly header: string;
    /** As the schema spells it, for messages: `Mcp-Param-Region`. */
    readonly shown: string;
    readonly path: readonly string[];
    readonly type: 'string' | 'integer' | 'boolean';
}

export type HeaderIndex = readonly ParamHeader[];

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a header value may carry unencoded. */
const PLAIN = /^[\t\x20-\x7e]*$/;
const UTF8 = new TextDecoder('utf-8', {fatal: true});

/** Each tool's annotated parameters; a malformed annotation is a programmer error. */
export function indexParamHeaders(toolsJson: string): Map<string, HeaderIndex> {
    const index = new Map<string, HeaderIndex>();
    for (const tool of JSON.parse(toolsJson) as {name: string; inputSchema: unknown}[]) {
        const found: ParamHeader[] = [];
        collect(tool.name, tool.inputSchema, [], found);
        refuseUnreachable(tool.name, tool.inputSchema, 'inputSchema', false, true);
        const seen = new Set<string>();
        for (const entry of found) {
            if (seen.has(entry.header)) {
                throw new TypeError(
                    `createMcpHttpHandler: tool ${JSON.stringify(tool.name)} repeats the x-mcp-header ` +
                        `${JSON.stringify(entry.header)}; each must be unique, case-insensitively`,
                );
            }
            seen.add(entry.header);
        }
        if (found.length > 0) index.set(tool.name, found);
    }
    return index;
}

function collect(tool: string, schema: unknown, path: string[], found: ParamHeader[]): void {
    if (!isObject(schema)) return;
    const name = schema['x-mcp-header'];
    if (name !== undefined && path.length > 0) {
        const type = schema.type;
        if (typeof name !== 'string' || !TOKEN.test(name)) {
            throw new TypeError(
                `createMcpHttpHandler: tool ${JSON.stringify(tool)} has an x-mcp-header at ${path.join('.')} ` +
                    `that is not an HTTP token (letters, digits and !#$%&'*+.^_\`|~-): ${JSON.stringify(name)}`,
            );
        }
        if (type !== 'string' && type !== 'integer' && type !== 'boolean') {
            throw new TypeError(
                `createMcpHttpHandler: tool ${JSON.stringify(tool)} puts x-mcp-header on ${path.join('.')}, ` +
                    `whose type is ${JSON.stringify(type)}; only string, integer and boolean parameters can be headers`,
            );
        }
        found.push({
            header: `mcp-param-${name.toLowerCase()}`,
            shown: `Mcp-Param-${name}`,
            path: [...path],
            type,
        });
    }
    const properties = schema.properties;
    if (!isObject(properties)) return;
    for (const [key, child] of Object.entries(properties)) collect(tool, child, [...path, key], found);
}

/** Keywords whose value is a schema, or an array or map of schemas, that `properties` chains do not pass. */
const SUBSCHEMA = new Set([
    'items',
    'additionalItems',
    'contains',
    'not',
    'if',
    'then',
    'else',
    'propertyNames',
]);
const SUBSCHEMAS = new Set(['prefixItems', 'oneOf', 'anyOf', 'allOf']);
const SCHEMA_MAPS = new Set(['$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
const AFTER_PROPERTIES = new Set(['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems']);

/**
 * An `x-mcp-header` reached other than through a chain of `properties` keys (under `items`,
 * `oneOf`, `$defs`…, or on the schema root) makes the whole tool invalid: clients leave it out of
 * `tools/list`, so the server refuses it here rather than serve a tool nobody can call.
 * `reachable`: this schema may carry one; `onChain`: reached through `properties` alone (the root
 * is, but is no parameter).
 */
function refuseUnreachable(
    tool: string,
    schema: unknown,
    where: string,
    reachable: boolean,
    onChain: boolean,
): void {
    if (!isObject(schema)) return;
    if (!reachable && schema['x-mcp-header'] !== undefined) {
        throw new TypeError(
            `createMcpHttpHandler: tool ${JSON.stringify(tool)} has an x-mcp-header at ${where}, which is not ` +
                'reached from the schema root through "properties" alone; put it on a property of such a chain',
        );
    }
    for (const [key, value] of Object.entries(schema)) {
        if (key === 'properties' && isObject(value)) {
            for (const [name, child] of Object.entries(value)) {
                refuseUnreachable(tool, child, `${where}.properties.${name}`, onChain, onChain);
            }
        } else if (SUBSCHEMA.has(key) || AFTER_PROPERTIES.has(key)) {
            refuseUnreachable(tool, value, `${where}.${key}`, false, false);
        } else if (SUBSCHEMAS.has(key) && Array.isArray(value)) {
            for (const [index, child] of value.entries()) {
                refuseUnreachable(tool, child, `${where}.${key}[${index}]`, false, false);
            }
        } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
            for (const [name, child] of Object.entries(value)) {
                refuseUnreachable(tool, child, `${where}.${key}.${name}`, false, false);
            }
        }
    }
}

/**
 * A header value as the client meant it: the Base64 sentinel form decoded, anything else as
 * given, surrounding whitespace trimmed. `undefined` for a value that is not a valid header value
 * or not valid Base64 of UTF-8 text.
 */
export function headerValue(raw: string): string | undefined {
    const value = raw.trim();
    if (!PLAIN.test(value)) return undefined;
    if (
        value.length < SENTINEL_START.length + SENTINEL_END.length ||
        !value.startsWith(SENTINEL_START) ||
        !value.endsWith(SENTINEL_END)
    ) {
        return value;
    }
    const encoded = value.slice(SENTINEL_START.length, -SENTINEL_END.length);
    if (!BASE64.test(encoded)) return undefined;
    try {
        return UTF8.decode(Buffer.from(encoded, 'base64'));
    } catch {
        return undefined;
    }
}

/** The argument at `path`, or undefined when any step is missing. */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
    let at = args;
    for (const key of path) {
        if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
        at = at[key];
    }
    return at;
}

/** Whether a decoded header value stands for the body value of a parameter of `type`. */
export function matches(value: string, body: unknown, type: ParamHeader['type']): boolean {
    if (type === 'boolean' || typeof body === 'boolean') return value === String(body);
    if (typeof body === 'number') {
        // Compared as numbers: "42.0" and 42 are the same integer.
        return /^-?\d+(?:\.0*)?$/.test(value) && Number(value) === body;
    }
    return value === body;
}
