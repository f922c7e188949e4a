/** The public shapes of the three questions and their answers, as a handler writes and reads them. */
import type {JsonObject} from '../../protocol/types.js';
import type {AskRequestOptions} from './questions.js';

export type {AskErrorCode} from './errors.js';
export type {AskRequestOptions} from './questions.js';
export type {AskOptions} from './settings.js';

/** A form field: a flat string, number, integer or boolean, or an array of enum values. */
export type ElicitField = JsonObject & {type: 'string' | 'number' | 'integer' | 'boolean' | 'array'};

/** `elicitation/create` in form mode: what to show and the flat schema of what to ask. */
export interface ElicitFormRequest {
    mode?: 'form';
    message: string;
    requestedSchema: {type: 'object'; properties: {[name: string]: ElicitField}; required?: string[]};
    [key: string]: unknown;
}

/** `elicitation/create` in url mode: a page the user opens outside the client. */
export interface ElicitUrlRequest {
    mode: 'url';
    message: string;
    url: string;
    elicitationId: string;
    [key: string]: unknown;
}

export type ElicitRequest = ElicitFormRequest | ElicitUrlRequest;

export interface ElicitResult {
    action: 'accept' | 'decline' | 'cancel';
    /** With `accept` in form mode: the answers by field name. */
    content?: {[name: string]: string | number | boolean | string[]};
    [key: string]: unknown;
}

export interface SamplingMessage {
    role: 'user' | 'assistant';
    content: JsonObject | JsonObject[];
    [key: string]: unknown;
}

/** `sampling/createMessage`: a conversation for the client's model, and a token budget. */
export interface CreateMessageRequest {
    messages: SamplingMessage[];
    maxTokens: number;
    systemPrompt?: string;
    [key: string]: unknown;
}

export interface CreateMessageResult {
    role: 'user' | 'assistant';
    content: JsonObject | JsonObject[];
    model: string;
    /** Why the model stopped: one of the four names the spec gives, or any other string. */
    stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & {});
    [key: string]: unknown;
}

export interface Root {
    uri: string;
    name?: string;
    [key: string]: unknown;
}

export interface ListRootsResult {
    roots: Root[];
    [key: string]: unknown;
}

/** The questions every handler context can ask its client (see "Asking the user" in docs/server.md). */
export interface AskingContext {
    /**
     * Asks the user through the client (`elicitation/create`) and resolves with the answer. Rejects
     * with an `McpAskError` (see its codes) or an `McpAnswerError` (the client answered an error),
     * or with the handler's signal's reason. Throws a `TypeError` at the call site for a malformed
     * request.
     */
    readonly elicit: (request: ElicitRequest, options?: AskRequestOptions) => Promise<ElicitResult>;
    /** Asks the client's model (`sampling/createMessage`); otherwise as `elicit`. */
    readonly createMessage: (
        request: CreateMessageRequest,
        options?: AskRequestOptions,
    ) => Promise<CreateMessageResult>;
    /** Asks for the client's roots (`roots/list`); otherwise as `elicit`. */
    readonly listRoots: (options?: AskRequestOptions) => Promise<ListRootsResult>;
}
