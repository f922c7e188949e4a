/**
 * One call's questions: `elicit`, `createMessage` and `listRoots` of its handler context.
 *
 * Earlier revisions send each question to the client as a request of its own on the session and
 * resolve with the client's answer. 2026-07-28 replays: a question whose answer the request
 * carries (in its verified `requestState`, or its `inputResponses`) resolves at once; the
 * unanswered questions asked until the end of that turn end the run: the request is answered
 * `input_required` with them and with a state that records every answer used so far, the
 * handler's signal aborts with an `McpAskError` of code `'input-required'`, and the handler runs
 * again from the start when the client retries.
 */
import type {OutgoingRequests} from '../../../jsonrpc/outgoing.js';
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import {McpAskError} from './errors.js';
import {InputRequired} from './input-required.js';
import type {AskMethod, AskRequestOptions} from './questions.js';
import {
    answerProblem,
    checkCreateMessage,
    checkElicit,
    checkOptions,
    missingCapability,
} from './questions.js';
import type {Replay} from './replay.js';
import {ASKING_METHODS} from './replay.js';
import type {AskSettings} from './settings.js';
import type {Recorded} from './state.js';
import {paramsDigest, questionDigest} from './state.js';

/** What a question needs of its call. */
export interface AskingCall {
    readonly requestId: RequestId;
    readonly method: string;
    readonly era: {readonly modern: boolean};
    readonly context: {readonly params: JsonObject; readonly clientCapabilities: JsonObject};
    readonly signal: AbortSignal;
    /** The handler has not settled, nor was the call answered or cancelled. */
    readonly open: boolean;
    /** Answers the call with `outcome` now and aborts its signal with `reason`. */
    suspend(outcome: unknown, reason: unknown): void;
    describe(): string;
}

/** What a question needs of its session. */
export interface AskHost {
    readonly outgoing: OutgoingRequests;
    readonly asking: AskSettings;
}

interface Question extends Recorded {
    readonly method: AskMethod;
    readonly params: JsonObject;
    readonly promise: Promise<JsonObject>;
    readonly reject: (reason: unknown) => void;
}

const KEY_PREFIX = {
    'elicitation/create': 'elicitation',
    'sampling/createMessage': 'sampling',
    'roots/list': 'roots',
} as const;

export class Asker {
    readonly #call: AskingCall;
    readonly #host: AskHost;
    readonly #replay: Replay | undefined;
    #count = 0;
    /** Answers this run used, by key: the next state records them. */
    readonly #used = new Map<string, Recorded>();
    /** Unanswered questions asked in this turn. */
    #round: Map<string, Question> | undefined;
    /** Set once the run ended on a round: later questions reject with it. */
    #over: McpAskError | undefined;

    constructor(call: AskingCall, host: AskHost, replay: Replay | undefined) {
        this.#call = call;
        this.#host = host;
        this.#replay = replay;
    }

    readonly elicit = (request: unknown, options?: unknown): Promise<JsonObject> =>
        this.#ask('elicitation/create', checkElicit(request), checkOptions('context.elicit()', options));

    readonly createMessage = (request: unknown, options?: unknown): Promise<JsonObject> =>
        this.#ask(
            'sampling/createMessage',
            checkCreateMessage(request),
            checkOptions('context.createMessage()', options),
        );

    readonly listRoots = (options?: unknown): Promise<JsonObject> =>
        this.#ask('roots/list', {}, checkOptions('context.listRoots()', options));

    #ask(method: AskMethod, params: JsonObject, options: AskRequestOptions): Promise<JsonObject> {
        const call = this.#call;
        try {
            JSON.stringify(params);
        } catch (error) {
            throw new TypeError(
                `The ${method} request cannot be serialized as JSON: ${(error as Error).message}`,
            );
        }
        if (!call.open) {
            if (call.signal.aborted) return Promise.reject(call.signal.reason);
            return Promise.reject(
                new McpAskError(
                    'request-answered',
                    `The ${call.describe()} was already answered: ask before returning`,
                ),
            );
        }
        const missing = missingCapability(method, params, call.context.clientCapabilities);
        if (missing !== undefined) {
            return Promise.reject(
                new McpAskError(
                    'unsupported-capability',
                    `The client declared no ${missing} capability, so ${method} was not sent; check context.clientCapabilities before asking`,
                ),
            );
        }
        if (!call.era.modern) return this.#send(method, params, options);
        if (!ASKING_METHODS.has(call.method)) {
            return Promise.reject(
                new McpAskError(
                    'unsupported-method',
                    `Under 2026-07-28 only tools/call, prompts/get and resources/read can ask; this is ${call.method}`,
                ),
            );
        }
        return this.#replayed(method, params, options);
    }

    /** Earlier revisions: the question goes to the client now. */
    async #send(method: AskMethod, params: JsonObject, options: AskRequestOptions): Promise<JsonObject> {
        const answer = await this.#host.outgoing.request(method, params, {
            timeoutMs: options.timeoutMs ?? this.#host.asking.timeoutMs,
            signal: this.#call.signal,
            related: this.#call.requestId,
        });
        const problem = answerProblem(method, answer);
        if (problem !== undefined) {
            throw new McpAskError(
                'invalid-response',
                `The client's answer to ${method} is not valid: ${problem}`,
            );
        }
        return answer as JsonObject;
    }

    /** 2026-07-28: answered from the request, or asked in this turn's round. */
    #replayed(method: AskMethod, params: JsonObject, options: AskRequestOptions): Promise<JsonObject> {
        if (this.#over !== undefined) return Promise.reject(this.#over);
        this.#count += 1;
        const key = options.key ?? `${KEY_PREFIX[method]}-${this.#count}`;
        const question = questionDigest(method, params);
        const earlier = this.#used.get(key) ?? this.#round?.get(key);
        if (earlier !== undefined) {
            if (earlier.question !== question) {
                throw new TypeError(
                    `The question key ${JSON.stringify(key)} was already used for another question in this request`,
                );
            }
            return 'promise' in earlier ? (earlier as Question).promise : Promise.resolve(earlier.answer);
        }
        const replay = this.#replay;
        const recorded = replay?.recorded.get(key);
        if (recorded !== undefined && recorded.question === question) {
            this.#used.set(key, recorded);
            return Promise.resolve(recorded.answer);
        }
        const response =
            replay !== undefined && Object.hasOwn(replay.responses, key) ? replay.responses[key] : undefined;
        // A key the state records belongs to its earlier question; an answer that does not fit is asked again.
        if (
            recorded === undefined &&
            response !== undefined &&
            answerProblem(method, response) === undefined
        ) {
            this.#used.set(key, {question, answer: response});
            return Promise.resolve(response);
        }
        return this.#enqueue(key, method, params, question);
    }

    #enqueue(key: string, method: AskMethod, params: JsonObject, question: string): Promise<JsonObject> {
        let round = this.#round;
        if (round === undefined) {
            round = new Map();
            this.#round = round;
            setImmediate(() => this.#endRound());
        }
        let reject!: (reason: unknown) => void;
        const promise = new Promise<JsonObject>((_resolve, rejectPromise) => {
            reject = rejectPromise;
        });
        // The run's end rejects every question: one the handler let go must not be an unhandled rejection.
        promise.catch(() => {});
        round.set(key, {method, params, question, answer: {}, promise, reject});
        return promise;
    }

    #endRound(): void {
        const round = this.#round as Map<string, Question>;
        this.#round = undefined;
        const call = this.#call;
        if (!call.open) {
            const reason = call.signal.aborted
                ? call.signal.reason
                : new McpAskError(
                      'request-answered',
                      `The ${call.describe()} was answered before its questions`,
                  );
            for (const question of round.values()) question.reject(reason);
            return;
        }
        const inputRequests: JsonObject = {};
        for (const [key, {method, params}] of round) inputRequests[key] = {method, params};
        const requestState = this.#host.asking.codec.seal(
            call.method,
            paramsDigest(call.context.params),
            this.#used,
        );
        const json = JSON.stringify({resultType: 'input_required', inputRequests, requestState});
        const reason = new McpAskError(
            'input-required',
            `The ${call.describe()} was answered input_required; the handler runs again when the client retries with the answers`,
        );
        this.#over = reason;
        call.suspend(new InputRequired(json), reason);
        for (const question of round.values()) question.reject(reason);
    }
}
