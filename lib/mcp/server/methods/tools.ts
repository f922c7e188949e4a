/** `tools/list` and `tools/call`, in both eras. */
import type {JsonObject} from '../../../jsonrpc/records.js';
import {isObject} from '../../../jsonrpc/records.js';
import {Call} from '../call.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {MethodHandler} from './dispatch.js';
import {listMethod} from './list.js';
import {hasStringParam} from './params.js';

export const toolsList = listMethod('tools/list');

const NEEDS_NAME = 'tools/call needs "params.name", the tool name as a string';

export const toolsCall: MethodHandler = (session, id, params, era, client) => {
    if (!hasStringParam(session.output, id, params, 'name', NEEDS_NAME)) return;
    const handler = session.catalog.tools.get(params.name);
    if (handler === undefined) {
        fail(session.output, id, ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(params.name)}`);
        return;
    }
    let args = params.arguments;
    if (args === undefined) {
        args = {};
    } else if (!isObject(args)) {
        fail(session.output, id, ErrorCode.InvalidParams, 'tools/call "params.arguments" must be an object');
        return;
    }
    const call = new Call(id, 'tools/call', params, params.name, era, client, session.calls);
    session.calls.run(call, handler, args as JsonObject);
};
