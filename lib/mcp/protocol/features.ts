/**
 * The wire shapes of prompts, resource templates, completion, logging and the notifications a
 * server sends unasked, as the MCP 2025-11-25 schema has them. Unknown fields pass through, so
 * every object keeps an index signature.
 */
import type {ContentBlock, Icon, JsonObject} from './types.js';

/** One argument of a prompt, as `prompts/list` shows it. */
export interface PromptArgument {
    name: string;
    title?: string;
    description?: string;
    /** A `prompts/get` without this argument is refused by the server. */
    required?: boolean;
    [key: string]: unknown;
}

/** A prompt as `prompts/list` shows it. */
export interface PromptDescriptor {
    name: string;
    title?: string;
    description?: string;
    arguments?: readonly PromptArgument[];
    icons?: Icon[];
    _meta?: JsonObject;
    [key: string]: unknown;
}

export interface PromptMessage {
    role: 'user' | 'assistant';
    content: ContentBlock;
    [key: string]: unknown;
}

/** The answer to `prompts/get`. */
export interface GetPromptResult {
    description?: string;
    messages: PromptMessage[];
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** A resource template as `resources/templates/list` shows it. */
export interface ResourceTemplateDescriptor {
    /** An RFC 6570 URI template. */
    uriTemplate: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
    annotations?: JsonObject;
    icons?: Icon[];
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** What `completion/complete` completes: an argument of a prompt, or a variable of a template. */
export type CompletionReference =
    | {type: 'ref/prompt'; name: string; [key: string]: unknown}
    | {type: 'ref/resource'; uri: string; [key: string]: unknown};

/** The params of `completion/complete`. */
export interface CompleteParams {
    ref: CompletionReference;
    /** The argument or variable being completed, and what the user typed so far. */
    argument: {name: string; value: string};
    /** The other arguments already chosen. */
    context?: {arguments?: Record<string, string>};
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** The answer to `completion/complete`. */
export interface CompleteResult {
    completion: {
        /** At most 100 suggestions, best first. */
        values: string[];
        /** How many suggestions there are in all, when the server knows. */
        total?: number;
        /** More suggestions exist than `values` holds. */
        hasMore?: boolean;
        [key: string]: unknown;
    };
    _meta?: JsonObject;
    [key: string]: unknown;
}

/** The syslog severities of `notifications/message`, least severe first. */
export type LoggingLevel =
    | 'debug'
    | 'info'
    | 'notice'
    | 'warning'
    | 'error'
    | 'critical'
    | 'alert'
    | 'emergency';

/** The params of `notifications/message`: one log message from the server. */
export interface LoggingMessage {
    level: LoggingLevel;
    /** The name of the logger that wrote it, when the server gives one. */
    logger?: string;
    /** Any JSON value: the message or its details (untrusted). */
    data: unknown;
    [key: string]: unknown;
}

/** The params of `notifications/resources/updated`: a subscribed resource changed. */
export interface ResourceUpdated {
    uri: string;
    [key: string]: unknown;
}

/** A notification from the server, exactly as it was sent (`params` absent when it had none). */
export interface ServerNotification {
    method: string;
    params?: JsonObject;
}
