/**
 * The private-field stamp call.ts uses to find a handler context's call, for the micro benches:
 * `new CallStamp(context, call)` adds a private field to `context` itself (the base constructor
 * returns its target), and `CallStamp.find(context)` reads it, on the context or a prototype of it.
 */
class Stamp {
    constructor(target) {
        // biome-ignore lint/correctness/noConstructorReturn: the technique under test
        return target;
    }
}

export class CallStamp extends Stamp {
    #call;
    constructor(target, call) {
        super(target);
        this.#call = call;
    }
    static find(context) {
        for (let at = context; at !== null; at = Object.getPrototypeOf(at)) {
            if (#call in at) return at.#call;
        }
        return undefined;
    }
}
