/** The options of a server: the catalog an application serves and the limits it runs under. */
import type {AskOptions} from './asking/types.js';
import type {McpPrompt, McpResourceTemplate} from './feature-types.js';
import type {Implementation, LoggingLevel, McpResource, McpSchemaTool, McpTool} from './types.js';

export interface McpStdioServerOptions {
    /** Answered as `serverInfo` to `initialize`. Required: `name` and `version` strings. */
    serverInfo: Implementation;
    /** Answered as `instructions` to `initialize` when given. */
    instructions?: string;
    /** The tool catalog. Default: none (and no `tools` capability). */
    tools?: readonly (McpTool | McpSchemaTool)[];
    /** The static resource catalog. Default: none (and no `resources` capability). */
    resources?: readonly McpResource[];
    /**
     * Resource templates, listed by `resources/templates/list`; a `resources/read` of a uri no static
     * resource has is served by the first template, in this order, that matches it. Default: none
     * (`resources` is advertised when this or `resources` is not empty).
     */
    resourceTemplates?: readonly McpResourceTemplate[];
    /** The prompt catalog. Default: none (no `prompts` capability, and `prompts/*` are unknown methods). */
    prompts?: readonly McpPrompt[];
    /**
     * `true` advertises the `logging` capability, serves `logging/setLevel` (revisions before
     * 2026-07-28) and the per-request `_meta` log level (2026-07-28), so that `context.log` reaches
     * clients that ask for it. A level (`'info'`, say) does the same and also decides what a
     * client of a revision before 2026-07-28 gets before it sends `logging/setLevel` (the spec
     * leaves that to the server): messages at or above that level. Bridges that filter log
     * messages themselves and never forward `logging/setLevel` (mcp-proxy) need it. A 2026-07-28
     * request still gets only what its own `_meta` asks for. Default: no logging; `context.log`
     * sends nothing.
     */
    logging?: boolean | LoggingLevel;
    /**
     * The protocol revisions this server answers, most preferred first. Listing `'2026-07-28'`
     * serves that revision's per-request requests and `server/discover` (beside any earlier
     * revision listed, or alone). `initialize` echoes a requested earlier revision when it is in the
     * list and otherwise answers the first earlier one listed. Default: `[MCP_PROTOCOL_VERSION]`.
     */
    protocolVersions?: readonly string[];
    /**
     * The caching hints (2026-07-28) of `server/discover`, `tools/list`, `resources/list` and
     * `resources/templates/list`. The catalog never changes while the server lives and is the same
     * for every caller, so the default is `{ttlMs: 300000, cacheScope: 'public'}`: fresh for five
     * minutes, which also bounds how long a client keeps a list across a restart of a changed app.
     */
    listCache?: CacheOption;
    /**
     * The caching hints of a `resources/read` result whose handler gives none of its own (a
     * handler may return `ttlMs` and `cacheScope` in its result). Default:
     * `{ttlMs: 0, cacheScope: 'private'}`, since a handler's content may change and may be the
     * caller's own.
     */
    readCache?: CacheOption;
    /**
     * How handlers' questions (`context.elicit`, `createMessage`, `listRoots`) wait and how the
     * 2026-07-28 `requestState` is sealed. See "Asking the user" in docs/server.md.
     */
    asking?: AskOptions;
    /**
     * Serves resource subscriptions: `resources/subscribe` and `resources/unsubscribe` (legacy
     * era, advertised as `subscribe: true` in the `resources` capability) and
     * `subscriptions/listen` (2026-07-28); `server.notifyResourceUpdated(uri)` tells subscribers.
     * Default: `false`.
     */
    subscriptions?: boolean;
    /**
     * The most resource subscriptions one session holds: the URIs of `resources/subscribe`, plus
     * the URIs granted to each open `subscriptions/listen` (a listen granted none counts one). A
     * subscribe or listen beyond it is answered `-32602`. Over HTTP it also bounds the open
     * `subscriptions/listen` streams of the handler. Default: 1000.
     */
    maxSubscriptions?: number;
    /** The largest record accepted, in bytes, line feed excluded. Default: 64 MiB. */
    maxMessageBytes?: number;
    /**
     * Output and diagnostics waiting to be written, in characters, above which input reading
     * pauses until the backlog is down to half of it. Default: 16 MiB.
     */
    outputHighWaterMark?: number;
}

/** Caching hints: `ttlMs` a whole number of milliseconds >= 0, `cacheScope` `'public'` or `'private'`. */
export interface CacheOption {
    ttlMs?: number;
    cacheScope?: 'public' | 'private';
}
