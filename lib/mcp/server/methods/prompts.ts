/** `prompts/list` and `prompts/get`, in both eras, served only when the catalog has prompts. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {isObject} from '../../../jsonrpc/records.js';
import {Call} from '../call.js';
import type {Era} from '../era.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {Dispatch, MethodHandler} from './dispatch.js';
import {answerList} from './list.js';

export function promptsList(
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    era: Era,
): void {
    answerList(session.output, id, 'prompts/list', params, era.fixed['prompts/list']);
}

export const promptsGet: MethodHandler = (session, id, params, era, client) => {
    const name = params?.name;
    if (params === undefined || typeof name !== 'string') {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            'prompts/get needs "params.name", the prompt name as a string',
        );
        return;
    }
    const prompt = session.catalog.prompts.get(name);
    if (prompt === undefined) {
        fail(session.output, id, ErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(name)}`);
        return;
    }
    const given = params.arguments === undefined ? {} : params.arguments;
    if (!isObject(given)) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            'prompts/get "params.arguments" must be an object of string values',
        );
        return;
    }
    for (const [key, value] of Object.entries(given)) {
        if (typeof value !== 'string') {
            fail(
                session.output,
                id,
                ErrorCode.InvalidParams,
                `prompts/get of prompt ${JSON.stringify(name)}: argument ${JSON.stringify(key)} must be a string`,
            );
            return;
        }
    }
    const missing = prompt.required.filter((argument) => !Object.hasOwn(given, argument));
    if (missing.length > 0) {
        const list = missing.map((argument) => JSON.stringify(argument)).join(', ');
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `prompts/get of prompt ${JSON.stringify(name)} is missing the required argument${missing.length > 1 ? 's' : ''} ${list}`,
        );
        return;
    }
    const args = given as Record<string, string>;
    const call = new Call(id, 'prompts/get', params, name, era, client, session.calls);
    session.calls.run(call, prompt.handler, args);
};
