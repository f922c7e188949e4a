/** `resources/list`, `resources/read` and `resources/templates/list`, in both eras. */
import {Call} from '../call.js';
import {fail} from '../failures.js';
import type {MethodHandler} from './dispatch.js';
import {listMethod} from './list.js';
import {hasStringParam} from './params.js';
import {readTemplated} from './templates.js';

export const resourcesList = listMethod('resources/list');

export const resourceTemplatesList = listMethod('resources/templates/list');

const NEEDS_URI = 'resources/read needs "params.uri", the resource URI as a string';

export const readResource: MethodHandler = (session, id, params, era, client) => {
    if (!hasStringParam(session.output, id, params, 'uri', NEEDS_URI)) return;
    const {uri} = params;
    const handler = session.catalog.resources.get(uri);
    if (handler === undefined) {
        if (readTemplated(session, id, params, uri, era, client)) return;
        fail(session.output, id, era.resourceNotFound, `Resource not found: ${uri}`, {uri});
        return;
    }
    const call = new Call(id, 'resources/read', params, uri, era, client, session.calls);
    session.calls.run(call, handler, params);
};
