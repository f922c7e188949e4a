/** `resources/list`, `resources/read` and the empty `resources/templates/list`, in both eras. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import type {ClientData} from '../call.js';
import {Call} from '../call.js';
import type {Era} from '../era.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {HandlerContext} from '../types.js';
import type {Dispatch} from './dispatch.js';
import {answerList} from './list.js';

export function resourcesList(
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    era: Era,
): void {
    answerList(session.output, id, 'resources/list', params, era.fixed['resources/list']);
}

export function resourceTemplatesList(
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    era: Era,
): void {
    answerList(session.output, id, 'resources/templates/list', params, era.fixed['resources/templates/list']);
}

export function readResource(
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    era: Era,
    client: ClientData,
): void {
    const uri = params?.uri;
    if (params === undefined || typeof uri !== 'string') {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            'resources/read needs "params.uri", the resource URI as a string',
        );
        return;
    }
    const handler = session.catalog.resources.get(uri);
    if (handler === undefined) {
        fail(session.output, id, era.resourceNotFound, `Resource not found: ${uri}`, {uri});
        return;
    }
    const call = new Call(id, 'resources/read', params, uri, era, client, session.calls);
    session.calls.run(call, () =>
        handler(params as {uri: string}, call.context as HandlerContext<'resources/read'>),
    );
}
