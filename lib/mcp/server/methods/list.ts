/** The answer shared by every list method: the complete list in one result, no pagination. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {resultRecord} from '../../../jsonrpc/records.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {SessionOutput} from '../output.js';
import type {MethodHandler} from './dispatch.js';

export function answerList(
    output: SessionOutput,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    json: string,
): void {
    if (params !== undefined && Object.hasOwn(params, 'cursor')) {
        fail(
            output,
            id,
            ErrorCode.InvalidParams,
            `${method} returns the complete list in one result and takes no "cursor"`,
        );
        return;
    }
    output.send(resultRecord(id, json));
}

/** A list method whose result each era serializes once (`Era#fixed`). */
export type FixedListMethod = 'tools/list' | 'resources/list' | 'resources/templates/list';

/** The handler of `method`: its era's fixed result, or `-32602` for a cursor. */
export function listMethod(method: FixedListMethod): MethodHandler {
    return (session, id, params, era) => answerList(session.output, id, method, params, era.fixed[method]);
}
