/**
 * The calls of one session that are running: their handlers, the ids they hold, their answers and
 * their cancellation. A method that runs a handler builds a `Call` on this registry and hands it to
 * `run`; the transport reads `running`, waits with `whenAllAnswered` and cancels.
 *
 * Timing: handlers run as soon as their request is read and independently of each other. A handler
 * that returns at once is answered at once; one that returns a promise is answered at the end of
 * the event-loop turn in which it settles, together with every other promise that settled in that
 * turn (timers that fire together, say), so a burst of answers reaches the writer as a burst and
 * leaves in a few writes (one per 64 answers at most, see `writer.ts`) instead of one system call
 * each. Those answers are also sent before the next input record is handled (see `flush`), so
 * responses keep completion order. A call counts as running, and its id as in use, from before its
 * handler is invoked until it is answered. A cancelled request is never answered.
 */
import {OutgoingRequests} from '../../jsonrpc/outgoing.js';
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {McpAnswerError, McpAskError} from './asking/errors.js';
import type {AskSettings} from './asking/settings.js';
import {captureAsking} from './asking/settings.js';
import type {Call, CallHost} from './call.js';
import {answer} from './outcome.js';
import type {SessionOutput} from './output.js';
import type {HttpRequestInfo} from './types.js';

export class Calls implements CallHost {
    /** Where the calls' answers, progress and diagnostics go. */
    readonly output: SessionOutput;
    #outgoing: OutgoingRequests | undefined;
    /** Set once the session ended: questions asked later reject with it. */
    #ended: unknown;
    readonly asking: AskSettings;
    /** Calls not answered yet, but `#current`. */
    readonly #active = new Map<RequestId, Call>();
    /**
     * The call whose handler is running synchronously, kept out of `#active` so that a call
     * answered at once costs no `Map` insertion and deletion (bench/LOG.md, entry 10). It moves to
     * `#active` when its handler returns a promise, or when another call starts while it runs (a
     * handler that feeds the input).
     */
    #current: Call | undefined;
    /** Calls whose promise settled in this turn, in settlement order, waiting for their answer. */
    #answerQueue: Call[] = [];
    #running = 0;
    readonly #answerQueued = () => this.flush();
    #waiters: (() => void)[] = [];
    /** The session's level from `logging/setLevel` (or the `logging` option); undefined: none. */
    logLevel: number | undefined;
    /** Set by an HTTP transport while it hands the session a record: the request that carried it. */
    http: HttpRequestInfo | undefined;

    constructor(output: SessionOutput, logLevel?: number, asking: AskSettings = captureAsking(undefined)) {
        this.output = output;
        this.logLevel = logLevel;
        this.asking = asking;
    }

    /**
     * The questions handlers sent the client (earlier revisions), waiting for its answers: made
     * on first use, as most sessions never ask.
     */
    get outgoing(): OutgoingRequests {
        if (this.#outgoing === undefined) {
            const output = this.output;
            // The client's own ids are numbers or strings of its own; this prefix marks the server's.
            this.#outgoing = new OutgoingRequests('arcane-os:', {
                send: (record, related) => {
                    if (related !== undefined && output.sendRelated !== undefined)
                        output.sendRelated(record, related);
                    else output.send(record);
                },
                timedOut: (method, ms) =>
                    new McpAskError(
                        'timeout',
                        `The client did not answer ${method} within ${ms} ms; it was told to stop`,
                    ),
                remoteError: (method, error) =>
                    new McpAnswerError(method, error.code, error.message, error.data),
                invalidResponse: (method, problem) =>
                    new McpAskError(
                        'invalid-response',
                        `The client's answer to ${method} is not valid: ${problem}`,
                    ),
            });
            if (this.#ended !== undefined) this.#outgoing.rejectAll(this.#ended);
        }
        return this.#outgoing;
    }

    /** A response from the client: true when it answered one of the handlers' questions. */
    answered(message: JsonObject): boolean {
        return this.#outgoing?.receive(message) ?? false;
    }

    /** The session ended: every open question rejects with `error`, and every later one. */
    endQuestions(error: unknown): void {
        this.#ended = error;
        this.#outgoing?.rejectAll(error);
    }

    /** Calls not answered yet: their handlers run, or settled and wait for the end of the turn. */
    get running(): number {
        return this.#running;
    }

    /** Resolves once every call is answered (`running` is 0). */
    whenAllAnswered(): Promise<void> {
        if (this.#running === 0) return Promise.resolve();
        return new Promise((resolve) => this.#waiters.push(resolve));
    }

    /** A call that is not answered yet holds `id`. */
    inUse(id: RequestId): boolean {
        return this.#current?.requestId === id || this.#active.has(id);
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

    /**
     * Runs a handler with `input` and the call's context, with no closure per call. The call counts as running, and its id as in use, from before the handler is
     * invoked until it is answered, so a handler that calls `cancel`, `drain` or `close`
     * synchronously sees itself running.
     */
    run<Input, Context>(
        call: Call,
        handler: (input: Input, context: Context) => unknown,
        input: Input,
    ): void {
        const outer = this.#current;
        if (outer !== undefined) this.#active.set(outer.requestId, outer);
        this.#current = call;
        this.#running += 1;
        let outcome: unknown;
        let pending: boolean;
        try {
            outcome = handler(input, call.context as unknown as Context);
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
        const fulfilled = (value: unknown) => call.settle(true, value);
        const rejected = (error: unknown) => call.settle(false, error);
        // An ordinary native promise takes the reactions directly: the engine calls exactly one of
        // them once, and this skips a wrapper promise and its two adoption ticks. `then` can still
        // throw before registering them (a throwing constructor getter or species); that case,
        // like every other thenable, is adopted through the executor, which never throws here.
        // Kept inline, not in a function of its own (bench/LOG.md, entry 13).
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

    /** `call`'s promise settled: it is answered at the end of this turn, in settlement order. */
    queueAnswer(call: Call): void {
        if (this.#answerQueue.push(call) === 1) setImmediate(this.#answerQueued);
    }

    /** Answers now the calls that settled since the last answer, in settlement order. */
    flush(): void {
        const queue = this.#answerQueue;
        if (queue.length === 0) return;
        this.#answerQueue = [];
        // Indexed: a fresh process runs this in the interpreter, where `for…of` allocates
        // (bench/LOG.md, entry 33).
        for (let index = 0; index < queue.length; index += 1) {
            const call = queue[index] as Call;
            this.#active.delete(call.requestId);
            const outcome = call.outcome;
            call.outcome = undefined;
            answer(this.output, call, call.fulfilled, outcome);
        }
        this.#release(queue.length);
    }

    /** Answers a handler that returned or threw synchronously. */
    #finish(call: Call, fulfilled: boolean, value: unknown): void {
        if (this.#current === call) this.#current = undefined;
        else this.#active.delete(call.requestId);
        answer(this.output, call, fulfilled, value);
        this.#release(1);
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
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
    return (
        (typeof value === 'object' || typeof value === 'function') &&
        value !== null &&
        typeof (value as {then?: unknown}).then === 'function'
    );
}
