/**
 * Answering the server: the handlers a caller gives for elicitation, sampling and roots, the
 * capabilities they declare (exactly those), the answer to a legacy server request, and the
 * modern era's rounds: a result asking for input is fulfilled with the same handlers and the
 * request sent again, with a new id, the answers and the exact `requestState`.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {JsonObject} from '../protocol/types.js';
import {McpClientError, McpProtocolViolationError} from './errors.js';
import type {AnswerServer, Rounds} from './request-terms.js';

/** A handler receives the request's `params` as the server sent them and returns its result. */
export type ServerRequestHandler = (params: JsonObject) => JsonObject | Promise<JsonObject>;

/** What the client can answer. Each handler given declares its capability; none is declared otherwise. */
export interface ServerRequestHandlers {
    /**
     * `elicitation/create`, by mode. An accepted form answer gets, for each field of the
     * requested schema it leaves out, that field's `default`.
     */
    elicitation?: {form?: ServerRequestHandler; url?: ServerRequestHandler};
    /** `sampling/createMessage`. */
    sampling?: ServerRequestHandler;
    /** `roots/list`: returns `{roots: [...]}`. */
    roots?: ServerRequestHandler;
}

/** How many times a modern request is sent again for input before the call fails. */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** The requests whose modern result may ask for input. */
const ROUND_METHODS = new Set(['tools/call', 'resources/read', 'prompts/get']);

export function checkHandlers(where: string, value: unknown): ServerRequestHandlers {
    if (value === undefined) return {};
    if (!isObject(value)) throw new TypeError(`${where}: handlers must be an object, got ${describe(value)}`);
    const known = ['elicitation', 'sampling', 'roots'];
    for (const key of Object.keys(value)) {
        if (!known.includes(key)) {
            throw new TypeError(
                `${where}: handlers.${key} is not a handler this client takes (${known.join(', ')})`,
            );
        }
    }
    const fn = (name: string, handler: unknown): ServerRequestHandler | undefined => {
        if (handler === undefined || typeof handler === 'function') return handler as ServerRequestHandler;
        throw new TypeError(`${where}: handlers.${name} must be a function, got ${describe(handler)}`);
    };
    const checked: ServerRequestHandlers = {};
    const elicitation = value.elicitation;
    if (elicitation !== undefined) {
        if (!isObject(elicitation) || Object.keys(elicitation).some((k) => k !== 'form' && k !== 'url')) {
            throw new TypeError(
                `${where}: handlers.elicitation must be an object with "form" and/or "url" functions, got ${describe(elicitation)}`,
            );
        }
        const form = fn('elicitation.form', elicitation.form);
        const url = fn('elicitation.url', elicitation.url);
        if (form !== undefined || url !== undefined) {
            checked.elicitation = {};
            if (form !== undefined) checked.elicitation.form = form;
            if (url !== undefined) checked.elicitation.url = url;
        }
    }
    const sampling = fn('sampling', value.sampling);
    if (sampling !== undefined) checked.sampling = sampling;
    const roots = fn('roots', value.roots);
    if (roots !== undefined) checked.roots = roots;
    return checked;
}

/** The client capabilities the handlers declare. */
export function capabilitiesOf(handlers: ServerRequestHandlers): JsonObject {
    const capabilities: JsonObject = {};
    const {elicitation, sampling, roots} = handlers;
    if (elicitation !== undefined) {
        const modes: JsonObject = {};
        if (elicitation.form !== undefined) modes.form = {};
        if (elicitation.url !== undefined) modes.url = {};
        capabilities.elicitation = modes;
    }
    if (sampling !== undefined) capabilities.sampling = {};
    if (roots !== undefined) capabilities.roots = {};
    return capabilities;
}

/** Answers one server request with its handler; `undefined` when there is none for it. */
export function answerer(handlers: ServerRequestHandlers): AnswerServer {
    return (method, given) => {
        const params = given ?? {};
        let handler: ServerRequestHandler | undefined;
        if (method === 'elicitation/create') {
            handler = params.mode === 'url' ? handlers.elicitation?.url : handlers.elicitation?.form;
        } else if (method === 'sampling/createMessage') handler = handlers.sampling;
        else if (method === 'roots/list') handler = handlers.roots;
        if (handler === undefined) return undefined;
        const run = handler;
        return (async () => {
            const result: unknown = await run(params);
            if (!isObject(result)) {
                throw new TypeError(`the handler returned ${describe(result)}, not a result object`);
            }
            const plain = JSON.parse(JSON.stringify(result)) as JsonObject;
            return method === 'elicitation/create' && params.mode !== 'url'
                ? withDefaults(params, plain)
                : plain;
        })();
    };
}

/** An accepted form answer completed with the requested schema's defaults for the fields it omits. */
function withDefaults(params: JsonObject, result: JsonObject): JsonObject {
    const schema = params.requestedSchema;
    const properties = isObject(schema) ? schema.properties : undefined;
    if (result.action !== 'accept' || !isObject(properties)) return result;
    const content: JsonObject = isObject(result.content) ? {...result.content} : {};
    for (const [field, property] of Object.entries(properties)) {
        if (!Object.hasOwn(content, field) && isObject(property) && Object.hasOwn(property, 'default')) {
            content[field] = property.default;
        }
    }
    return {...result, content};
}

/** The modern era's rounds, up to `maxRounds` requests sent again. */
export function inputRounds(answer: AnswerServer, maxRounds: number): Rounds {
    return async (method, params, once) => {
        let sent = params;
        for (let round = 0; ; round++) {
            const result = await once(sent);
            if (!isObject(result) || result.resultType !== 'input_required') return result;
            if (!ROUND_METHODS.has(method)) {
                throw new McpProtocolViolationError(
                    `The MCP server asked for input in answer to ${method}, which only tools/call, resources/read and prompts/get may`,
                );
            }
            if (round >= maxRounds) {
                throw new McpClientError(
                    `The MCP server still asked for input after ${maxRounds} rounds of ${method}; ` +
                        'raise maxInputRounds if it needs more',
                );
            }
            const {inputRequests, requestState} = result;
            if (inputRequests !== undefined && !isObject(inputRequests)) {
                throw new McpProtocolViolationError(
                    `The MCP server's input request for ${method} has "inputRequests" that are not an object`,
                );
            }
            if (requestState !== undefined && typeof requestState !== 'string') {
                throw new McpProtocolViolationError(
                    `The MCP server's input request for ${method} has a "requestState" that is not a string`,
                );
            }
            sent = {...params};
            delete sent.inputResponses;
            delete sent.requestState;
            if (inputRequests !== undefined)
                sent.inputResponses = await fulfil(answer, method, inputRequests);
            if (requestState !== undefined) sent.requestState = requestState;
        }
    };
}

async function fulfil(answer: AnswerServer, method: string, inputRequests: JsonObject): Promise<JsonObject> {
    const responses: JsonObject = {};
    for (const [key, request] of Object.entries(inputRequests)) {
        const asked = isObject(request) && typeof request.method === 'string' ? request.method : undefined;
        const params = isObject(request) && isObject(request.params) ? request.params : undefined;
        const answering = asked === undefined ? undefined : answer(asked, params);
        if (answering === undefined) {
            throw new McpProtocolViolationError(
                `The MCP server asked, in answer to ${method}, for ${JSON.stringify(key)} by ${asked ?? 'no method'}, ` +
                    'which this client declared no capability for',
            );
        }
        responses[key] = await answering;
    }
    return responses;
}
