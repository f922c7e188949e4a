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

const CANCELLED = 1;
const SETTLED = 2;
const ANSWERED = 4;
const FULFILLED = 8;

/** The parts of a call that few calls use, made for the first that does. */
class CallAids {
    readonly progressToken: unknown;
    progress: ProgressReporter | undefined = undefined;
    log: Log | undefined = undefined;
    asker: Asker | undefined = undefined;

    constructor(progressToken: unknown) {
        this.progressToken = progressToken;
    }
}

/**
 * Every field is a slot of 8 bytes in each pending call (Node builds without pointer compression),
 * and the collector copies every pending call, so the call keeps only what it cannot read
 * elsewhere: its id and method are read from the frozen context, its flags share one integer, and
 * what few calls use waits in `CallAids` (bench/LOG.md, entry 33).
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
    readonly #host: CallHost;
    /** `CANCELLED`, `SETTLED`, `ANSWERED` and `FULFILLED`: one field, not four, in every pending call. */
    #state = 0;
    /** How the handler's promise settled, kept until the turn-end answer. */
    outcome: unknown;
    #reason: unknown;
    #controller: AbortController | undefined;
    /** What few calls use (a progress token, progress, log messages, questions): one field for all. */
    #aids: CallAids | undefined;

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
        this.#host = host;
        const progressToken = progressTokenOf(params._meta);
        if (progressToken !== undefined) this.#aids = new CallAids(progressToken);
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
        if (client.logLevel !== undefined) this.#aidsOf().log = new Log(this, host, client.logLevel);
        if (client.replay !== undefined) this.#aidsOf().asker = new Asker(this, host, client.replay);
        this.context = Object.freeze(context) as unknown as HandlerContext;
    }

    get requestId(): RequestId {
        return this.context.requestId;
    }

    get method(): CallMethod {
        return this.context.method;
    }

    /** `params._meta.progressToken` as sent, read once so that a handler cannot change it. */
    get progressToken(): unknown {
        return this.#aids?.progressToken;
    }

    get cancelled(): boolean {
        return (this.#state & CANCELLED) !== 0;
    }

    /** The handler's promise settled; its answer waits for the end of the turn. */
    get settled(): boolean {
        return (this.#state & SETTLED) !== 0;
    }

    /** The handler's promise was fulfilled (false while unsettled, or when it was rejected). */
    get fulfilled(): boolean {
        return (this.#state & FULFILLED) !== 0;
    }

    /** Progress may still be sent: the handler has not settled, nor was the call answered or cancelled. */
    get open(): boolean {
        return this.#state === 0;
    }

    /** Created on first use, like the signal. */
    get reportProgress(): (update: ProgressUpdate) => boolean {
        const aids = this.#aidsOf();
        aids.progress ??= new ProgressReporter(this, this.#host.output);
        return aids.progress.report;
    }

    /** Created on first use, like progress. */
    get log(): (level: LoggingLevel, data: unknown, logger?: string) => boolean {
        const aids = this.#aidsOf();
        aids.log ??= new Log(this, this.#host, this.era.modern ? undefined : null);
        return aids.log.send;
    }

    /** Created on first use, like progress: most handlers never ask. */
    get asker(): Asker {
        const aids = this.#aidsOf();
        aids.asker ??= new Asker(this, this.#host, undefined);
        return aids.asker;
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
        this.#state |= ANSWERED;
        this.#aids?.progress?.withdraw();
    }

    cancel(reason: unknown): void {
        this.#state |= CANCELLED;
        this.#reason = reason;
        const aids = this.#aids;
        if (aids !== undefined) {
            aids.progress?.withdraw();
            aids.log?.withdraw();
        }
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
        this.#state |= fulfilled ? SETTLED | FULFILLED : SETTLED;
        this.outcome = value;
        settlement.observe?.(this.requestId);
        this.#host.queueAnswer(this);
    }

    /** The thrown value is this call's own abort reason (or the default one): no news worth a diagnostic. */
    isAbortOutcome(thrown: unknown): boolean {
        if (this.#controller !== undefined && thrown === this.#controller.signal.reason) return true;
        return thrown === this.#reason || (thrown instanceof Error && thrown.name === 'AbortError');
    }

    #aidsOf(): CallAids {
        this.#aids ??= new CallAids(undefined);
        return this.#aids;
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
