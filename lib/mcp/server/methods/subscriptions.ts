/**
 * Resource subscriptions, served only when the server opts in with `subscriptions: true`:
 * `resources/subscribe` and `resources/unsubscribe` (legacy era) and `subscriptions/listen`
 * (2026-07-28). Without the option each is answered `-32601`, as before it existed. A request that
 * would take the session over `maxSubscriptions` is answered `-32602`: the request cannot be granted
 * as asked in the session's state, which the client can change, and the server has not failed.
 */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {isObject, resultRecord} from '../../../jsonrpc/records.js';
import type {Era} from '../era.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import {refuseUnknownMethod} from '../refusals.js';
import {Subscriptions} from '../subscriptions.js';
import type {Dispatch} from './dispatch.js';

/** The catalog serves `uri`: a static resource's, or one a resource template matches. */
function knows(session: Dispatch, uri: string): boolean {
    const catalog = session.catalog;
    return (
        catalog.resources.has(uri) ||
        catalog.templates.some((entry) => entry.template.match(uri) !== undefined)
    );
}

/** The `uri` of a subscribe request, or undefined once the request was answered with what is wrong. */
function subscribedUri(
    session: Dispatch,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
): string | undefined {
    if (!session.catalog.subscriptions) {
        refuseUnknownMethod(session.output, id, method);
        return undefined;
    }
    const uri = params?.uri;
    if (typeof uri !== 'string') {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `${method} needs "params.uri", the resource URI as a string`,
        );
        return undefined;
    }
    return uri;
}

export function resourcesSubscribe(session: Dispatch, id: RequestId, params: JsonObject | undefined): void {
    const uri = subscribedUri(session, id, 'resources/subscribe', params);
    if (uri === undefined) return;
    if (!knows(session, uri)) {
        fail(session.output, id, ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, {uri});
        return;
    }
    const limit = session.subscriptions.limit;
    if (!session.subscriptions.subscribe(uri)) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `resources/subscribe refused: this session already holds ${limit} subscriptions, its limit ` +
                '(maxSubscriptions); unsubscribe from a resource first, or have the server raise maxSubscriptions',
            {uri, maxSubscriptions: limit},
        );
        return;
    }
    session.output.send(resultRecord(id, '{}'));
}

export function resourcesUnsubscribe(session: Dispatch, id: RequestId, params: JsonObject | undefined): void {
    const uri = subscribedUri(session, id, 'resources/unsubscribe', params);
    if (uri === undefined) return;
    // Unsubscribing from what was never subscribed leaves things as asked: no error.
    session.subscriptions.unsubscribe(uri);
    session.output.send(resultRecord(id, '{}'));
}

export function subscriptionsListen(
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    _era: Era,
): void {
    if (!session.catalog.subscriptions) {
        refuseUnknownMethod(session.output, id, 'subscriptions/listen');
        return;
    }
    const filter = params?.notifications;
    const wanted = isObject(filter) ? (filter.resourceSubscriptions ?? []) : undefined;
    if (!Array.isArray(wanted) || !wanted.every((uri) => typeof uri === 'string')) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            'subscriptions/listen needs "params.notifications", an object whose "resourceSubscriptions", when given, is an array of URI strings',
        );
        return;
    }
    // The catalog never changes, so no list-changed filter is granted; of the URIs, those it has.
    const granted = [...new Set(wanted as string[])].filter((uri) => knows(session, uri));
    const {count, limit} = session.subscriptions;
    const slots = Subscriptions.slots(granted.length);
    if (count + slots > limit) {
        fail(
            session.output,
            id,
            ErrorCode.InvalidParams,
            `subscriptions/listen refused: its ${slots} subscriptions and the ${count} this session holds ` +
                `exceed its limit of ${limit} (maxSubscriptions); listen to fewer URIs or end another listen ` +
                'first, or have the server raise maxSubscriptions',
            {maxSubscriptions: limit},
        );
        return;
    }
    session.subscriptions.listen(id, granted);
}

/** The answer to a listen over HTTP while the handler has `limit` listen streams open. */
export function tooManyListensMessage(limit: number): string {
    return (
        `subscriptions/listen refused: this handler already has ${limit} open listen streams, its limit ` +
        '(maxSubscriptions); end one first, or have the server raise maxSubscriptions'
    );
}
