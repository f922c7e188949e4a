/**
 * A 2026-07-28 retry: its `requestState` opened and its `inputResponses` checked before the handler
 * runs again, so a bad one is answered `-32602` and the handler never sees it.
 */
import type {JsonObject} from '../../../jsonrpc/records.js';
import {isObject} from '../../../jsonrpc/records.js';
import {describe} from '../../../util/describe.js';
import type {AskSettings} from './settings.js';
import type {Recorded} from './state.js';
import {paramsDigest} from './state.js';

/** The methods whose handlers may ask under 2026-07-28 (and so answer `input_required`). */
export const ASKING_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What a handler's questions are answered from when it runs again. */
export interface Replay {
    /** Earlier rounds' answers, from the verified state: each bound to the question it answered. */
    readonly recorded: ReadonlyMap<string, Recorded>;
    /** This retry's `inputResponses`, each an object, by key. */
    readonly responses: Readonly<Record<string, JsonObject>>;
}

const NO_ANSWERS: ReadonlyMap<string, Recorded> = new Map();

/**
 * The replay of `params`, `undefined` when it carries neither field, or the message of the
 * `-32602` it is answered with.
 */
export function readReplay(
    asking: AskSettings,
    method: string,
    params: JsonObject,
): Replay | string | undefined {
    const hasState = Object.hasOwn(params, 'requestState');
    const hasResponses = Object.hasOwn(params, 'inputResponses');
    if (!hasState && !hasResponses) return undefined;
    const responses = params.inputResponses;
    if (hasResponses) {
        if (!isObject(responses)) {
            return `${method} "params.inputResponses" must be an object of answers by key, got ${describe(responses)}`;
        }
        for (const [key, answer] of Object.entries(responses)) {
            if (!isObject(answer)) {
                return `${method} "params.inputResponses" has ${describe(answer)} for ${JSON.stringify(key)}: each answer must be a result object`;
            }
        }
    }
    let recorded = NO_ANSWERS;
    if (hasState) {
        const state = params.requestState;
        if (typeof state !== 'string') {
            return `${method} "params.requestState" must be the string this server issued, got ${describe(state)}`;
        }
        const opened = asking.codec.open(state, method, paramsDigest(params));
        if (typeof opened === 'string') {
            return `${method} "params.requestState" was rejected: ${opened}; send the request again without requestState and inputResponses to start over`;
        }
        recorded = opened;
    }
    return {recorded, responses: (responses ?? {}) as Record<string, JsonObject>};
}
