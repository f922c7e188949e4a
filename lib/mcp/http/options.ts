/**
 * The HTTP options, validated once: the catalog options go to the core's `buildCatalog` unchanged,
 * the HTTP ones are checked here and fixed for the handler's life.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {checkNumber, timerRule} from '../../util/options.js';
import type {Catalog} from '../server/catalog.js';
import {buildCatalog} from '../server/catalog.js';
import type {McpStdioServerOptions} from '../server/options.js';
import type {HeaderIndex} from './param-headers.js';
import {indexParamHeaders} from './param-headers.js';
import type {McpHttpHandlerOptions, SessionEndInfo} from './types.js';

export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const DEFAULT_MAX_SESSIONS = 1000;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1', '[::1]'];

const WHO = 'createMcpHttpHandler';

/** Capped where Node's timers stop: a longer idle timeout would end each session after 1 ms. */
const IDLE_RULE: NumberRule = {
    ...timerRule(1, 'a whole number of milliseconds from 1 to 2147483647'),
    kind: 'a number',
};
const COUNT_RULE: NumberRule = {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    kind: 'a number',
    expects: 'a positive integer',
};

export interface HttpSettings {
    readonly catalog: Catalog;
    /** Lower-cased; undefined when any is allowed. */
    readonly origins: ReadonlySet<string> | undefined;
    /** Only loopback origins (the default). */
    readonly loopbackOrigins: boolean;
    readonly hosts: ReadonlySet<string> | undefined;
    readonly idleTimeoutMs: number;
    readonly maxSessions: number;
    readonly onSessionEnd: ((info: SessionEndInfo) => void) | undefined;
    readonly diagnose: (text: string) => void;
    /** Each tool's `x-mcp-header` parameters. */
    readonly paramHeaders: ReadonlyMap<string, HeaderIndex>;
}

export function httpSettings(options: McpHttpHandlerOptions): HttpSettings {
    if (!isObject(options)) {
        throw new TypeError(`${WHO}(options) needs an options object, got ${describe(options)}`);
    }
    const {
        allowedOrigins,
        allowedHosts,
        sessionIdleTimeoutMs,
        maxSessions,
        onSessionEnd,
        onDiagnostic,
        ...catalogOptions
    } = options as McpHttpHandlerOptions & {outputHighWaterMark?: unknown};
    if (Object.hasOwn(catalogOptions, 'outputHighWaterMark')) {
        throw new TypeError(
            `${WHO}: outputHighWaterMark is a stdio option; an HTTP answer is bounded by its own stream`,
        );
    }
    const catalog = catalogFor(catalogOptions as McpStdioServerOptions);
    const origins = names('allowedOrigins', allowedOrigins);
    const hosts = names('allowedHosts', allowedHosts);
    if (onSessionEnd !== undefined && typeof onSessionEnd !== 'function') {
        throw new TypeError(`${WHO}: onSessionEnd must be a function, got ${describe(onSessionEnd)}`);
    }
    if (onDiagnostic !== undefined && typeof onDiagnostic !== 'function') {
        throw new TypeError(`${WHO}: onDiagnostic must be a function, got ${describe(onDiagnostic)}`);
    }
    return {
        catalog,
        origins: origins === null ? undefined : (origins ?? new Set()),
        loopbackOrigins: origins === undefined,
        hosts: hosts === null ? undefined : (hosts ?? new Set(LOOPBACK_HOSTS)),
        idleTimeoutMs: checkNumber(
            WHO,
            'sessionIdleTimeoutMs',
            sessionIdleTimeoutMs,
            DEFAULT_SESSION_IDLE_TIMEOUT_MS,
            IDLE_RULE,
        ),
        maxSessions: checkNumber(WHO, 'maxSessions', maxSessions, DEFAULT_MAX_SESSIONS, COUNT_RULE),
        onSessionEnd,
        diagnose: onDiagnostic ?? ((text) => void process.stderr.write(text)),
        paramHeaders: indexParamHeaders(catalog.toolsJson),
    };
}

/** The core checks the catalog options for both entries; a mistake names the one the caller used. */
function catalogFor(options: McpStdioServerOptions): Catalog {
    try {
        return buildCatalog(options);
    } catch (error) {
        const prefix = 'createMcpStdioServer';
        if ((error instanceof TypeError || error instanceof RangeError) && error.message.startsWith(prefix)) {
            error.message = WHO + error.message.slice(prefix.length);
        }
        throw error;
    }
}

/** A set of lower-cased names; null for 'any'; undefined when not given. */
function names(option: string, value: unknown): Set<string> | null | undefined {
    if (value === undefined) return undefined;
    if (value === 'any') return null;
    if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string' && entry !== '')) {
        throw new TypeError(
            `${WHO}: ${option} must be an array of non-empty strings or 'any', got ${describe(value)}`,
        );
    }
    return new Set(value.map((entry: string) => entry.toLowerCase()));
}

/** Whether the request may proceed: its URL's host and its `Origin`, when present. */
export function originProblem(settings: HttpSettings, url: URL, origin: string | null): string | undefined {
    const hosts = settings.hosts;
    if (hosts !== undefined && !hosts.has(url.hostname.toLowerCase())) {
        return `Host ${JSON.stringify(url.host)} is not allowed (allowedHosts)`;
    }
    if (origin === null) return undefined;
    if (settings.loopbackOrigins) {
        let parsed: URL;
        try {
            parsed = new URL(origin);
        } catch {
            return `Origin ${JSON.stringify(origin)} is not a valid origin`;
        }
        const loopback =
            (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
            LOOPBACK_HOSTS.includes(parsed.hostname.toLowerCase());
        return loopback ? undefined : `Origin ${JSON.stringify(origin)} is not allowed (allowedOrigins)`;
    }
    const origins = settings.origins;
    if (origins === undefined || origins.has(origin.toLowerCase())) return undefined;
    return `Origin ${JSON.stringify(origin)} is not allowed (allowedOrigins)`;
}
