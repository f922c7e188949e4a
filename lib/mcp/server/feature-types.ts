/**
 * The public types of prompts, resource templates and completions: what an application writes for
 * `prompts/list`, `prompts/get`, `resources/templates/list`, templated `resources/read` and
 * `completion/complete`. The wire shapes they build on are in `../protocol/features.ts`, shared with
 * the client, and re-exported here.
 */
import type {
    GetPromptResult,
    PromptArgument,
    PromptDescriptor,
    PromptMessage,
    ResourceTemplateDescriptor,
} from '../protocol/features.js';
import type {StandardSchemaV1} from './standard-schema.js';
import type {HandlerContext, Icon, JsonObject, ReadResourceParams, ReadResourceResult} from './types.js';

export type {GetPromptResult, PromptArgument, PromptDescriptor, PromptMessage, ResourceTemplateDescriptor};

/**
 * Suggests values for one prompt argument or template variable from what the user typed so far
 * (`value`), best first. More than 100 values are cut to 100, with `total` and `hasMore: true`.
 */
export type Completer = (
    value: string,
    context: CompletionContext,
) => readonly string[] | PromiseLike<readonly string[]>;

/** A completer's context: a handler context plus the other arguments already chosen. */
export interface CompletionContext extends HandlerContext<'completion/complete'> {
    /** The request's `params.context.arguments`, or `{}` when it has none. */
    readonly arguments: Readonly<Record<string, string>>;
}

/** Completers by argument or variable name. */
export type Completers = {readonly [name: string]: Completer};

export type PromptHandler = (
    args: Record<string, string>,
    context: HandlerContext<'prompts/get'>,
) => GetPromptResult | PromiseLike<GetPromptResult>;

export interface McpPrompt {
    name: string;
    title?: string;
    description?: string;
    /**
     * The argument list, or a Standard Schema (with its JSON Schema converter) of string fields: the
     * list is then derived from its JSON Schema (each field's title, description and whether it is
     * required), a `prompts/get` whose arguments fail it is answered `-32602` naming each issue,
     * and the handler gets the schema's output value.
     */
    arguments?: readonly PromptArgument[] | StandardSchemaV1;
    icons?: Icon[];
    _meta?: JsonObject;
    [key: string]: unknown;
    /** Completers for the prompt's arguments, each named by an argument of `arguments`. */
    complete?: Completers;
    handler: PromptHandler;
}

/** A template handler's context: a handler context plus the variables the uri matched. */
export interface TemplateContext extends HandlerContext<'resources/read'> {
    /**
     * The decoded variables: a query variable only when present, an exploded one (`{/path*}`) as a
     * list of strings.
     */
    readonly variables: Readonly<Record<string, string | readonly string[]>>;
}

export type TemplateHandler = (
    params: ReadResourceParams,
    context: TemplateContext,
) => ReadResourceResult | PromiseLike<ReadResourceResult>;

export interface McpResourceTemplate extends ResourceTemplateDescriptor {
    /** Completers for the template's variables, each named by a variable of `uriTemplate`. */
    complete?: Completers;
    handler: TemplateHandler;
}
