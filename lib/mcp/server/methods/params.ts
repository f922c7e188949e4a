/** Checks of a request's params that several methods share. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {SessionOutput} from '../output.js';

/**
 * True when `params[key]` is a string; otherwise answers `-32602` with `problem` (what the method
 * needs, as "tools/call needs "params.name", the tool name as a string") and returns false.
 */
export function hasStringParam<Key extends string>(
    output: SessionOutput,
    id: RequestId,
    params: JsonObject | undefined,
    key: Key,
    problem: string,
): params is JsonObject & {[name in Key]: string} {
    if (params !== undefined && typeof params[key] === 'string') return true;
    fail(output, id, ErrorCode.InvalidParams, problem);
    return false;
}
