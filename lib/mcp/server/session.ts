/**
 * One MCP session, independent of streams: records in, records and diagnostics out through its
 * `SessionOutput`. It classifies each record, chooses the era of each request and routes it to
 * its method; the methods live in `methods/` (their tables in `methods/table.ts`), the eras in
 * `era.ts`, the running calls in `calls.ts`, the answers in `outcome.ts` and `failures.ts`.
 *
 * A transport creates one per session with its own output (stdio: one per server; an HTTP handler:
 * one per legacy session, or one per stateless request), feeds it complete records with `receive`
 * (or parsed ones with `receiveParsed`) and `oversized`, and reads, waits for and cancels its calls
 * through `calls`. Nothing else of it is for a transport.
 *
 * Eras: a request whose `params._meta` carries `io.modelcontextprotocol/protocolVersion` is served
 * statelessly under 2026-07-28 when the server enables it and `initialize` has not succeeded; its
 * client data come from that request alone. A successful `initialize` selects the legacy era for
 * the rest of the session: from then on every request is served under the negotiated revision,
 * `_meta` or not. `server/discover` changes nothing, so a probe never spoils a later `initialize`.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {classify, errorRecord, isRequestId} from '../../jsonrpc/records.js';
import {McpAskError} from './asking/errors.js';
import type {ClientData} from './call.js';
import {Calls} from './calls.js';
import type {Catalog} from './catalog.js';
import type {Era} from './era.js';
import {legacyEra, modernEra} from './era.js';
import type {Dispatch, MethodEntry, MethodTables} from './methods/dispatch.js';
import {methodTables} from './methods/table.js';
import {serveModern} from './modern.js';
import type {SessionOutput} from './output.js';
import {
    ignoreResponse,
    refuseIdInUse,
    refuseOversized,
    refuseUninitialized,
    refuseUnknownMethod,
    refuseUnparsable,
} from './refusals.js';
import {Subscriptions} from './subscriptions.js';

export class Session implements Dispatch {
    readonly catalog: Catalog;
    /** Where every answer, notification and diagnostic of this session goes. */
    readonly output: SessionOutput;
    /** The calls running in this session: `running`, `whenAllAnswered()`, `cancel()`, `cancelAll()`. */
    readonly calls: Calls;
    readonly subscriptions: Subscriptions;
    readonly #legacy: Era;
    /** Set when the server enables 2026-07-28. */
    readonly #modern: Era | undefined;
    #initialized = false;
    #client: ClientData;
    readonly methods: MethodTables;

    constructor(catalog: Catalog, output: SessionOutput) {
        this.catalog = catalog;
        this.output = output;
        this.calls = new Calls(output, catalog.defaultLogLevel, catalog.asking);
        this.subscriptions = new Subscriptions(output, catalog.maxSubscriptions);
        this.#legacy = legacyEra(catalog);
        this.#modern = catalog.versions.modern.length > 0 ? modernEra(catalog) : undefined;
        this.methods = methodTables(catalog);
        this.#client = {
            clientInfo: {name: '', version: ''},
            clientCapabilities: {},
            protocolVersion: catalog.versions.all[0] as string,
        };
    }

    get isInitialized(): boolean {
        return this.#initialized;
    }

    /** The rank `logging/setLevel` chose, else the `logging` option's level; undefined: send none. */
    get logLevel(): number | undefined {
        return this.calls.logLevel;
    }

    setLogLevel(rank: number): void {
        this.calls.logLevel = rank;
    }

    /** A successful `initialize` chose the legacy era, this revision and this client. */
    initialized(client: ClientData): void {
        this.#initialized = true;
        this.#client = client;
    }

    /** One complete input record, as text. Calls that settled before it arrived are answered first. */
    receive(text: string): void {
        this.calls.flush();
        let message: unknown;
        try {
            message = JSON.parse(text);
        } catch (error) {
            refuseUnparsable(this.output, text, error);
            return;
        }
        this.#route(message);
    }

    /** One input record its transport already parsed; as `receive` otherwise. */
    receiveParsed(message: unknown): void {
        this.calls.flush();
        this.#route(message);
    }

    /** A record of `bytes` over `maxMessageBytes` was discarded. */
    oversized(bytes: number): void {
        this.calls.flush();
        refuseOversized(this.output, bytes, this.catalog.maxMessageBytes);
    }

    /**
     * The session ends: every open `subscriptions/listen` request is answered, and every question
     * still waiting for the client rejects with an `McpAskError` of code `'session-closed'`, as
     * does every later one.
     */
    ending(): void {
        this.subscriptions.end();
        this.calls.endQuestions(
            new McpAskError('session-closed', 'The MCP session ended before the client answered'),
        );
    }

    #route(message: unknown): void {
        const incoming = classify(message);
        switch (incoming.kind) {
            case 'request':
                this.#request(incoming.id, incoming.method, incoming.params);
                return;
            case 'notification':
                this.#notification(incoming.method, incoming.params);
                return;
            case 'invalid':
                this.output.send(errorRecord(incoming.id, incoming.code, incoming.message));
                return;
            case 'response':
                // An answer to a handler's question, or a response nobody waits for.
                if (!this.calls.answered(message as JsonObject)) ignoreResponse(this.output, incoming.id);
                return;
        }
    }

    #request(id: RequestId, method: string, params: JsonObject | undefined): void {
        if (this.calls.inUse(id) || this.subscriptions.holds(id)) {
            refuseIdInUse(this.output, id);
            return;
        }
        const modern = this.#modern;
        if (modern !== undefined && !this.#initialized && serveModern(this, id, method, params, modern))
            return;
        const entry: MethodEntry | undefined = this.methods.legacy.get(method);
        if (entry === undefined) {
            refuseUnknownMethod(this.output, id, method);
            return;
        }
        if (!entry.open && !this.#initialized) {
            refuseUninitialized(this.output, id, method, modern !== undefined);
            return;
        }
        entry.handle(this, id, params, this.#legacy, this.#client);
    }

    #notification(method: string, params: JsonObject | undefined): void {
        if (method === 'notifications/cancelled' && params !== undefined) {
            const id = params.requestId;
            if (isRequestId(id) && !this.subscriptions.cancel(id)) {
                this.calls.cancel(id, params.reason);
            }
        }
        // Every other notification, notifications/initialized included, needs no action.
    }
}
