/**
 * The three questions a handler can ask: their params checked at the call site, the capability
 * each needs of the client, and the shape a valid answer has.
 */
import type {JsonObject} from '../../../jsonrpc/records.js';
import {isObject} from '../../../jsonrpc/records.js';
import {describe} from '../../../util/describe.js';

export type AskMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** The second argument of `elicit`, `createMessage` and `listRoots`. */
export interface AskRequestOptions {
    /**
     * 2026-07-28: the key of this question in `inputRequests` and `inputResponses`. Default: a key
     * from the order of the questions in the run (`"elicitation-1"`, `"sampling-2"`, …).
     */
    key?: string;
    /** Earlier revisions: this question's own timeout, in milliseconds (see the `asking` option). */
    timeoutMs?: number;
}

const FIELD_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array']);

export function checkElicit(params: unknown): JsonObject {
    const where = 'context.elicit(request)';
    if (!isObject(params)) throw new TypeError(`${where} needs a request object, got ${describe(params)}`);
    if (typeof params.message !== 'string') {
        throw new TypeError(
            `${where}: "message" must be the string shown to the user, got ${describe(params.message)}`,
        );
    }
    const mode = params.mode;
    if (mode === 'url') {
        if (typeof params.url !== 'string' || typeof params.elicitationId !== 'string') {
            throw new TypeError(`${where}: a url-mode request needs "url" and "elicitationId" strings`);
        }
        return params;
    }
    if (mode !== undefined && mode !== 'form') {
        throw new TypeError(`${where}: "mode" must be "form" or "url", got ${describe(mode)}`);
    }
    const schema = params.requestedSchema;
    if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) {
        throw new TypeError(
            `${where}: a form needs "requestedSchema", an object schema {type: "object", properties: {...}}, got ${describe(schema)}`,
        );
    }
    for (const [name, field] of Object.entries(schema.properties)) {
        // The revision restricts a form to flat fields of primitive types (and arrays of enum values).
        if (!isObject(field) || !FIELD_TYPES.has(field.type as string)) {
            throw new TypeError(
                `${where}: form field ${JSON.stringify(name)} must have "type" string, number, integer, boolean or array (of enum values); got ${describe(field)}`,
            );
        }
    }
    return params;
}

export function checkCreateMessage(params: unknown): JsonObject {
    const where = 'context.createMessage(request)';
    if (!isObject(params)) throw new TypeError(`${where} needs a request object, got ${describe(params)}`);
    if (!Array.isArray(params.messages)) {
        throw new TypeError(`${where}: "messages" must be an array, got ${describe(params.messages)}`);
    }
    const max = params.maxTokens;
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1) {
        throw new TypeError(`${where}: "maxTokens" must be a positive integer, got ${describe(max)}`);
    }
    return params;
}

export function checkOptions(where: string, options: unknown): AskRequestOptions {
    if (options === undefined) return {};
    if (!isObject(options))
        throw new TypeError(`${where}: options must be an object, got ${describe(options)}`);
    for (const name of Object.keys(options)) {
        if (name !== 'key' && name !== 'timeoutMs') {
            throw new TypeError(`${where}: unknown option "${name}"; the options are key, timeoutMs`);
        }
    }
    const {key, timeoutMs} = options;
    if (key !== undefined && (typeof key !== 'string' || key === '')) {
        throw new TypeError(`${where}: "key" must be a non-empty string, got ${describe(key)}`);
    }
    if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isSafeInteger(timeoutMs))) {
        throw new TypeError(
            `${where}: "timeoutMs" must be a whole number of milliseconds, got ${describe(timeoutMs)}`,
        );
    }
    if (timeoutMs !== undefined && (timeoutMs < 1 || timeoutMs > 2_147_483_647)) {
        throw new RangeError(`${where}: "timeoutMs" must be from 1 to 2147483647, got ${timeoutMs}`);
    }
    return options as AskRequestOptions;
}

/** The capability `method` with `params` needs, as a phrase for the error, or undefined when declared. */
export function missingCapability(
    method: AskMethod,
    params: JsonObject,
    capabilities: JsonObject,
): string | undefined {
    if (method === 'roots/list') return isObject(capabilities.roots) ? undefined : '"roots"';
    if (method === 'sampling/createMessage') {
        const sampling = capabilities.sampling;
        if (!isObject(sampling)) return '"sampling"';
        if ((params.tools !== undefined || params.toolChoice !== undefined) && !isObject(sampling.tools)) {
            return '"sampling.tools" (the request has tools)';
        }
        return undefined;
    }
    const elicitation = capabilities.elicitation;
    if (!isObject(elicitation)) return '"elicitation"';
    if (params.mode === 'url') return isObject(elicitation.url) ? undefined : '"elicitation.url"';
    // An empty elicitation capability means forms, as before modes existed.
    const declared = isObject(elicitation.form) || !Object.hasOwn(elicitation, 'url');
    return declared ? undefined : '"elicitation.form"';
}

/** What is wrong with the client's answer to `method`, or undefined when it has the right shape. */
export function answerProblem(method: AskMethod, answer: unknown): string | undefined {
    if (!isObject(answer)) return `it is ${describe(answer)}, not an object`;
    if (method === 'roots/list') return Array.isArray(answer.roots) ? undefined : 'it has no "roots" array';
    if (method === 'sampling/createMessage') {
        return typeof answer.role === 'string' && (isObject(answer.content) || Array.isArray(answer.content))
            ? undefined
            : 'it needs a "role" string and a "content" object or array';
    }
    const action = answer.action;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
        return 'its "action" is not "accept", "decline" or "cancel"';
    }
    return answer.content === undefined || isObject(answer.content)
        ? undefined
        : 'its "content" is not an object';
}
