/**
 * The method tables: which requests each era serves, and which handler serves each. A method
 * missing from the table of the request's era is answered `-32601`.
 */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import type {Call, ClientData} from '../call.js';
import type {Catalog} from '../catalog.js';
import type {Era} from '../era.js';
import type {Wire} from '../outcome.js';
import {initialize, ping, serverDiscover} from './lifecycle.js';
import {readResource, resourcesList, resourceTemplatesList} from './resources.js';
import {toolsCall, toolsList} from './tools.js';

/** What a method handler can ask of the session. */
export interface Dispatch extends Wire {
    readonly catalog: Catalog;
    /** Runs a handler for `call`: it counts as running, and its id as in use, until answered. */
    run(call: Call, invoke: () => unknown): void;
    /** A successful `initialize` chose legacy semantics, this revision and this client. */
    initialized(client: ClientData): void;
    /** `initialize` already succeeded. */
    readonly isInitialized: boolean;
}

export type MethodHandler = (
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    era: Era,
    client: ClientData,
) => void;

export interface MethodEntry {
    readonly handle: MethodHandler;
    /** Served before `initialize` (legacy era only; the modern era has no initialization). */
    readonly open: boolean;
}

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
    ...SHARED,
]);

/**
 * 2026-07-28: discovery, tools and resources. `initialize`, `ping` and `logging/setLevel` are not
 * part of it; nor are the methods this adapter does not serve in either era (subscriptions, tasks,
 * prompts, completion).
 */
export const MODERN_METHODS: ReadonlyMap<string, MethodEntry> = new Map([
    ['server/discover', entry(serverDiscover, true)],
    ...SHARED,
]);
