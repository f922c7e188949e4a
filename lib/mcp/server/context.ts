/**
 * The handler context's machinery: the private stamp that ties a context to its call, the getters
 * every context shares, and the plain object each context starts as. `call.ts` builds the context
 * from these; the reasons for each choice are measured ones, kept beside the code they explain.
 */
import type {Asker} from './asking/asker.js';
import type {LoggingLevel, ProgressUpdate} from './types.js';

/** What the shared getters read of the call a context is stamped with. */
export interface ContextSource {
    readonly signal: AbortSignal;
    readonly reportProgress: (update: ProgressUpdate) => boolean;
    readonly log: (level: LoggingLevel, data: unknown, logger?: string) => boolean;
    readonly asker: Asker;
}

/** Lets a subclass constructor add private fields to an object it did not create. */
class Stamp {
    constructor(target: object) {
        // biome-ignore lint/correctness/noConstructorReturn: the point of this class
        return target;
    }
}

/**
 * Attaches a call to its handler context as a private field: invisible to reflection, unlike a
 * symbol key, and cheaper to build and to read than a module-level WeakMap or a non-enumerable
 * symbol key behind the same shared getter (`bench/micro/context.mjs`; bench/LOG.md, entry 4).
 */
export class CallStamp extends Stamp {
    #call: ContextSource;

    constructor(target: object, call: ContextSource) {
        super(target);
        this.#call = call;
    }

    /** The call stamped on `context` or on the nearest object of its prototype chain. */
    static find(context: object | null): ContextSource | undefined {
        for (let at = context; at !== null; at = Object.getPrototypeOf(at) as object | null) {
            if (#call in at) return (at as CallStamp).#call;
        }
        return undefined;
    }
}

/**
 * The context's own `signal` getter: one function shared by every context. A method named `get`,
 * as the getter of a descriptor literal would be.
 */
export const signalOfContext = {
    get(this: object): AbortSignal | undefined {
        return CallStamp.find(this)?.signal;
    },
}.get;

/**
 * The context's own `reportProgress` getter, shared the same way: it hands out the call's own
 * function, created on first use, so `const {reportProgress} = context` works unbound: cheaper than
 * an eagerly created per-call function as a data property (bench/LOG.md, entry 9).
 */
export const reportProgressOfContext = {
    get(this: object): ((update: ProgressUpdate) => boolean) | undefined {
        return CallStamp.find(this)?.reportProgress;
    },
}.get;

/** The context's own `log` getter, shared the same way as `reportProgress`'s. */
export const logOfContext = {
    get(this: object): ((level: LoggingLevel, data: unknown, logger?: string) => boolean) | undefined {
        return CallStamp.find(this)?.log;
    },
}.get;
/** The context's `elicit`, `createMessage` and `listRoots`: the call's asker's own functions. */
const askerMember = (name: 'elicit' | 'createMessage' | 'listRoots') =>
    ({
        get(this: object): Asker[typeof name] | undefined {
            return CallStamp.find(this)?.asker[name];
        },
    }).get;

export const ELICIT = askerMember('elicit');
export const CREATE_MESSAGE = askerMember('createMessage');
export const LIST_ROOTS = askerMember('listRoots');

/**
 * Defines an enumerable, configurable getter without a setter; the freeze that follows makes it
 * non-configurable, so the context ends with exactly the descriptor `Object.defineProperty` with
 * `{enumerable: true, configurable: false, get}` gives, without reading a descriptor object
 * (bench/LOG.md, entry 9). Taken from `Object.prototype` once, so a later change to it cannot reach
 * the context.
 */
export const defineGetter = (Object.prototype as unknown as {__defineGetter__: DefineGetter})
    .__defineGetter__;
type DefineGetter = (this: object, key: string, get: (this: object) => unknown) => void;

/**
 * What every context is made with: a plain object (its prototype is `Object.prototype`, as for
 * `{}`), on shapes of this module's own. Built from `{}`, contexts shared V8's shape tree with
 * every empty literal in the process, and once any other code (a second copy of this package, say)
 * had put a `signal` getter of its own first on an empty object, every context of ours fell into
 * dictionary mode, several times as slow to build (bench/LOG.md, entry 9).
 */
export const Context = function (this: object): void {} as unknown as new () => {[key: string]: unknown};
Context.prototype = Object.prototype;
