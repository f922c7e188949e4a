/** `logging/setLevel` (revisions before 2026-07-28), served only with the `logging` option. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {resultRecord} from '../../../jsonrpc/records.js';
import {describe} from '../../../util/describe.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import {LOGGING_LEVELS, levelRank} from '../logging.js';
import type {Dispatch} from './dispatch.js';

export function setLevel(session: Dispatch, id: RequestId, params: JsonObject | undefined): void {
    const rank = levelRank(params?.level);
    if (rank === -1) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `logging/setLevel needs "params.level" to be one of ${LOGGING_LEVELS.join(', ')}, got ${describe(params?.level)}`,
        );
        return;
    }
    session.setLogLevel(rank);
    session.output.send(resultRecord(id, '{}'));
}
