/**
 * The 2026-07-28 era's subscriptions: each is one long-lived `subscriptions/listen` request. Its
 * id names the subscription; the server's first message for it is the acknowledgement, then the
 * notifications asked for, each tagged with that id, while the request stays open. The client
 * ends it by cancelling the request (stdio: `notifications/cancelled`; HTTP: closing its stream);
 * the server ends it by answering the request or by cancelling it.
 *
 * Every notification passes through here: `onNotification` hears each one, as before; the typed
 * callbacks hear an untagged one, or a tagged one from an open subscription of this session.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {McpClientError, McpConnectionError, McpProtocolViolationError, McpTimeoutError} from './errors.js';
import type {FullFilter} from './listen-filter.js';
import {checkListenFilter, readAcknowledged, wireFilter} from './listen-filter.js';
import type {ListenEnd, McpSubscription} from './listen-handle.js';
import {subscriptionHandle} from './listen-handle.js';
import type {NotificationOptions} from './notifications.js';
import {deliver} from './notifications.js';
import {checkRequestOptions} from './options.js';
import type {Requests} from './requests.js';

export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';
const METHOD = 'subscriptions/listen';
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

interface Entry {
    id: number | undefined;
    state: 'pending' | 'open' | 'ended';
    readonly asked: FullFilter;
    /** Aborted to give the request up once the subscription is over. */
    readonly stop: AbortController;
    readonly resolve: (subscription: McpSubscription) => void;
    readonly reject: (error: unknown) => void;
    readonly ended: Promise<ListenEnd>;
    readonly finished: (end: ListenEnd) => void;
    /** The wait for the acknowledgement. */
    timer: ReturnType<typeof setTimeout> | undefined;
    /** Removes the listener of the caller's signal. */
    unlisten: () => void;
    /** The caller's signal bounds the wait for the acknowledgement, not the subscription. */
    readonly signalEndsWait: boolean;
}

/** The reason a request given up here carries; nothing outside this file sees it. */
const GIVEN_UP = new McpConnectionError('The subscription is over');

export class Listens {
    readonly #requests: Requests;
    readonly #era: () => 'legacy' | 'modern';
    readonly #timeoutMs: number;
    readonly #observer: NotificationOptions;
    readonly #typed: NotificationOptions;
    readonly #all: NotificationOptions;
    readonly #entries = new Map<number, Entry>();

    constructor(
        requests: Requests,
        era: () => 'legacy' | 'modern',
        timeoutMs: number,
        callbacks: NotificationOptions,
    ) {
        this.#requests = requests;
        this.#era = era;
        this.#timeoutMs = timeoutMs;
        const {onNotification, ...typed} = callbacks;
        this.#all = callbacks;
        this.#observer = onNotification === undefined ? {} : {onNotification};
        this.#typed = typed;
    }

    /**
     * Opens a subscription; resolves once the server acknowledged it. The `signal` closes it even
     * once open, unless `signalEndsWait` (then it bounds the wait for the acknowledgement only).
     */
    listen(
        filter: unknown,
        options: unknown,
        where = 'client.listen',
        signalEndsWait = false,
    ): Promise<McpSubscription> {
        const asked = checkListenFilter(where, filter);
        const {signal, timeoutMs} = checkRequestOptions(where, options, this.#timeoutMs, false);
        if (this.#era() !== 'modern') {
            return Promise.reject(
                new McpClientError(
                    `${where}: subscriptions/listen belongs to protocol revision 2026-07-28, and this session ` +
                        'speaks an earlier one; use subscribeResource(uri) and onListChanged, or connect with ' +
                        "versionNegotiation: 'auto' to a server that serves 2026-07-28",
                ),
            );
        }
        if (signal?.aborted) return Promise.reject(signal.reason);
        return new Promise((resolve, reject) => {
            let finished!: (end: ListenEnd) => void;
            const ended = new Promise<ListenEnd>((settle) => {
                finished = settle;
            });
            const entry: Entry = {
                id: undefined,
                state: 'pending',
                asked,
                stop: new AbortController(),
                resolve,
                reject,
                ended,
                finished,
                timer: undefined,
                unlisten: () => {},
                signalEndsWait,
            };
            const terms = {
                signal: entry.stop.signal,
                timeoutMs: Number.POSITIVE_INFINITY,
                cancellable: false,
                dropLateAnswer: true,
                onId: (id: number) => {
                    entry.id = id;
                    this.#entries.set(id, entry);
                },
            };
            this.#requests.request(METHOD, {notifications: wireFilter(asked)}, terms).then(
                () => this.#answered(entry),
                (error: unknown) => this.#failed(entry, error),
            );
            if (timeoutMs !== Number.POSITIVE_INFINITY) {
                const timeout = () => this.#refuse(entry, new McpTimeoutError(METHOD, timeoutMs), true);
                entry.timer = setTimeout(timeout, timeoutMs);
            }
            if (signal !== undefined) {
                const onAbort = () => {
                    if (entry.state === 'pending') this.#refuse(entry, signal.reason, true);
                    else this.#finish(entry, {by: 'client'}, true);
                };
                signal.addEventListener('abort', onAbort, {once: true});
                entry.unlisten = () => signal.removeEventListener('abort', onAbort);
            }
        });
    }

    /** Every notification the server sends, besides progress. */
    route(method: string, params: JsonObject | undefined): void {
        const meta = params?._meta;
        if (method === 'notifications/cancelled') {
            const id = params?.requestId;
            const entry = typeof id === 'number' ? this.#entries.get(id) : undefined;
            deliver(this.#all, method, params);
            if (entry === undefined) return;
            if (entry.state === 'pending') {
                this.#refuse(
                    entry,
                    new McpClientError(`The MCP server cancelled ${METHOD} before acknowledging it`),
                    false,
                );
            } else {
                this.#finish(entry, {by: 'server'}, false);
            }
            return;
        }
        if (!isObject(meta) || !Object.hasOwn(meta, SUBSCRIPTION_ID_KEY)) {
            deliver(this.#all, method, params);
            return;
        }
        deliver(this.#observer, method, params);
        const id = meta[SUBSCRIPTION_ID_KEY];
        const entry = typeof id === 'number' ? this.#entries.get(id) : undefined;
        // A subscription already over (its late notifications) or never opened: observed only.
        if (entry === undefined) return;
        if (entry.state === 'open') {
            if (method !== ACKNOWLEDGED) deliver(this.#typed, method, params);
            return;
        }
        if (method !== ACKNOWLEDGED) {
            const error = new McpProtocolViolationError(
                `The MCP server sent ${method} on subscription ${id} before acknowledging it`,
            );
            this.#refuse(entry, error, true);
            return;
        }
        const granted = readAcknowledged(params, entry.asked);
        if (typeof granted === 'string') {
            const error = new McpProtocolViolationError(
                `The MCP server's acknowledgement of ${METHOD} ${id} ${granted}`,
            );
            this.#refuse(entry, error, true);
            return;
        }
        this.#accept(entry, granted);
    }

    /** The session failed: every subscription ends with its error, nothing sent. */
    fail(error: unknown): void {
        for (const entry of [...this.#entries.values()]) {
            if (entry.state === 'pending') this.#refuse(entry, error, false);
            else this.#finish(entry, {by: 'error', error}, false);
        }
    }

    /** The session is closing: every subscription ends, cancelled on the wire. */
    closeAll(): void {
        for (const entry of [...this.#entries.values()]) {
            if (entry.state === 'pending') {
                const error = new McpConnectionError(
                    `The MCP client was closed before the server acknowledged ${METHOD}`,
                );
                this.#refuse(entry, error, true);
            } else {
                this.#finish(entry, {by: 'client'}, true);
            }
        }
    }

    #accept(entry: Entry, granted: FullFilter): void {
        entry.state = 'open';
        clearTimeout(entry.timer);
        if (entry.signalEndsWait) entry.unlisten();
        const subscription = subscriptionHandle(entry.id as number, entry.asked, granted, entry.ended, () =>
            this.#finish(entry, {by: 'client'}, true),
        );
        entry.resolve(subscription);
    }

    /** The server answered the request: a graceful end, or, before the acknowledgement, a violation. */
    #answered(entry: Entry): void {
        if (entry.state === 'open') this.#finish(entry, {by: 'server'}, false);
        else if (entry.state === 'pending') {
            const error = new McpProtocolViolationError(
                `The MCP server answered ${METHOD} before acknowledging it, so no subscription was opened`,
            );
            this.#refuse(entry, error, false);
        }
    }

    #failed(entry: Entry, error: unknown): void {
        if (entry.state === 'open') this.#finish(entry, {by: 'error', error}, false);
        else if (entry.state === 'pending') this.#refuse(entry, error, false);
    }

    /** A pending subscription fails: `listen()` rejects with `error`. */
    #refuse(entry: Entry, error: unknown, cancel: boolean): void {
        if (entry.state !== 'pending') return;
        this.#over(entry, cancel);
        entry.reject(error);
    }

    /** An open subscription ends. */
    #finish(entry: Entry, end: ListenEnd, cancel: boolean): void {
        if (entry.state !== 'open') return;
        this.#over(entry, cancel);
        entry.finished(end);
    }

    /** Forgets the subscription; `cancel` tells the server (stdio) or closes the stream (HTTP). */
    #over(entry: Entry, cancel: boolean): void {
        entry.state = 'ended';
        clearTimeout(entry.timer);
        entry.unlisten();
        const id = entry.id;
        if (id !== undefined) this.#entries.delete(id);
        if (cancel && id !== undefined && !this.#requests.cancelByClosing) {
            this.#requests.notify('notifications/cancelled', {
                requestId: id,
                reason: 'The client ended the subscription',
            });
        }
        // The request is given up quietly: its late answer is dropped, its HTTP exchange closed.
        entry.stop.abort(GIVEN_UP);
    }
}
