/**
 * One MCP session, independent of streams: records in, records and diagnostics out through a
 * `Wire`. It owns the era of each request, correlation by id, handler runs and cancellation; the
 * methods live in `methods/`, the eras in `era.ts`, the answers in `outcome.ts`.
 *
 * Eras: a request whose `params._meta` carries `io.modelcontextprotocol/protocolVersion` is served
 * statelessly under 2026-07-28 when the server enables it and `initialize` has not succeeded; its
 * client data come from that request alone. A successful `initialize` selects the legacy era for
 * the rest of the process: from then on every request is served under the negotiated revision,
 * `_meta` or not. `server/discover` changes nothing, so a probe never spoils a later `initialize`.
 *
 * Timing: handlers run as soon as their request is read and independently of each other. A handler
 * that returns at once is answered at once; one that returns a promise is answered at the end of
 * the event-loop turn in which it settles, together with every other promise that settled in that
 * turn (timers that fire together, say), so a burst of answers reaches the writer as a burst and
 * leaves in a few writes (one per 64 answers at most, see `writer.ts`) instead of one system call
 * each. Those answers are also sent before the next input record is handled, so responses keep
 * completion order. A call counts as running, and its id as in use, from before its handler is
 * invoked until it is answered. A cancelled request is never answered.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {classify, errorRecord, isObject, isRequestId} from '../../jsonrpc/records.js';
import type {QueueSlot} from '../../jsonrpc/writer.js';
import type {Call, ClientData} from './call.js';
import {fulfilledReaction, rejectedReaction} from './call.js';
import type {Catalog} from './catalog.js';
import type {Era} from './era.js';
import {legacyEra, modernEra} from './era.js';
import type {Dispatch, MethodEntry, MethodTables} from './methods/dispatch.js';
import {methodTables} from './methods/table.js';
import {serveModern} from './modern.js';
import type {Wire} from './outcome.js';
import {answer} from './outcome.js';
import {
    ignoreResponse,
    refuseIdInUse,
    refuseOversized,
    refuseUninitialized,
    refuseUnknownMethod,
    refuseUnparsable,
} from './refusals.js';

export class Session implements Dispatch {
    readonly catalog: Catalog;
    readonly #wire: Wire;
    readonly #legacy: Era;
    /** Set when the server enables 2026-07-28. */
    readonly #modern: Era | undefined;
    /** Calls not answered yet, but `#current`. */
    readonly #active = new Map<RequestId, Call>();
    /**
     * The call whose handler is running synchronously, kept out of `#active` so that a call
     * answered at once costs no `Map` insertion and deletion (the deletion that empties the map also
     * shrinks its table): in-process echo -3 to -5 % of the CPU per call on Node 20 and 24
     * (`bench/inproc-pair.mjs`, 40 turns each way). It moves to `#active` when its handler returns
     * a promise, or when another call starts while it runs (a handler that feeds the input).
     */
    #current: Call | undefined;
    /** Calls whose promise settled in this turn, in settlement order, waiting for their answer. */
    #settled: Call[] = [];
    #running = 0;
    readonly #answerSettled = () => this.#answer();
    #waiters: (() => void)[] = [];
    #initialized = false;
    #client: ClientData;
    readonly methods: MethodTables;
    /** The rank `logging/setLevel` chose, else the `logging` option's level; undefined: send none. */
    logLevel: number | undefined;

    constructor(catalog: Catalog, wire: Wire) {
        this.catalog = catalog;
        this.#wire = wire;
        this.#legacy = legacyEra(catalog);
        this.#modern = catalog.versions.modern.length > 0 ? modernEra(catalog) : undefined;
        this.methods = methodTables(catalog);
        this.logLevel = catalog.defaultLogLevel;
        this.#client = {
            clientInfo: {name: '', version: ''},
            clientCapabilities: {},
            protocolVersion: catalog.versions.all[0] as string,
        };
    }

    /** Handlers whose outcome has not settled yet. */
    get running(): number {
        return this.#running;
    }

    get isInitialized(): boolean {
        return this.#initialized;
    }

    send(record: string): void {
        this.#wire.send(record);
    }

    sendLatest(record: string, slot: QueueSlot): void {
        this.#wire.sendLatest(record, slot);
    }

    withdraw(slot: QueueSlot): void {
        this.#wire.withdraw(slot);
    }

    diagnose(text: string): void {
        this.#wire.diagnose(text);
    }

    setLogLevel(rank: number): void {
        this.logLevel = rank;
    }

    initialized(client: ClientData): void {
        this.#initialized = true;
        this.#client = client;
    }

    /** Resolves once no handler is running. */
    whenSettled(): Promise<void> {
        if (this.#running === 0) return Promise.resolve();
        return new Promise((resolve) => this.#waiters.push(resolve));
    }

    /** Signals the running handler of `id`; true only when it was running and not yet cancelled. */
    cancel(id: RequestId, reason: unknown): boolean {
        const current = this.#current;
        const call = current !== undefined && current.requestId === id ? current : this.#active.get(id);
        if (call === undefined || call.cancelled || call.settled) return false;
        call.cancel(reason);
        return true;
    }

    /** Signals every running handler that is not cancelled yet. */
    cancelAll(reason: unknown): void {
        for (const call of this.#active.values()) {
            if (!call.cancelled && !call.settled) call.cancel(reason);
        }
        // The newest call: last, as in the order the calls started.
        const current = this.#current;
        if (current !== undefined && !current.cancelled && !current.settled) current.cancel(reason);
    }

    /** One complete input record. Handlers that settled before it arrived are answered first. */
    receive(text: string): void {
        if (this.#settled.length > 0) this.#answer();
        let message: unknown;
        try {
            message = JSON.parse(text);
        } catch (error) {
            refuseUnparsable(this, text, error);
            return;
        }
        if (isObject(message) && message.jsonrpc === '2.0' && Object.hasOwn(message, 'method')) {
            // A well-formed request or notification, taken as `classify` would, without its result
            // object; everything else goes through `classify`. In-process call plus cancel -2 to
            // -7 % on Node 20 (four paired runs), echo -1 to -2 %; nothing on Node 24.
            const method = message.method;
            const params = message.params;
            if (typeof method === 'string' && (params === undefined || isObject(params))) {
                if (!Object.hasOwn(message, 'id')) {
                    this.#notification(method, params);
                    return;
                }
                const id = message.id;
                if (isRequestId(id)) {
                    this.#request(id, method, params);
                    return;
                }
            }
        }
        const incoming = classify(message);
        switch (incoming.kind) {
            case 'request':
                // Unreachable while the path above takes every well-formed request; kept so that
                // the two cannot drift into dropping one.
                this.#request(incoming.id, incoming.method, incoming.params);
                return;
            case 'notification':
                this.#notification(incoming.method, incoming.params);
                return;
            case 'invalid':
                this.send(errorRecord(incoming.id, incoming.code, incoming.message));
                return;
            case 'response':
                ignoreResponse(this, incoming.id);
                return;
        }
    }

    /** A record over `maxMessageBytes` was discarded. */
    oversized(bytes: number): void {
        if (this.#settled.length > 0) this.#answer();
        refuseOversized(this, bytes, this.catalog.maxMessageBytes);
    }

    #request(id: RequestId, method: string, params: JsonObject | undefined): void {
        if (this.#active.has(id) || this.#current?.requestId === id) {
            refuseIdInUse(this, id);
            return;
        }
        const modern = this.#modern;
        if (modern !== undefined && !this.#initialized && serveModern(this, id, method, params, modern))
            return;
        const entry: MethodEntry | undefined = this.methods.legacy.get(method);
        if (entry === undefined) {
            refuseUnknownMethod(this, id, method);
            return;
        }
        if (!entry.open && !this.#initialized) {
            refuseUninitialized(this, id, method, modern !== undefined);
            return;
        }
        entry.handle(this, id, params, this.#legacy, this.#client);
    }

    /**
     * Runs a handler. The call counts as running, and its id as in use, from before the handler is
     * invoked until it is answered, so a handler that calls `cancel`, `drain` or `close`
     * synchronously sees itself running.
     */
    run(call: Call, invoke: () => unknown): void {
        const outer = this.#current;
        if (outer !== undefined) this.#active.set(outer.requestId, outer);
        this.#current = call;
        this.#running += 1;
        let outcome: unknown;
        let pending: boolean;
        try {
            outcome = invoke();
            pending = isThenable(outcome);
        } catch (error) {
            this.#finish(call, false, error);
            return;
        }
        if (!pending) {
            this.#finish(call, true, outcome);
            return;
        }
        if (this.#current === call) {
            this.#current = undefined;
            this.#active.set(call.requestId, call);
        }
        const fulfilled = fulfilledReaction.bind(call);
        const rejected = rejectedReaction.bind(call);
        // An ordinary native promise takes the reactions directly: the engine calls exactly one of
        // them once, and this skips a wrapper promise and its two adoption ticks. `then` can still
        // throw before registering them (a throwing constructor getter or species); that case,
        // like every other thenable, is adopted through the executor, which never throws here.
        // Kept inline: as a function of its own module it cost 4 % of fan-out and call-plus-cancel
        // CPU on Node 24 (paired in-process A/B).
        try {
            if (
                Object.getPrototypeOf(outcome) === Promise.prototype &&
                !Object.hasOwn(outcome as object, 'then')
            ) {
                (outcome as Promise<unknown>).then(fulfilled, rejected);
                return;
            }
        } catch {
            // Fall through to the executor.
        }
        new Promise((resolve) => resolve(outcome)).then(fulfilled, rejected);
    }

    /** Answers a handler that returned or threw synchronously. */
    #finish(call: Call, fulfilled: boolean, value: unknown): void {
        if (this.#current === call) this.#current = undefined;
        else this.#active.delete(call.requestId);
        answer(this, call, fulfilled, value);
        this.#release(1);
    }

    /** `call`'s promise settled: it is answered at the end of this turn, in settlement order. */
    settled(call: Call): void {
        if (this.#settled.push(call) === 1) setImmediate(this.#answerSettled);
    }

    /** Answers the calls that settled since the last answer, in settlement order. */
    #answer(): void {
        const settled = this.#settled;
        if (settled.length === 0) return;
        this.#settled = [];
        for (const call of settled) {
            this.#active.delete(call.requestId);
            const outcome = call.outcome;
            call.outcome = undefined;
            answer(this, call, call.fulfilled, outcome);
        }
        this.#release(settled.length);
    }

    /** `count` calls were answered: they no longer count as running. */
    #release(count: number): void {
        this.#running -= count;
        if (this.#running === 0 && this.#waiters.length > 0) {
            const waiters = this.#waiters;
            this.#waiters = [];
            for (const resolve of waiters) resolve();
        }
    }

    #notification(method: string, params: JsonObject | undefined): void {
        if (method === 'notifications/cancelled' && params !== undefined) {
            const id = params.requestId;
            if (isRequestId(id)) {
                this.cancel(id, params.reason);
            }
        }
        // Every other notification, notifications/initialized included, needs no action.
    }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
    return (
        (typeof value === 'object' || typeof value === 'function') &&
        value !== null &&
        typeof (value as {then?: unknown}).then === 'function'
    );
}
