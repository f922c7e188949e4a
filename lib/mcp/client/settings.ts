/**
 * The options every way of connecting takes, checked into `SessionSettings`, with their defaults.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {NumberRule} from '../../util/options.js';
import {checkNumber, checkSignal} from '../../util/options.js';
import type {Implementation} from '../protocol/types.js';
import {checkHandlers, DEFAULT_MAX_INPUT_ROUNDS} from './answering.js';
import type {SessionSettings} from './client-types.js';
import type {McpClientCommonOptions} from './connect-types.js';
import {checkDiscoverTimeout, checkVersionNegotiation} from './era.js';
import {MCP_CLIENT_PROTOCOL_VERSIONS} from './handshake.js';
import {checkNotificationOptions, NOTIFICATION_OPTION_NAMES} from './notifications.js';
import {TIMEOUT_RULE} from './options.js';

/** The `clientInfo` sent by default: this package's name and version. */
export const DEFAULT_CLIENT_INFO: Readonly<Implementation> = Object.freeze({
    name: 'arcane-os',
    version: '0.1.0',
});

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
export const DEFAULT_LIST_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** The bound on input rounds: none up to a thousand. */
const ROUNDS_RULE: NumberRule = {
    min: 0,
    max: 1000,
    kind: 'a number',
    expects: 'a whole number from 0 to 1000',
};

export const COMMON_OPTION_NAMES = [
    'clientInfo',
    'protocolVersion',
    'initializeTimeoutMs',
    'listTimeoutMs',
    'callTimeoutMs',
    'signal',
    'onProtocolError',
    'strict',
    ...NOTIFICATION_OPTION_NAMES,
    'versionNegotiation',
    'discoverTimeoutMs',
    'handlers',
    'maxInputRounds',
];

/** The transport-independent settings, checked; `where` names the function the caller called. */
export function sessionSettings(
    options: McpClientCommonOptions,
    where = 'connectMcpClient',
): SessionSettings {
    const protocolVersion = options.protocolVersion ?? MCP_CLIENT_PROTOCOL_VERSIONS[0];
    if (typeof protocolVersion !== 'string' || !MCP_CLIENT_PROTOCOL_VERSIONS.includes(protocolVersion)) {
        throw new RangeError(
            `${where}: protocolVersion is ${describe(protocolVersion)}; the revisions this client speaks are ` +
                MCP_CLIENT_PROTOCOL_VERSIONS.join(', '),
        );
    }
    return {
        clientInfo: checkClientInfo(options.clientInfo, where),
        protocolVersion,
        initializeTimeoutMs: checkNumber(
            where,
            'initializeTimeoutMs',
            options.initializeTimeoutMs,
            DEFAULT_INITIALIZE_TIMEOUT_MS,
            TIMEOUT_RULE,
        ),
        listTimeoutMs: checkNumber(
            where,
            'listTimeoutMs',
            options.listTimeoutMs,
            DEFAULT_LIST_TIMEOUT_MS,
            TIMEOUT_RULE,
        ),
        callTimeoutMs: checkNumber(
            where,
            'callTimeoutMs',
            options.callTimeoutMs,
            DEFAULT_CALL_TIMEOUT_MS,
            TIMEOUT_RULE,
        ),
        signal: checkSignal(where, options.signal),
        strict: checkStrict(options.strict, where),
        onProtocolError: checkOnProtocolError(options.onProtocolError, where),
        notifications: checkNotificationOptions(where, options),
        versionNegotiation: checkVersionNegotiation(where, options.versionNegotiation),
        discoverTimeoutMs: checkDiscoverTimeout(where, options.discoverTimeoutMs),
        handlers: checkHandlers(where, options.handlers),
        maxInputRounds: checkNumber(
            where,
            'maxInputRounds',
            options.maxInputRounds,
            DEFAULT_MAX_INPUT_ROUNDS,
            ROUNDS_RULE,
        ),
    };
}

function checkStrict(value: unknown, where: string): boolean {
    if (value === undefined) return false;
    if (typeof value === 'boolean') return value;
    throw new TypeError(`${where}: strict must be true or false, got ${describe(value)}`);
}

function checkOnProtocolError(value: unknown, where: string): McpClientCommonOptions['onProtocolError'] {
    if (value === undefined || typeof value === 'function') {
        return value as McpClientCommonOptions['onProtocolError'];
    }
    throw new TypeError(
        `${where}: onProtocolError must be a function receiving each protocol error event, got ${describe(value)}`,
    );
}

/** Copied through JSON, so later changes to the caller's object have no effect. */
function checkClientInfo(value: unknown, where: string): Implementation {
    if (value === undefined) return {...DEFAULT_CLIENT_INFO};
    if (!isObject(value) || typeof value.name !== 'string' || typeof value.version !== 'string') {
        throw new TypeError(
            `${where}: clientInfo must be an object with "name" and "version" strings, got ${describe(value)}`,
        );
    }
    try {
        return JSON.parse(JSON.stringify(value)) as Implementation;
    } catch (error) {
        throw new TypeError(
            `${where}: clientInfo cannot be serialized as JSON (${(error as Error).message})`,
            {
                cause: error,
            },
        );
    }
}
