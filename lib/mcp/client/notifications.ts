/**
 * The server's notifications, handed to the caller's callbacks: every one (besides the progress of
 * a call, which goes to that call) to `onNotification`, and the kinds a user usually wants, checked
 * and typed, to their own callback. A callback observes the session and cannot break it (`tell`).
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {
    LoggingLevel,
    LoggingMessage,
    ResourceUpdated,
    ServerNotification,
} from '../protocol/features.js';
import {LOGGING_LEVELS} from '../protocol/log-levels.js';
import {tell} from './stray.js';

/** The lists whose `notifications/<list>/list_changed` `onListChanged` is told. */
export type ListName = 'tools' | 'resources' | 'prompts';

/** The notification callbacks of `connectMcpClient`. */
export interface NotificationOptions {
    /**
     * Every notification the server sends, exactly as sent, besides `notifications/progress`
     * (which goes to its call's `onProgress`). Called synchronously, in arrival order, before the
     * typed callbacks below. Default: none.
     */
    onNotification?: (notification: ServerNotification) => void;
    /**
     * Each `notifications/message` (a log message) whose `level` is one of the eight levels and
     * that has `data`; others reach `onNotification` only. Ask for them with
     * `client.setLoggingLevel(level)`. Default: none.
     */
    onLog?: (message: LoggingMessage) => void;
    /**
     * `'tools'`, `'resources'` or `'prompts'` on each `notifications/<list>/list_changed`: list it
     * again to see the change. Default: none.
     */
    onListChanged?: (list: ListName) => void;
    /**
     * Each `notifications/resources/updated` with a `uri` string: a resource subscribed to with
     * `client.subscribeResource(uri)` changed; read it again to see how. Default: none.
     */
    onResourceUpdated?: (update: ResourceUpdated) => void;
}

export const NOTIFICATION_OPTION_NAMES = ['onNotification', 'onLog', 'onListChanged', 'onResourceUpdated'];

const LISTS: Record<string, ListName> = {
    'notifications/tools/list_changed': 'tools',
    'notifications/resources/list_changed': 'resources',
    'notifications/prompts/list_changed': 'prompts',
};

/** The callbacks, checked: each is a function or absent. */
export function checkNotificationOptions(where: string, options: NotificationOptions): NotificationOptions {
    const checked: NotificationOptions = {};
    for (const name of NOTIFICATION_OPTION_NAMES) {
        const value = (options as Record<string, unknown>)[name];
        if (value === undefined) continue;
        if (typeof value !== 'function') {
            throw new TypeError(`${where}: ${name} must be a function, got ${describe(value)}`);
        }
        (checked as Record<string, unknown>)[name] = value;
    }
    return checked;
}

/** Hands one notification to the callbacks that want it. */
export function deliver(options: NotificationOptions, method: string, params: JsonObject | undefined): void {
    const {onNotification, onLog, onListChanged, onResourceUpdated} = options;
    if (onNotification !== undefined) {
        tell(onNotification, params === undefined ? {method} : {method, params});
    }
    if (method === 'notifications/message') {
        if (onLog !== undefined && params !== undefined && isLog(params)) tell(onLog, params);
        return;
    }
    const list = LISTS[method];
    if (list !== undefined) {
        if (onListChanged !== undefined) tell(onListChanged, list);
        return;
    }
    if (method === 'notifications/resources/updated' && onResourceUpdated !== undefined) {
        if (params !== undefined && typeof params.uri === 'string')
            tell(onResourceUpdated, params as ResourceUpdated);
    }
}

function isLog(params: JsonObject): params is LoggingMessage {
    return (
        LOGGING_LEVELS.includes(params.level as LoggingLevel) &&
        Object.hasOwn(params, 'data') &&
        (params.logger === undefined || typeof params.logger === 'string')
    );
}
