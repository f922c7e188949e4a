/** `tools/list` and `tools/call`, in both eras. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {isObject} from '../../../jsonrpc/records.js';
import type {ClientData} from '../call.js';
import {Call} from '../call.js';
import type {Era} from '../era.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {HandlerContext} from '../types.js';
import type {Dispatch} from './dispatch.js';
import {answerList} from './list.js';

export function toolsList(session: Dispatch, id: RequestId, params: JsonObject | undefined, era: Era): void {
    answerList(session.output, id, 'tools/list', params, era.fixed['tools/list']);
}

export function toolsCall(
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    era: Era,
    client: ClientData,
): void {
    const name = params?.name;
    if (params === undefined || typeof name !== 'string') {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            'tools/call needs "params.name", the tool name as a string',
        );
        return;
    }
    const handler = session.catalog.tools.get(name);
    if (handler === undefined) {
        fail(session.output, id, ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name)}`);
        return;
    }
    let args = params.arguments;
    if (args === undefined) {
        args = {};
    } else if (!isObject(args)) {
        fail(session.output, id, ErrorCode.InvalidParams, 'tools/call "params.arguments" must be an object');
        return;
    }
    const call = new Call(id, 'tools/call', params, name, era, client, session.calls);
    session.calls.run(call, () => handler(args as JsonObject, call.context as HandlerContext<'tools/call'>));
}
