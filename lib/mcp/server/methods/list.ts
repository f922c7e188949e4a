/** The answer shared by every list method: the complete list in one result, no pagination. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {resultRecord} from '../../../jsonrpc/records.js';
import {ErrorCode} from '../errors.js';
import type {Wire} from '../outcome.js';
import {fail} from '../outcome.js';

export function answerList(
    wire: Wire,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    json: string,
): void {
    if (params !== undefined && Object.hasOwn(params, 'cursor')) {
        fail(
            wire,
            id,
            ErrorCode.InvalidParams,
            `${method} returns the complete list in one result and takes no "cursor"`,
        );
        return;
    }
    wire.send(resultRecord(id, json));
}
