/**
 * The single requests beyond tools and static resources: `prompts/get`, `completion/complete`,
 * `ping`, `logging/setLevel` and resource subscriptions. Each checks its arguments at the call
 * site, sends one request with the caller's options, and checks the answer for the shape the
 * caller relies on; the answer is otherwise returned exactly as it arrived.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {checkString} from '../../util/options.js';
import type {CompleteParams, CompleteResult, GetPromptResult, LoggingLevel} from '../protocol/features.js';
import {LOGGING_LEVELS} from '../protocol/log-levels.js';
import {McpProtocolViolationError} from './errors.js';
import type {RequestOptions} from './options.js';
import {checkRequestOptions} from './options.js';
import type {Requests} from './requests.js';

/** Sends one request; `check` returns what is wrong with its result, or undefined. */
function single(
    requests: Requests,
    where: string,
    method: string,
    params: JsonObject,
    options: unknown,
    timeoutMs: number,
    check: (result: JsonObject) => string | undefined,
): Promise<JsonObject> {
    const checked = checkRequestOptions(where, options, timeoutMs, false);
    return requests.request(method, params, {...checked, cancellable: true}).then((result) => {
        const problem = isObject(result) ? check(result) : 'is not an object';
        if (problem !== undefined) {
            throw new McpProtocolViolationError(`The MCP server's ${method} result ${problem}`);
        }
        return result as JsonObject;
    });
}

const anything = (): undefined => undefined;

export function getPrompt(
    requests: Requests,
    timeoutMs: number,
    name: unknown,
    args: unknown,
    options: RequestOptions | undefined,
): Promise<GetPromptResult> {
    const where = 'client.getPrompt';
    checkString(where, 'the prompt name', name);
    const params: JsonObject = {name: name as string};
    if (args !== undefined) {
        if (!isObject(args)) {
            throw new TypeError(`${where}: args must be an object of strings, got ${describe(args)}`);
        }
        for (const [key, value] of Object.entries(args)) {
            if (typeof value !== 'string') {
                throw new TypeError(
                    `${where}: args.${key} must be a string (prompt arguments are text), got ${describe(value)}`,
                );
            }
        }
        params.arguments = {...args};
    }
    return single(requests, where, 'prompts/get', params, options, timeoutMs, (result) =>
        Array.isArray(result.messages)
            ? undefined
            : `for ${JSON.stringify(name)} is not an object with a "messages" array`,
    ) as Promise<GetPromptResult>;
}

export function complete(
    requests: Requests,
    timeoutMs: number,
    params: unknown,
    options: RequestOptions | undefined,
): Promise<CompleteResult> {
    const sent = checkCompleteParams(params);
    return single(requests, 'client.complete', 'completion/complete', sent, options, timeoutMs, (result) => {
        const completion = result.completion;
        if (!isObject(completion) || !Array.isArray(completion.values)) {
            return 'is not an object with a "completion" object holding a "values" array';
        }
        if (!completion.values.every((value) => typeof value === 'string')) {
            return 'has a "completion.values" entry that is not a string';
        }
        return undefined;
    }) as Promise<CompleteResult>;
}

function checkCompleteParams(value: unknown): JsonObject {
    const where = 'client.complete';
    if (!isObject(value)) {
        throw new TypeError(`${where}(params) needs {ref, argument, context?}, got ${describe(value)}`);
    }
    const {ref, argument, context} = value as Partial<CompleteParams>;
    const refOk =
        isObject(ref) &&
        ((ref.type === 'ref/prompt' && typeof ref.name === 'string') ||
            (ref.type === 'ref/resource' && typeof ref.uri === 'string'));
    if (!refOk) {
        throw new TypeError(
            `${where}: ref must be {type: 'ref/prompt', name} or {type: 'ref/resource', uri}, got ${describe(ref)}`,
        );
    }
    if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
        throw new TypeError(
            `${where}: argument must be {name, value} with two strings (value: what was typed so far), got ${describe(argument)}`,
        );
    }
    if (context !== undefined) {
        const args = isObject(context) ? context.arguments : undefined;
        const ok =
            isObject(context) &&
            (args === undefined ||
                (isObject(args) && Object.values(args).every((v) => typeof v === 'string')));
        if (!ok) {
            throw new TypeError(
                `${where}: context must be {arguments?} with an object of strings, got ${describe(context)}`,
            );
        }
    }
    try {
        return JSON.parse(JSON.stringify(value)) as JsonObject;
    } catch (error) {
        throw new TypeError(`${where}: params cannot be serialized as JSON (${(error as Error).message})`, {
            cause: error,
        });
    }
}

export function ping(
    requests: Requests,
    timeoutMs: number,
    options: RequestOptions | undefined,
): Promise<void> {
    return single(requests, 'client.ping', 'ping', {}, options, timeoutMs, anything).then(() => {});
}

export function setLoggingLevel(
    requests: Requests,
    timeoutMs: number,
    level: unknown,
    options: RequestOptions | undefined,
): Promise<void> {
    const where = 'client.setLoggingLevel';
    if (typeof level !== 'string') {
        throw new TypeError(`${where}: the level must be a string, got ${describe(level)}`);
    }
    if (!LOGGING_LEVELS.includes(level as LoggingLevel)) {
        throw new RangeError(
            `${where}: the level must be one of ${LOGGING_LEVELS.join(', ')}, got ${JSON.stringify(level)}`,
        );
    }
    return single(requests, where, 'logging/setLevel', {level}, options, timeoutMs, anything).then(() => {});
}

/** `resources/subscribe` or `resources/unsubscribe`. */
export function subscription(
    requests: Requests,
    timeoutMs: number,
    subscribe: boolean,
    uri: unknown,
    options: RequestOptions | undefined,
): Promise<void> {
    const where = subscribe ? 'client.subscribeResource' : 'client.unsubscribeResource';
    checkString(where, 'the uri', uri);
    const method = subscribe ? 'resources/subscribe' : 'resources/unsubscribe';
    return single(requests, where, method, {uri: uri as string}, options, timeoutMs, anything).then(() => {});
}
