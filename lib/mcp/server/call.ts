/**
 * One running handler: what correlation and cancellation need, the handler's context, and how the
 * handler's outcome settled. A call knows its request and its client's data, never the session.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import type {AskHost} from './asking/asker.js';
import {Asker} from './asking/asker.js';
import type {Replay} from './asking/replay.js';
import {
    CallStamp,
    Context,
    CREATE_MESSAGE,
    defineGetter,
    ELICIT,
    LIST_ROOTS,
    logOfContext,
    reportProgressOfContext,
    signalOfContext,
} from './context.js';
import type {Era} from './era.js';
import type {LogWire} from './logging.js';
import {Log} from './logging.js';
import type {SessionOutput} from './output.js';
import type {ProgressSource} from './progress.js';
import {ProgressReporter, progressTokenOf} from './progress.js';
import type {HandlerContext, HandlerMethod, Implementation, LoggingLevel, ProgressUpdate} from './types.js';

export type CallMethod = HandlerMethod;

/**
 * What a call needs of what runs it: an output for its progress and log messages, the session's
 * questions to the client, and an answer once it settled.
 */
export interface CallHost extends LogWire, AskHost {
    readonly output: SessionOutput;
    /** The promise of `call`'s handler settled (once per call): answer it at the end of the turn. */
    queueAnswer(call: Call): void;
    /** The HTTP request being received, while an HTTP transport hands one to the session. */
    readonly http: HandlerContext['http'];
}

/** What a handler is told about its client: from `initialize` (legacy) or the request's `_meta` (modern). */
export interface ClientData {
    readonly clientInfo: Implementation;
    readonly clientCapabilities: JsonObject;
    readonly protocolVersion: string;
    /** The rank of this 2026-07-28 request's `_meta` log level, when it asked for log messages. */
    readonly logLevel?: number;
    /** A 2026-07-28 retry's answers (`requestState` verified, `inputResponses` checked). */
    readonly replay?: Replay | undefined;
}

/**
 * Test-only: told when a call's promise settles, before its answer is written at the end of the
 * turn. Tests use it to reach "settled but not yet answered" without counting microtasks.
 */
export const settlement: {observe: ((requestId: RequestId) => void) | undefined} = {observe: undefined};

/** What a call's target names, by method; a completion's target describes itself. */
const TARGETS = {
    'tools/call': 'tool',
    'resources/read': 'resource',
    'prompts/get': 'prompt',
    'completion/complete': '',
} as const;

/**
 * Every field is a slot of 8 bytes in each pending call (Node builds without pointer compression),
 * so the call keeps only what it cannot read elsewhere: its id and method are read from the frozen
 * context.
 */
export class Call implements ProgressSource {
    /** The tool name or resource uri. */
    readonly target: string;
    /** The era this request is served in: how its answer is encoded. */
    readonly era: Era;
    /**
     * What the handler sees: a plain frozen object with `signal` and `reportProgress` as its own
     * properties, so that `{...context}` keeps them and no internal state is reachable from a
     * handler.
     */
    readonly context: HandlerContext;
    /** `params._meta.progressToken` as sent, read once so that a handler cannot change it. */
    readonly progressToken: unknown;
    readonly #host: CallHost;
    #cancelled = false;
    /** The handler's promise settled. */
    #settled = false;
    /** The outcome went to `answer`, a cancelled call's included: see `end`. */
    #answered = false;
    #fulfilled = false;
    /** How the handler's promise settled, kept until the turn-end answer. */
    outcome: unknown;
    #reason: unknown;
    #controller: AbortController | undefined;
    #progress: ProgressReporter | undefined;
    #log: Log | undefined;
    #asker: Asker | undefined;

    /** `extra`: fields of the context beyond every handler's (a template's `variables`, say). */
    constructor(
        id: RequestId,
        method: CallMethod,
        params: JsonObject,
        target: string,
        era: Era,
        client: ClientData,
        host: CallHost,
        extra?: JsonObject,
    ) {
        this.target = target;
        this.era = era;
        this.progressToken = progressTokenOf(params._meta);
        this.#host = host;
        // An object literal with its own getter takes V8's slow path and leaves a dictionary-mode
        // object; one shared getter defined first keeps a cached fast shape (bench/LOG.md, entry
        // 4). The getter finds this call through a private stamp, which a handler cannot reach.
        const context = new Context();
        defineGetter.call(context, 'signal', signalOfContext);
        new CallStamp(context, this);
        context.requestId = id;
        context.method = method;
        context.params = params;
        context.clientInfo = client.clientInfo;
        context.clientCapabilities = client.clientCapabilities;
        context.protocolVersion = client.protocolVersion;
        defineGetter.call(context, 'reportProgress', reportProgressOfContext);
        defineGetter.call(context, 'log', logOfContext);
        defineGetter.call(context, 'elicit', ELICIT);
        defineGetter.call(context, 'createMessage', CREATE_MESSAGE);
        defineGetter.call(context, 'listRoots', LIST_ROOTS);
        // Shared by the calls of one HTTP request; a stdio context never gets the key.
        const http = host.http;
        if (http !== undefined) context.http = http;
        if (extra !== undefined) Object.assign(context, extra);
        // A 2026-07-28 request carries its own level; otherwise the session's applies when it logs.
        if (client.logLevel !== undefined) this.#log = new Log(this, host, client.logLevel);
        if (client.replay !== undefined) this.#asker = new Asker(this, host, client.replay);
        this.context = Object.freeze(context) as unknown as HandlerContext;
    }

    get requestId(): RequestId {
        return this.context.requestId;
    }

    get method(): CallMethod {
        return this.context.method;
    }

    get cancelled(): boolean {
        return this.#cancelled;
    }

    /** The handler's promise settled; its answer waits for the end of the turn. */
    get settled(): boolean {
        return this.#settled;
    }

    /** The handler's promise was fulfilled (false while unsettled, or when it was rejected). */
    get fulfilled(): boolean {
        return this.#fulfilled;
    }

    /** Progress may still be sent: the handler has not settled, nor was the call answered or cancelled. */
    get open(): boolean {
        return !(this.#settled || this.#answered || this.#cancelled);
    }

    /** Created on first use, like the signal. */
    get reportProgress(): (update: ProgressUpdate) => boolean {
        this.#progress ??= new ProgressReporter(this, this.#host.output);
        return this.#progress.report;
    }

    /** Created on first use, like progress. */
    get log(): (level: LoggingLevel, data: unknown, logger?: string) => boolean {
        this.#log ??= new Log(this, this.#host, this.era.modern ? undefined : null);
        return this.#log.send;
    }

    /** Created on first use, like progress: most handlers never ask. */
    get asker(): Asker {
        this.#asker ??= new Asker(this, this.#host, undefined);
        return this.#asker;
    }

    /** Created on first use: most handlers that finish at once never look at it. */
    get signal(): AbortSignal {
        if (this.#controller === undefined) {
            this.#controller = new AbortController();
            if (this.cancelled) this.#controller.abort(this.#reason);
        }
        return this.#controller.signal;
    }

    /**
     * The outcome is being answered: progress ends, and a notification still waiting is dropped.
     * It would share the response's write, and so the client's read, where both official SDK
     * clients handle the response first and then report the notification as being for an unknown
     * request; the response says more than the notification anyway.
     */
    end(): void {
        this.#answered = true;
        this.#progress?.withdraw();
    }

    cancel(reason: unknown): void {
        this.#cancelled = true;
        this.#reason = reason;
        this.#progress?.withdraw();
        this.#log?.withdraw();
        this.#controller?.abort(reason);
    }

    /** Answers the call with `outcome` now, whatever its handler does next, and aborts its signal. */
    suspend(outcome: unknown, reason: unknown): void {
        this.#reason = reason;
        this.settle(true, outcome);
        // Made now if the handler never looked at it, so that a later look finds it aborted.
        this.#controller ??= new AbortController();
        this.#controller.abort(reason);
    }

    /** Records how the handler's promise settled and queues its answer, the first time only. */
    settle(fulfilled: boolean, value: unknown): void {
        if (this.settled) return;
        this.#settled = true;
        this.#fulfilled = fulfilled;
        this.outcome = value;
        settlement.observe?.(this.requestId);
        this.#host.queueAnswer(this);
    }

    /** The thrown value is this call's own abort reason (or the default one): no news worth a diagnostic. */
    isAbortOutcome(thrown: unknown): boolean {
        if (this.#controller !== undefined && thrown === this.#controller.signal.reason) return true;
        return thrown === this.#reason || (thrown instanceof Error && thrown.name === 'AbortError');
    }

    describe(): string {
        const method = this.method;
        const what =
            method === 'completion/complete'
                ? this.target
                : `${TARGETS[method]} ${JSON.stringify(this.target)}`;
        return `${method} of ${what} (request id ${JSON.stringify(this.requestId)})`;
    }
}
