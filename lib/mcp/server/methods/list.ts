/** The answer shared by every list method: the complete list in one result, no pagination. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {resultRecord} from '../../../jsonrpc/records.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {SessionOutput} from '../output.js';

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
