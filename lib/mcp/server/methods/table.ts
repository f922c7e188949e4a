/**
 * The method tables: which requests each era serves, and which handler serves each. A method
 * missing from the table of the request's era is answered `-32601`.
 */
import type {MethodEntry, MethodHandler} from './dispatch.js';
import {initialize, ping, serverDiscover} from './lifecycle.js';
import {readResource, resourcesList, resourceTemplatesList} from './resources.js';
import {resourcesSubscribe, resourcesUnsubscribe, subscriptionsListen} from './subscriptions.js';
import {toolsCall, toolsList} from './tools.js';

const entry = (handle: MethodHandler, open = false): MethodEntry => Object.freeze({handle, open});

const SHARED: [string, MethodEntry][] = [
    ['tools/list', entry(toolsList)],
    ['tools/call', entry(toolsCall)],
    ['resources/list', entry(resourcesList)],
    ['resources/read', entry(readResource)],
    ['resources/templates/list', entry(resourceTemplatesList)],
];

/** 2025-11-25 and earlier: the initialize lifecycle, `ping`, tools and resources. */
export const LEGACY_METHODS: ReadonlyMap<string, MethodEntry> = new Map([
    ['initialize', entry(initialize, true)],
    ['ping', entry(ping, true)],
    ['resources/subscribe', entry(resourcesSubscribe)],
    ['resources/unsubscribe', entry(resourcesUnsubscribe)],
    ...SHARED,
]);

/**
 * 2026-07-28: discovery, tools and resources. `initialize`, `ping` and `logging/setLevel` are not
 * part of it; nor are the methods this adapter does not serve in either era (subscriptions, tasks,
 * prompts, completion).
 */
export const MODERN_METHODS: ReadonlyMap<string, MethodEntry> = new Map([
    ['server/discover', entry(serverDiscover, true)],
    ['subscriptions/listen', entry(subscriptionsListen)],
    ...SHARED,
]);
