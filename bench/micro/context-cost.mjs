/**
 * What building a handler context costs, piece by piece, as call.ts builds it (a plain object on
 * shapes of its own, a `signal` getter, a private stamp, six data fields, five more getters,
 * frozen), cold (the first 10,000 in a fresh process) and warm (200,000 after them): CPU ns per
 * context. One variant per process, so each starts cold:
 *
 *   for v in full two stamp bare defineProperties; do node bench/micro/context-cost.mjs $v; done
 *
 * full: as call.ts; two: only `signal` and `reportProgress` as getters; stamp: no getter, no
 * freeze; bare: the object and its data fields alone; defineProperties: the five later getters
 * defined by one `Object.defineProperties` from a shared descriptor map (bench/LOG.md, entry 29).
 */
import {CallStamp} from './stamp.mjs';

const variant = process.argv[2] ?? 'full';
const VARIANTS = ['full', 'two', 'stamp', 'bare', 'defineProperties'];
if (!VARIANTS.includes(variant)) throw new RangeError(`context-cost: choose one of ${VARIANTS.join(', ')}`);

const getterOf = (name) =>
    ({
        get() {
            return CallStamp.find(this)?.[name];
        },
    }).get;
const SIGNAL = getterOf('signal');
const LATER = ['reportProgress', 'log', 'elicit', 'createMessage', 'listRoots'].map((name) => [
    name,
    getterOf(name),
]);
const DESCRIPTORS = Object.fromEntries(
    LATER.map(([name, get]) => [name, {get, enumerable: true, configurable: true}]),
);
const defineGetter = Object.prototype.__defineGetter__;
// biome-ignore lint/complexity/useArrowFunction: `new` needs a constructor, as call.ts has
const Context = function () {};
Context.prototype = Object.prototype;

function build(call, id, params, client) {
    const context = new Context();
    const getters = variant !== 'stamp' && variant !== 'bare';
    if (getters) defineGetter.call(context, 'signal', SIGNAL);
    if (variant !== 'bare') new CallStamp(context, call);
    context.requestId = id;
    context.method = 'tools/call';
    context.params = params;
    context.clientInfo = client.clientInfo;
    context.clientCapabilities = client.clientCapabilities;
    context.protocolVersion = client.protocolVersion;
    if (variant === 'full') {
        defineGetter.call(context, 'reportProgress', LATER[0][1]);
        defineGetter.call(context, 'log', LATER[1][1]);
        defineGetter.call(context, 'elicit', LATER[2][1]);
        defineGetter.call(context, 'createMessage', LATER[3][1]);
        defineGetter.call(context, 'listRoots', LATER[4][1]);
    } else if (variant === 'two') {
        defineGetter.call(context, 'reportProgress', LATER[0][1]);
    } else if (variant === 'defineProperties') {
        Object.defineProperties(context, DESCRIPTORS);
    }
    return getters ? Object.freeze(context) : context;
}

const client = {
    clientInfo: {name: 'bench', version: '1'},
    clientCapabilities: {},
    protocolVersion: '2025-11-25',
};
const kept = new Array(10000);
const cpu = () => {
    const used = process.cpuUsage();
    return used.user + used.system;
};
let start = cpu();
for (let index = 0; index < 10000; index += 1) kept[index] = build({}, index, {name: 'sleep'}, client);
const cold = ((cpu() - start) * 1000) / 10000;
start = cpu();
for (let round = 0; round < 20; round += 1) {
    for (let index = 0; index < 10000; index += 1) kept[index] = build({}, index, {name: 'sleep'}, client);
}
const warm = ((cpu() - start) * 1000) / 200000;
process.stdout.write(`${variant} cold ${cold.toFixed(0)} ns, warm ${warm.toFixed(0)} ns per context\n`);
