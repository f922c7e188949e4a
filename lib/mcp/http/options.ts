/**
 * The HTTP options, validated once: the catalog options go to the core's `buildCatalog` unchanged,
 * the HTTP ones are checked here and fixed for the handler's life.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
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
    const catalog = buildCatalog(catalogOptions as McpStdioServerOptions);
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
        idleTimeoutMs: positive(
            'sessionIdleTimeoutMs',
            sessionIdleTimeoutMs,
            DEFAULT_SESSION_IDLE_TIMEOUT_MS,
        ),
        maxSessions: positive('maxSessions', maxSessions, DEFAULT_MAX_SESSIONS),
        onSessionEnd,
        diagnose: onDiagnostic ?? ((text) => void process.stderr.write(text)),
        paramHeaders: indexParamHeaders(catalog.toolsJson),
    };
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

function positive(option: string, value: unknown, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number') {
        throw new TypeError(`${WHO}: ${option} must be a number, got ${describe(value)}`);
    }
    if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`${WHO}: ${option} must be a positive integer, got ${value}`);
    }
    return value;
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
