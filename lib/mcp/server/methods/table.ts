/**
 * The method tables: which requests each era serves, and which handler serves each. A method
 * missing from the table of the request's era is answered `-32601`.
 */
import {memoByObject} from '../../../util/memo.js';
import type {Catalog} from '../catalog.js';
import {complete} from './completion.js';
import type {MethodEntry, MethodHandler, MethodTables} from './dispatch.js';
import {initialize, ping, serverDiscover} from './lifecycle.js';
import {setLevel} from './logging.js';
import {promptsGet, promptsList} from './prompts.js';
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
 * 2026-07-28: discovery, subscriptions, tools and resources. `initialize`, `ping` and
 * `logging/setLevel` are not part of it; nor are the methods this adapter serves in no era (tasks),
 * nor those of the options a catalog may add (see `methodTables`).
 */
export const MODERN_METHODS: ReadonlyMap<string, MethodEntry> = new Map([
    ['server/discover', entry(serverDiscover, true)],
    ['subscriptions/listen', entry(subscriptionsListen)],
    ...SHARED,
]);

const BASE: MethodTables = Object.freeze({legacy: LEGACY_METHODS, modern: MODERN_METHODS});

/**
 * The tables of one catalog: prompts, completion and `logging/setLevel` exist only where their
 * option asks for them, so a server without them answers those methods `-32601`, as before they
 * existed. Built once per catalog: the HTTP transport makes a session for every modern request.
 */
export const methodTables: (catalog: Catalog) => MethodTables = memoByObject(buildTables);

function buildTables(catalog: Catalog): MethodTables {
    const added: [string, MethodEntry][] = [];
    if (catalog.prompts.size > 0) {
        added.push(['prompts/list', entry(promptsList)], ['prompts/get', entry(promptsGet)]);
    }
    if (catalog.completions) added.push(['completion/complete', entry(complete)]);
    if (added.length === 0 && !catalog.logging) return BASE;
    const legacy = new Map([...LEGACY_METHODS, ...added]);
    if (catalog.logging) legacy.set('logging/setLevel', entry(setLevel));
    return {legacy, modern: new Map([...MODERN_METHODS, ...added])};
}
