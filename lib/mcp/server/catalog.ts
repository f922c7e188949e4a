/**
 * Options as data: validated once, copied once, serialized once.
 *
 * Every descriptor is copied through JSON at construction, so later changes to the caller's
 * objects have no effect and a value that cannot cross the wire fails here, naming its entry,
 * rather than in the middle of a session. The `tools/list` and `resources/list` results are
 * serialized once, exactly as authored with only `handler` left out (a tool's Standard Schemas
 * as the JSON Schema they convert to).
 */

import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {checkKnownKeys, DEFAULT_MAX_MESSAGE_BYTES} from '../../util/options.js';
import {LOGGING_LEVELS, levelRank} from '../protocol/log-levels.js';
import type {AskSettings} from './asking/settings.js';
import {captureAsking} from './asking/settings.js';
import {captureResources, captureTools} from './entry-catalog.js';
import type {McpStdioServerOptions} from './options.js';
import type {PromptEntry} from './prompt-catalog.js';
import {capturePrompts} from './prompt-catalog.js';
import type {CacheHints, Versions} from './settings.js';
import {
    captureCache,
    captureVersions,
    DEFAULT_LIST_CACHE,
    DEFAULT_READ_CACHE,
    positiveInteger,
    toJson,
} from './settings.js';
import type {TemplateEntry} from './template-catalog.js';
import {captureTemplates} from './template-catalog.js';
import type {ResourceHandler, ToolHandler} from './types.js';

export const DEFAULT_OUTPUT_HIGH_WATER_MARK = 16 * 1024 * 1024;
/** Enough for any client watching what it shows; a bound on what a peer can make a session hold. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 1000;

export interface Catalog {
    readonly tools: ReadonlyMap<string, ToolHandler>;
    readonly resources: ReadonlyMap<string, ResourceHandler>;
    /** The tool descriptors as a JSON array, exactly as authored less `handler`. */
    readonly toolsJson: string;
    /** The resource descriptors as a JSON array. */
    readonly resourcesJson: string;
    /** The resource templates in catalog order, the order `resources/read` tries them. */
    readonly templates: readonly TemplateEntry[];
    /** The template descriptors as a JSON array. */
    readonly templatesJson: string;
    readonly prompts: ReadonlyMap<string, PromptEntry>;
    /** The prompt descriptors as a JSON array. */
    readonly promptsJson: string;
    /** Some prompt or template has a completer: `completion/complete` is served. */
    readonly completions: boolean;
    /** The `logging` option: `logging/setLevel` and the per-request log level are served. */
    readonly logging: boolean;
    /** The rank a level given as the `logging` option sets for a legacy session until `logging/setLevel`. */
    readonly defaultLogLevel: number | undefined;
    readonly serverInfoJson: string;
    /**
     * `{"tools":{},"resources":{},"prompts":{},"completions":{},"logging":{}}`, each only when its
     * catalog is not empty (`resources` for resources or templates) or its option is set.
     */
    readonly capabilitiesJson: string;
    readonly instructions: string | undefined;
    readonly versions: Versions;
    readonly listCache: CacheHints;
    readonly readCache: CacheHints;
    readonly maxMessageBytes: number;
    readonly outputHighWaterMark: number;
    /** `resources/subscribe` and `subscriptions/listen` are served (the `subscriptions` option). */
    readonly subscriptions: boolean;
    /** The most subscriptions a session holds, and the most open listen streams of an HTTP handler. */
    readonly maxSubscriptions: number;
    /** How handlers' questions wait, and how `requestState` is sealed. */
    readonly asking: AskSettings;
    /** The `initialize` result for one negotiated legacy revision. */
    initializeResult(protocolVersion: string): string;
}

const OPTION_NAMES: readonly string[] = [
    'serverInfo',
    'instructions',
    'tools',
    'resources',
    'resourceTemplates',
    'prompts',
    'logging',
    'protocolVersions',
    'listCache',
    'readCache',
    'maxMessageBytes',
    'outputHighWaterMark',
    'asking',
    'subscriptions',
    'maxSubscriptions',
];

export function buildCatalog(options: McpStdioServerOptions): Catalog {
    if (!isObject(options)) {
        throw new TypeError(
            `createMcpStdioServer(options) needs an options object, got ${describe(options)}`,
        );
    }
    checkKnownKeys('createMcpStdioServer', options, OPTION_NAMES);
    const serverInfo = options.serverInfo;
    if (
        !isObject(serverInfo) ||
        typeof serverInfo.name !== 'string' ||
        typeof serverInfo.version !== 'string'
    ) {
        throw new TypeError(
            'createMcpStdioServer: serverInfo must be an object with "name" and "version" strings, ' +
                `got ${describe(serverInfo)}`,
        );
    }
    const instructions = options.instructions;
    if (instructions !== undefined && typeof instructions !== 'string') {
        throw new TypeError(
            `createMcpStdioServer: instructions must be a string, got ${describe(instructions)}`,
        );
    }
    const versions = captureVersions(options.protocolVersions);
    const tools = captureTools(options.tools, versions.legacy.length > 0);
    const resources = captureResources(options.resources);
    const templates = captureTemplates(options.resourceTemplates);
    const prompts = capturePrompts(options.prompts);
    const loggingOption = options.logging ?? false;
    const defaultLogLevel = typeof loggingOption === 'string' ? levelRank(loggingOption) : undefined;
    if (typeof loggingOption !== 'boolean' && defaultLogLevel === undefined) {
        throw new TypeError(
            `createMcpStdioServer: logging must be a boolean or a log level string, got ${describe(loggingOption)}`,
        );
    }
    if (defaultLogLevel === -1) {
        throw new RangeError(
            `createMcpStdioServer: logging ${JSON.stringify(loggingOption)} is not a log level; the levels are ${LOGGING_LEVELS.join(', ')}`,
        );
    }
    const logging = loggingOption !== false;
    const completions = prompts.completes || templates.completes;
    const maxMessageBytes = positiveInteger(
        'maxMessageBytes',
        options.maxMessageBytes,
        DEFAULT_MAX_MESSAGE_BYTES,
    );
    const outputHighWaterMark = positiveInteger(
        'outputHighWaterMark',
        options.outputHighWaterMark,
        DEFAULT_OUTPUT_HIGH_WATER_MARK,
    );
    const maxSubscriptions = positiveInteger(
        'maxSubscriptions',
        options.maxSubscriptions,
        DEFAULT_MAX_SUBSCRIPTIONS,
    );

    const asking = captureAsking(options.asking);
    const listCache = captureCache('listCache', options.listCache, DEFAULT_LIST_CACHE);
    const readCache = captureCache('readCache', options.readCache, DEFAULT_READ_CACHE);

    const capabilities: JsonObject = {};
    if (tools.handlers.size > 0) capabilities.tools = {};
    const subscriptions = options.subscriptions ?? false;
    if (typeof subscriptions !== 'boolean') {
        throw new TypeError(
            `createMcpStdioServer: subscriptions must be a boolean, got ${describe(subscriptions)}`,
        );
    }
    if (resources.handlers.size > 0 || templates.entries.length > 0) {
        capabilities.resources = subscriptions ? {subscribe: true} : {};
    }
    if (prompts.entries.size > 0) capabilities.prompts = {};
    if (completions) capabilities.completions = {};
    if (logging) capabilities.logging = {};
    const capabilitiesJson = JSON.stringify(capabilities);
    const serverInfoJson = toJson(serverInfo, 'serverInfo');
    const tail =
        `,"capabilities":${capabilitiesJson},"serverInfo":${serverInfoJson}` +
        (instructions === undefined ? '}' : `,"instructions":${JSON.stringify(instructions)}}`);
    const initializeResults = new Map(
        versions.legacy.map((version) => [version, `{"protocolVersion":${JSON.stringify(version)}${tail}`]),
    );

    return {
        tools: tools.handlers,
        resources: resources.handlers,
        toolsJson: `[${tools.descriptors.join(',')}]`,
        resourcesJson: `[${resources.descriptors.join(',')}]`,
        templates: templates.entries,
        templatesJson: templates.json,
        prompts: prompts.entries,
        promptsJson: prompts.json,
        completions,
        logging,
        defaultLogLevel,
        serverInfoJson,
        capabilitiesJson,
        instructions,
        versions,
        listCache,
        readCache,
        maxMessageBytes,
        outputHighWaterMark,
        asking,
        subscriptions,
        maxSubscriptions,
        initializeResult: (version) => initializeResults.get(version) as string,
    };
}
