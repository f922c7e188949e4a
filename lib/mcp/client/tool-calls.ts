/**
 * `tools/call` and `resources/read`: the two requests most calls are. Each checks its arguments
 * at the call site, sends one request with the caller's options, and checks the answer for the
 * member the caller relies on; the answer is otherwise returned exactly as it arrived.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {checkString} from '../../util/options.js';
import type {CallToolResult, ReadResourceResult} from '../protocol/types.js';
import {McpProtocolViolationError} from './errors.js';
import type {CallToolOptions, RequestOptions} from './options.js';
import {checkRequestOptions} from './options.js';
import type {Requests} from './requests.js';

export function callTool(
    requests: Requests,
    timeoutMs: number,
    name: string,
    args: JsonObject | undefined,
    options: CallToolOptions | undefined,
): Promise<CallToolResult> {
    checkString('client.callTool', 'the tool name', name);
    if (args !== undefined && !isObject(args)) {
        throw new TypeError(`client.callTool: args must be an object of arguments, got ${describe(args)}`);
    }
    checkSerializable(args);
    const checked = checkRequestOptions('client.callTool', options, timeoutMs, true);
    const params = {name, arguments: args ?? {}};
    return requests.request('tools/call', params, {...checked, cancellable: true}).then((result) => {
        if (!isObject(result) || !Array.isArray(result.content)) {
            throw new McpProtocolViolationError(
                `The MCP server's tools/call result for ${JSON.stringify(name)} is not an object with a "content" array`,
            );
        }
        return result as CallToolResult;
    });
}

export function readResource(
    requests: Requests,
    timeoutMs: number,
    uri: string,
    options: RequestOptions | undefined,
): Promise<ReadResourceResult> {
    checkString('client.readResource', 'the uri', uri);
    const checked = checkRequestOptions('client.readResource', options, timeoutMs, false);
    return requests.request('resources/read', {uri}, {...checked, cancellable: true}).then((result) => {
        if (!isObject(result) || !Array.isArray(result.contents)) {
            throw new McpProtocolViolationError(
                `The MCP server's resources/read result for ${JSON.stringify(uri)} is not an object with a "contents" array`,
            );
        }
        return result as ReadResourceResult;
    });
}

function checkSerializable(args: JsonObject | undefined): void {
    try {
        if (args !== undefined) JSON.stringify(args);
    } catch (error) {
        throw new TypeError(
            `client.callTool: args cannot be serialized as JSON (${(error as Error).message}); pass JSON values only`,
            {cause: error},
        );
    }
}
