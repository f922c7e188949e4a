/**
 * What every 2026-07-28 request carries: the revision, the client's capabilities and identity in
 * `_meta`, and over HTTP the mirrored headers. It also keeps, per tool, the `x-mcp-header`
 * parameters learned from `listTools()`, so that a call carries them.
 */
import {isObject} from '../../jsonrpc/records.js';
import {CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY} from '../protocol/meta.js';
import type {Implementation, JsonObject, ToolDescriptor} from '../protocol/types.js';
import {MODERN_PROTOCOL_VERSION} from '../protocol/versions.js';
import type {HeaderParam} from './http-modern.js';
import {headerParams, paramHeaders, standardHeaders} from './http-modern.js';

export interface Decorated {
    params: JsonObject;
    headers: Record<string, string> | undefined;
}

export class ModernEnvelope {
    readonly #meta: JsonObject;
    readonly #overHttp: boolean;
    readonly #toolHeaders = new Map<string, readonly HeaderParam[]>();

    constructor(clientInfo: Implementation, capabilities: JsonObject, overHttp: boolean) {
        this.#meta = {
            [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION,
            [CLIENT_CAPABILITIES_KEY]: capabilities,
            [CLIENT_INFO_KEY]: clientInfo,
        };
        this.#overHttp = overHttp;
    }

    /** `params` with the envelope in `_meta` (the caller's own `_meta` entries kept), and its headers. */
    decorate(method: string, params: JsonObject): Decorated {
        const own = isObject(params._meta) ? params._meta : {};
        const sent: JsonObject = {...params, _meta: {...own, ...this.#meta}};
        if (!this.#overHttp) return {params: sent, headers: undefined};
        const headers = standardHeaders(method, params);
        if (method === 'tools/call' && typeof params.name === 'string') {
            const annotated = this.#toolHeaders.get(params.name);
            if (annotated !== undefined) Object.assign(headers, paramHeaders(annotated, params.arguments));
        }
        return {params: sent, headers};
    }

    /**
     * Over HTTP, the tools whose `x-mcp-header` annotations are valid, each remembered for its
     * calls; a tool with invalid ones is left out with a process warning naming it and why.
     * Other transports may ignore the annotations, and this client does.
     */
    admitTools(tools: ToolDescriptor[]): ToolDescriptor[] {
        if (!this.#overHttp) return tools;
        this.#toolHeaders.clear();
        return tools.filter((tool) => {
            const found = headerParams(tool.inputSchema);
            if (typeof found === 'string') {
                process.emitWarning(
                    `The MCP server's tool ${JSON.stringify(tool.name)} is left out of listTools(): ${found}`,
                    {code: 'MCP_INVALID_TOOL_HEADER'},
                );
                return false;
            }
            if (found.length > 0) this.#toolHeaders.set(tool.name, found);
            return true;
        });
    }
}
