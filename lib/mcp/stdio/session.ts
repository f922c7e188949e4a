/**
 * One MCP session, independent of streams: it takes records in, and sends records and diagnostics
 * out through `SessionOutput`. It owns the initialize lifecycle, request correlation by id, handler
 * dispatch and cooperative cancellation.
 *
 * Handlers run as soon as their request is read and independently of each other. A handler that
 * returns at once is answered at once; one that returns a promise is answered at the end of the
 * event-loop turn in which it settles, together with every other promise that settled in that turn
 * (timers that fire together, say), so a burst of answers reaches the writer as a burst and leaves in
 * one or two writes instead of one system call each. Those answers are also sent before the next
 * input record is handled, so responses keep completion order. A call counts as running, and its id
 * as in use, from before its handler is invoked until it is answered. A cancelled request is never
 * answered.
 */

import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {classify, errorRecord, isObject, isRequestId, resultRecord} from '../../jsonrpc/records.js';
import type {Catalog} from './catalog.js';
import {formatDiagnostic, messageOf} from './diagnostics.js';
import {ErrorCode, McpProtocolError} from './errors.js';
import type {HandlerContext, Implementation} from './types.js';

export interface SessionOutput {
    /** Sends one whole JSON-RPC record, line feed included. */
    send(record: string): void;
    /** Reports one diagnostic record. */
    diagnose(text: string): void;
}

type Method = 'tools/call' | 'resources/read';

/** Lets a subclass constructor add private fields to an object it did not create. */
class Stamp {
    constructor(target: object) {
        // biome-ignore lint/correctness/noConstructorReturn: the point of this class
        return target;
    }
}

/** Attaches a call to its handler context as a private field: invisible to reflection. */
class CallStamp extends Stamp {
    #call: Call;

    constructor(target: object, call: Call) {
        super(target);
        this.#call = call;
    }

    /** The call stamped on `context` or on the nearest object of its prototype chain. */
    static find(context: object | null): Call | undefined {
        for (let at = context; at !== null; at = Object.getPrototypeOf(at) as object | null) {
            if (#call in at) return (at as CallStamp).#call;
        }
        return undefined;
    }
}

/** The context's own `signal` property: one getter shared by every context. */
const SIGNAL: PropertyDescriptor = Object.freeze({
    enumerable: true,
    configurable: false,
    get(this: object): AbortSignal | undefined {
        return CallStamp.find(this)?.signal;
    },
});

/** One running handler: the state correlation and cancellation need, and the handler's context. */
class Call {
    readonly requestId: RequestId;
    readonly method: Method;
    /** The tool name or resource uri. */
    readonly target: string;
    /**
     * What the handler sees: a plain frozen object with `signal` as its own property, so that
     * `{...context}` keeps it and no internal state is reachable from a handler.
     */
    readonly context: HandlerContext;
    cancelled = false;
    /** The handler's promise settled; its answer waits for the end of the turn. */
    settled = false;
    /** How the handler's promise settled, kept until the turn-end answer. */
    fulfilled = false;
    outcome: unknown;
    #reason: unknown;
    #controller: AbortController | undefined;

    constructor(session: Session, id: RequestId, method: Method, params: JsonObject, target: string) {
        this.requestId = id;
        this.method = method;
        this.target = target;
        // An object literal with its own getter costs V8 about 0.8 us and leaves a slow
        // dictionary-mode object. Defining one shared getter first keeps the object on a cached
        // fast shape (about 0.25 us); the getter finds this call through a private stamp, which a
        // handler cannot reach.
        const context = Object.defineProperty({}, 'signal', SIGNAL) as {[key: string]: unknown};
        new CallStamp(context, this);
        context.requestId = id;
        context.method = method;
        context.params = params;
        context.clientInfo = session.clientInfo;
        context.clientCapabilities = session.clientCapabilities;
        context.protocolVersion = session.protocolVersion;
        this.context = Object.freeze(context) as unknown as HandlerContext;
    }

    /** Created on first use: most handlers that finish at once never look at it. */
    get signal(): AbortSignal {
        if (this.#controller === undefined) {
            this.#controller = new AbortController();
            if (this.cancelled) this.#controller.abort(this.#reason);
        }
        return this.#controller.signal;
    }

    cancel(reason: unknown): void {
        this.cancelled = true;
        this.#reason = reason;
        this.#controller?.abort(reason);
    }

    /** The thrown value is this call's own abort reason (or the default one): no news worth a diagnostic. */
    isAbortOutcome(thrown: unknown): boolean {
        if (this.#controller !== undefined && thrown === this.#controller.signal.reason) return true;
        return thrown === this.#reason || (thrown instanceof Error && thrown.name === 'AbortError');
    }

    describe(): string {
        const what = this.method === 'tools/call' ? 'tool' : 'resource';
        return `${this.method} of ${what} ${JSON.stringify(this.target)} (request id ${JSON.stringify(this.requestId)})`;
    }
}

export class Session {
    readonly #catalog: Catalog;
    readonly #output: SessionOutput;
    readonly #active = new Map<RequestId, Call>();
    /** Calls whose promise settled in this turn, in settlement order, waiting for their answer. */
    #settled: Call[] = [];
    #running = 0;
    readonly #answerSettled = () => this.#answer();
    #waiters: (() => void)[] = [];
    #initialized = false;
    clientInfo: Implementation = {name: '', version: ''};
    clientCapabilities: JsonObject = {};
    protocolVersion: string;

    constructor(catalog: Catalog, output: SessionOutput) {
        this.#catalog = catalog;
        this.#output = output;
        this.protocolVersion = catalog.protocolVersions[0] as string;
    }

    /** Handlers whose outcome has not settled yet. */
    get running(): number {
        return this.#running;
    }

    /** Resolves once no handler is running. */
    whenSettled(): Promise<void> {
        if (this.#running === 0) return Promise.resolve();
        return new Promise((resolve) => this.#waiters.push(resolve));
    }

    /** Signals the running handler of `id`; true only when it was running and not yet cancelled. */
    cancel(id: RequestId, reason: unknown): boolean {
        const call = this.#active.get(id);
        if (call === undefined || call.cancelled || call.settled) return false;
        call.cancel(reason);
        return true;
    }

    /** Signals every running handler that is not cancelled yet. */
    cancelAll(reason: unknown): void {
        for (const call of this.#active.values()) {
            if (!call.cancelled && !call.settled) call.cancel(reason);
        }
    }

    /** One complete input record. Handlers that settled before it arrived are answered first. */
    receive(text: string): void {
        if (this.#settled.length > 0) this.#answer();
        let message: unknown;
        try {
            message = JSON.parse(text);
        } catch (error) {
            this.#output.send(
                errorRecord(undefined, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`),
            );
            this.#output.diagnose(
                formatDiagnostic(
                    `Answered -32700: this input line is not valid JSON: ${JSON.stringify(text)}`,
                ),
            );
            return;
        }
        const incoming = classify(message);
        switch (incoming.kind) {
            case 'request':
                this.#request(incoming.id, incoming.method, incoming.params);
                return;
            case 'notification':
                this.#notification(incoming.method, incoming.params);
                return;
            case 'invalid':
                this.#output.send(errorRecord(incoming.id, incoming.code, incoming.message));
                return;
            case 'response':
                this.#output.diagnose(
                    formatDiagnostic(
                        `Ignored a JSON-RPC response from the client (id ${JSON.stringify(incoming.id)}): ` +
                            'this server sends no requests',
                    ),
                );
                return;
        }
    }

    /** A record over `maxMessageBytes` was discarded. */
    oversized(bytes: number): void {
        if (this.#settled.length > 0) this.#answer();
        const limit = this.#catalog.maxMessageBytes;
        const message = `The record of ${bytes} bytes exceeds the limit of ${limit} bytes (maxMessageBytes) and was discarded`;
        this.#output.send(errorRecord(undefined, ErrorCode.InvalidRequest, message));
        this.#output.diagnose(formatDiagnostic(`${message}; raise maxMessageBytes to accept larger records`));
    }

    #request(id: RequestId, method: string, params: JsonObject | undefined): void {
        if (this.#active.has(id)) {
            this.#fail(
                id,
                ErrorCode.InvalidRequest,
                `Request id ${JSON.stringify(id)} is already in use by a request in progress; use a new id for each request`,
            );
            return;
        }
        switch (method) {
            case 'ping':
                this.#output.send(resultRecord(id, '{}'));
                return;
            case 'initialize':
                this.#initialize(id, params);
                return;
            case 'tools/list':
            case 'resources/list':
            case 'resources/templates/list':
            case 'tools/call':
            case 'resources/read':
                break;
            default:
                this.#fail(id, ErrorCode.MethodNotFound, `Method not found: ${JSON.stringify(method)}`);
                return;
        }
        if (!this.#initialized) {
            this.#fail(
                id,
                ErrorCode.NotInitialized,
                `Server not initialized: send "initialize" and wait for its result before "${method}"`,
            );
            return;
        }
        switch (method) {
            case 'tools/list':
                this.#list(id, method, params, this.#catalog.toolsListJson);
                return;
            case 'resources/list':
                this.#list(id, method, params, this.#catalog.resourcesListJson);
                return;
            case 'resources/templates/list':
                this.#list(id, method, params, '{"resourceTemplates":[]}');
                return;
            case 'tools/call':
                this.#callTool(id, params);
                return;
            default:
                this.#readResource(id, params);
        }
    }

    #initialize(id: RequestId, params: JsonObject | undefined): void {
        if (this.#initialized) {
            this.#fail(
                id,
                ErrorCode.InvalidRequest,
                'The session is already initialized: send "initialize" only once',
            );
            return;
        }
        if (
            params === undefined ||
            typeof params.protocolVersion !== 'string' ||
            !isObject(params.capabilities) ||
            !isObject(params.clientInfo)
        ) {
            this.#fail(
                id,
                ErrorCode.InvalidParams,
                'initialize needs params with "protocolVersion" (a string), "capabilities" (an object) ' +
                    'and "clientInfo" (an object)',
            );
            return;
        }
        const versions = this.#catalog.protocolVersions;
        const requested = params.protocolVersion;
        this.protocolVersion = versions.includes(requested) ? requested : (versions[0] as string);
        this.clientInfo = params.clientInfo as Implementation;
        this.clientCapabilities = params.capabilities;
        this.#initialized = true;
        this.#output.send(resultRecord(id, this.#catalog.initializeResult(this.protocolVersion)));
    }

    #list(id: RequestId, method: string, params: JsonObject | undefined, json: string): void {
        if (params !== undefined && Object.hasOwn(params, 'cursor')) {
            this.#fail(
                id,
                ErrorCode.InvalidParams,
                `${method} returns the complete list in one result and takes no "cursor"`,
            );
            return;
        }
        this.#output.send(resultRecord(id, json));
    }

    #callTool(id: RequestId, params: JsonObject | undefined): void {
        const name = params?.name;
        if (params === undefined || typeof name !== 'string') {
            this.#fail(
                id,
                ErrorCode.InvalidParams,
                'tools/call needs "params.name", the tool name as a string',
            );
            return;
        }
        const handler = this.#catalog.tools.get(name);
        if (handler === undefined) {
            this.#fail(id, ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name)}`);
            return;
        }
        let args = params.arguments;
        if (args === undefined) {
            args = {};
        } else if (!isObject(args)) {
            this.#fail(id, ErrorCode.InvalidParams, `tools/call "params.arguments" must be an object`);
            return;
        }
        const call = new Call(this, id, 'tools/call', params, name);
        this.#run(call, () => handler(args as JsonObject, call.context as HandlerContext<'tools/call'>));
    }

    #readResource(id: RequestId, params: JsonObject | undefined): void {
        const uri = params?.uri;
        if (params === undefined || typeof uri !== 'string') {
            this.#fail(
                id,
                ErrorCode.InvalidParams,
                'resources/read needs "params.uri", the resource URI as a string',
            );
            return;
        }
        const handler = this.#catalog.resources.get(uri);
        if (handler === undefined) {
            this.#fail(id, ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, {uri});
            return;
        }
        const call = new Call(this, id, 'resources/read', params, uri);
        this.#run(call, () =>
            handler(params as {uri: string}, call.context as HandlerContext<'resources/read'>),
        );
    }

    /**
     * Runs a handler. The call counts as running, and its id as in use, from before the handler is
     * invoked until it is answered, so a handler that calls `cancel`, `drain` or `close`
     * synchronously sees itself running.
     */
    #run(call: Call, invoke: () => unknown): void {
        this.#active.set(call.requestId, call);
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
        const fulfilled = (value: unknown) => this.#settle(call, true, value);
        const rejected = (error: unknown) => this.#settle(call, false, error);
        // An ordinary native promise takes the reactions directly: the engine calls exactly one of
        // them once, and this skips a wrapper promise and its two adoption ticks. `then` can still
        // throw before registering them (a throwing constructor getter or species); that case,
        // like every other thenable, is adopted through the executor, which never throws here.
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
        this.#active.delete(call.requestId);
        this.#complete(call, fulfilled, value);
        this.#release(1);
    }

    #settle(call: Call, fulfilled: boolean, value: unknown): void {
        if (call.settled) return;
        call.settled = true;
        call.fulfilled = fulfilled;
        call.outcome = value;
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
            this.#complete(call, call.fulfilled, outcome);
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

    /** Answers a handler's outcome. Never throws: a fault while answering becomes -32603. */
    #complete(call: Call, fulfilled: boolean, value: unknown): void {
        try {
            if (fulfilled) this.#returned(call, value);
            else this.#threw(call, value);
        } catch (fault) {
            if (call.cancelled) {
                this.#output.diagnose(
                    formatDiagnostic(`The cancelled ${call.describe()} could not be settled`, fault),
                );
            } else {
                this.#internal(call, 'its outcome could not be processed', fault);
            }
        }
    }

    #returned(call: Call, result: unknown): void {
        if (call.cancelled) return;
        const container = call.method === 'tools/call' ? 'content' : 'contents';
        let json: string | undefined;
        try {
            if (!isObject(result) || !Array.isArray(result[container])) {
                const shape = call.method === 'tools/call' ? 'CallToolResult' : 'ReadResourceResult';
                this.#internal(
                    call,
                    `the handler returned an invalid ${shape}: it must be an object with a "${container}" array`,
                    result,
                );
                return;
            }
            json = JSON.stringify(result);
        } catch (error) {
            this.#internal(call, 'the result could not be serialized as JSON', error);
            return;
        }
        if (typeof json !== 'string') {
            this.#internal(
                call,
                'the result serialized to nothing (a toJSON method returned undefined)',
                result,
            );
            return;
        }
        this.#output.send(resultRecord(call.requestId, json));
    }

    #threw(call: Call, thrown: unknown): void {
        if (call.cancelled) {
            if (!call.isAbortOutcome(thrown)) {
                this.#output.diagnose(
                    formatDiagnostic(`The cancelled ${call.describe()} failed; no response is sent`, thrown),
                );
            }
            return;
        }
        if (thrown instanceof McpProtocolError) {
            this.#protocolError(call, thrown);
            return;
        }
        if (call.method === 'resources/read') {
            this.#internal(call, 'the handler threw', thrown);
            return;
        }
        const text = messageOf(thrown);
        this.#output.diagnose(
            formatDiagnostic(`The ${call.describe()} threw; answered as an isError result`, thrown),
        );
        this.#output.send(
            resultRecord(call.requestId, JSON.stringify({content: [{type: 'text', text}], isError: true})),
        );
    }

    #protocolError(call: Call, error: McpProtocolError): void {
        let record: string;
        try {
            record = errorRecord(call.requestId, error.code, error.message, error.data);
        } catch (cause) {
            this.#internal(
                call,
                'the McpProtocolError it threw has data that cannot be serialized as JSON',
                cause,
            );
            return;
        }
        this.#output.send(record);
    }

    /** Answers -32603 and reports the detail. */
    #internal(call: Call, problem: string, detail: unknown): void {
        this.#output.diagnose(
            formatDiagnostic(`The ${call.describe()} failed: ${problem}; answered -32603`, detail),
        );
        this.#fail(
            call.requestId,
            ErrorCode.InternalError,
            `Internal error in ${call.describe()}: ${problem}; the server's diagnostics have the details`,
        );
    }

    #fail(id: RequestId, code: number, message: string, data?: unknown): void {
        this.#output.send(errorRecord(id, code, message, data));
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
