/**
 * What a `subscriptions/listen` asks for, in the client's own terms (resource URIs and list names,
 * as `onResourceUpdated` and `onListChanged` speak them), and the wire's `notifications` filter it
 * becomes. The server's acknowledgement is read back into the same terms; as untrusted input it is
 * checked, and one that grants what was never asked for is a protocol violation.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {checkKeys} from '../../util/options.js';
import type {ListName} from './notifications.js';

/** What one subscription asks for, or what the server agreed to deliver on it. */
export interface ListenFilter {
    /** Resource URIs whose `notifications/resources/updated` reach `onResourceUpdated`. */
    resources?: string[];
    /** Lists whose `notifications/<list>/list_changed` reach `onListChanged`. */
    lists?: ListName[];
}

/** A filter with both members present, duplicates removed, in the order first given. */
export type FullFilter = Required<ListenFilter>;

/** Each list name and the member of the wire filter that asks for it. */
const WIRE_FLAGS: Readonly<Record<ListName, string>> = {
    tools: 'toolsListChanged',
    resources: 'resourcesListChanged',
    prompts: 'promptsListChanged',
};

const LIST_NAMES = Object.keys(WIRE_FLAGS) as ListName[];

/** The caller's filter, checked; a wrong kind of value is a TypeError, a wrong value a RangeError. */
export function checkListenFilter(where: string, value: unknown): FullFilter {
    if (!isObject(value)) {
        throw new TypeError(
            `${where} needs a filter {resources?: string[], lists?: ('tools' | 'resources' | 'prompts')[]}, got ${describe(value)}`,
        );
    }
    checkKeys(where, value, ['resources', 'lists']);
    const {resources = [], lists = []} = value as ListenFilter;
    if (!Array.isArray(resources)) {
        throw new TypeError(
            `${where}: resources must be an array of resource URIs, got ${describe(resources)}`,
        );
    }
    resources.forEach((uri: unknown, index) => {
        if (typeof uri !== 'string' || uri === '') {
            throw new TypeError(`${where}: resources[${index}] must be a resource URI, got ${describe(uri)}`);
        }
    });
    if (!Array.isArray(lists)) {
        throw new TypeError(`${where}: lists must be an array of list names, got ${describe(lists)}`);
    }
    for (const list of lists) {
        if (!LIST_NAMES.includes(list)) {
            throw new RangeError(
                `${where}: lists may hold ${LIST_NAMES.map((name) => `'${name}'`).join(', ')}, got ${describe(list)}`,
            );
        }
    }
    if (resources.length === 0 && lists.length === 0) {
        throw new RangeError(`${where}: the filter asks for nothing; name resources, lists, or both`);
    }
    return {resources: [...new Set(resources)], lists: [...new Set(lists)]};
}

/** The `notifications` member of the request: only what is asked for. */
export function wireFilter(filter: FullFilter): JsonObject {
    const wire: JsonObject = {};
    for (const list of filter.lists) wire[WIRE_FLAGS[list]] = true;
    if (filter.resources.length > 0) wire.resourceSubscriptions = [...filter.resources];
    return wire;
}

/**
 * The filter the server acknowledged, in the client's terms, or a string saying what is wrong
 * with it: not an object, a member of the wrong type, or something granted that was not asked for.
 */
export function readAcknowledged(params: JsonObject | undefined, asked: FullFilter): FullFilter | string {
    const wire = params?.notifications;
    if (!isObject(wire)) return 'has no "notifications" object';
    const lists: ListName[] = [];
    for (const list of LIST_NAMES) {
        const flag = wire[WIRE_FLAGS[list]];
        if (flag === undefined || flag === false) continue;
        if (flag !== true) return `has a "${WIRE_FLAGS[list]}" that is not a boolean`;
        if (!asked.lists.includes(list)) return `grants "${WIRE_FLAGS[list]}", which was not asked for`;
        lists.push(list);
    }
    const granted = wire.resourceSubscriptions ?? [];
    if (!Array.isArray(granted) || !granted.every((uri) => typeof uri === 'string')) {
        return 'has a "resourceSubscriptions" that is not an array of strings';
    }
    const extra = granted.find((uri) => !asked.resources.includes(uri as string));
    if (extra !== undefined) return `grants the resource ${JSON.stringify(extra)}, which was not asked for`;
    return {resources: [...new Set(granted as string[])], lists};
}
