/**
 * The Streamable HTTP transport's options: what a caller may set, the defaults, and the checks
 * made once, at connect, so that a bad URL or header fails at the call site as a `TypeError` or
 * `RangeError` rather than on the first request.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {
    checkKnownKeys,
    checkNumber,
    DEFAULT_MAX_MESSAGE_BYTES,
    MAX_TIMER_MS,
    timerRule,
} from '../../util/options.js';

export interface HttpReconnectOptions {
    /** Wait before the first reconnection when the server sent no `retry`. Default: 1000 ms. */
    initialDelayMs?: number;
    /** The wait doubles after each failed attempt up to this. Default: 30000 ms. */
    maxDelayMs?: number;
    /**
     * Failed attempts in a row (network error or refusal) after which the stream is given up. An
     * attempt that the server accepts resets the count. At least 1. Default: 5.
     */
    maxAttempts?: number;
}

export interface HttpTransportOptions {
    /**
     * The MCP endpoint. `https:` is required; `http:` is accepted only for a loopback host
     * (`localhost`, `127.0.0.0/8`, `[::1]`). No default.
     */
    url: string | URL;
    /**
     * Sent with every request (POST, GET and DELETE): authentication such as
     * `{authorization: 'Bearer …'}`. The transport's own headers (`accept`, `content-type`,
     * `mcp-session-id`, `mcp-protocol-version`, `last-event-id`) cannot be set here. Default: none.
     */
    headers?: Readonly<Record<string, string>>;
    /**
     * Open the standalone GET stream after initialization, for messages the server sends on its own
     * (notifications, requests). A server without one answers 405, which is accepted quietly.
     * Default: `false`, since no part of the client's API waits for such messages.
     */
    listen?: boolean;
    /** How a broken or ended SSE stream is reconnected (the GET stream, and resumption). */
    reconnect?: HttpReconnectOptions;
    /** The largest JSON body, or SSE event, accepted from the server. Default: 64 MiB. */
    maxMessageBytes?: number;
    /**
     * How long `close()` waits for the server to accept the cancellations of pending calls, and
     * then to answer its DELETE. Default: 2000 ms.
     */
    closeTimeoutMs?: number;
}

export const DEFAULT_INITIAL_DELAY_MS = 1000;
export const DEFAULT_MAX_DELAY_MS = 30_000;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_CLOSE_TIMEOUT_MS = 2000;

/** The options, checked and with every default filled in. */
export interface HttpSettings {
    readonly url: URL;
    readonly headers: readonly (readonly [string, string])[];
    readonly listen: boolean;
    readonly initialDelayMs: number;
    readonly maxDelayMs: number;
    readonly maxAttempts: number;
    readonly maxMessageBytes: number;
    readonly closeTimeoutMs: number;
}

const OWN_HEADERS = new Set([
    'accept',
    'content-type',
    'mcp-session-id',
    'mcp-protocol-version',
    'last-event-id',
]);
/** The options that are the transport's own (the session's are in `settings.ts`). */
export const HTTP_OPTION_NAMES: readonly string[] = Object.freeze([
    'url',
    'headers',
    'listen',
    'reconnect',
    'maxMessageBytes',
    'closeTimeoutMs',
]);
const RECONNECT_NAMES = ['initialDelayMs', 'maxDelayMs', 'maxAttempts'];

/** A count or a size: a whole number from 1. */
const AT_LEAST_ONE: NumberRule = {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    kind: 'a number',
    expects: 'an integer of at least 1',
    described: true,
};
/** A delay or a wait: 0 up to where Node's timers stop. */
const DELAY: NumberRule = {...timerRule(0, `an integer from 0 to ${MAX_TIMER_MS}`), described: true};

export function httpSettings(options: HttpTransportOptions, caller: string): HttpSettings {
    if (!isObject(options)) {
        throw new TypeError(`${caller} needs an options object, got ${describe(options)}`);
    }
    checkKnownKeys(caller, options, HTTP_OPTION_NAMES);
    const reconnect = options.reconnect ?? {};
    if (!isObject(reconnect)) {
        throw new TypeError(`${caller}: reconnect must be an object, got ${describe(reconnect)}`);
    }
    checkKnownKeys(caller, reconnect, RECONNECT_NAMES, 'reconnect.');
    if (options.listen !== undefined && typeof options.listen !== 'boolean') {
        throw new TypeError(`${caller}: listen must be a boolean, got ${describe(options.listen)}`);
    }
    const initialDelayMs = checkNumber(
        caller,
        'reconnect.initialDelayMs',
        reconnect.initialDelayMs,
        DEFAULT_INITIAL_DELAY_MS,
        DELAY,
    );
    const maxDelayMs = checkNumber(
        caller,
        'reconnect.maxDelayMs',
        reconnect.maxDelayMs,
        DEFAULT_MAX_DELAY_MS,
        DELAY,
    );
    if (maxDelayMs < initialDelayMs) {
        throw new RangeError(
            `${caller}: reconnect.maxDelayMs (${maxDelayMs}) must be at least reconnect.initialDelayMs (${initialDelayMs})`,
        );
    }
    return {
        url: endpoint(options.url, caller),
        headers: callerHeaders(options.headers, caller),
        listen: options.listen ?? false,
        initialDelayMs,
        maxDelayMs,
        maxAttempts: checkNumber(
            caller,
            'reconnect.maxAttempts',
            reconnect.maxAttempts,
            DEFAULT_MAX_ATTEMPTS,
            AT_LEAST_ONE,
        ),
        maxMessageBytes: checkNumber(
            caller,
            'maxMessageBytes',
            options.maxMessageBytes,
            DEFAULT_MAX_MESSAGE_BYTES,
            AT_LEAST_ONE,
        ),
        closeTimeoutMs: checkNumber(
            caller,
            'closeTimeoutMs',
            options.closeTimeoutMs,
            DEFAULT_CLOSE_TIMEOUT_MS,
            DELAY,
        ),
    };
}

/** True for the hosts where plain HTTP is allowed: they never leave this machine. */
export function isLoopbackHost(hostname: string): boolean {
    return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function endpoint(value: unknown, caller: string): URL {
    let url: URL;
    if (value instanceof URL) {
        url = new URL(value.href);
    } else if (typeof value === 'string') {
        try {
            url = new URL(value);
        } catch {
            throw new TypeError(
                `${caller}: url ${JSON.stringify(value)} is not an absolute URL; give one such as https://host/mcp`,
            );
        }
    } else {
        throw new TypeError(`${caller}: url must be a string or a URL, got ${describe(value)}`);
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
        const secure = new URL(url.href);
        secure.protocol = 'https:';
        throw new TypeError(
            `${caller}: the url ${url.href} uses plain HTTP to a host that is not loopback, which would ` +
                `expose the session and its credentials; use ${secure.href} (plain HTTP is allowed only ` +
                'for localhost, 127.0.0.0/8 and [::1])',
        );
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new TypeError(`${caller}: the url ${url.href} must use https: (or http: for a loopback host)`);
    }
    if (url.username !== '' || url.password !== '') {
        throw new TypeError(
            `${caller}: the url ${url.origin}${url.pathname} carries credentials, which fetch refuses; ` +
                'pass them in headers instead, e.g. {authorization: "Basic …"}',
        );
    }
    url.hash = '';
    return url;
}

function callerHeaders(value: unknown, caller: string): [string, string][] {
    if (value === undefined) return [];
    if (!isObject(value)) {
        throw new TypeError(
            `${caller}: headers must be an object of header names to strings, got ${describe(value)}`,
        );
    }
    const out: [string, string][] = [];
    for (const [name, text] of Object.entries(value)) {
        if (typeof text !== 'string') {
            throw new TypeError(
                `${caller}: headers[${JSON.stringify(name)}] must be a string, got ${describe(text)}`,
            );
        }
        const lower = name.toLowerCase();
        if (OWN_HEADERS.has(lower)) {
            throw new TypeError(
                `${caller}: headers may not set "${name}": the transport sets ${lower} itself; remove it`,
            );
        }
        try {
            new Headers([[name, text]]);
        } catch (cause) {
            throw new TypeError(`${caller}: headers[${JSON.stringify(name)}] is not a valid HTTP header`, {
                cause,
            });
        }
        out.push([lower, text]);
    }
    return out;
}
