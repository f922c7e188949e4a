/** The eight log levels and their order, shared by the server, which ranks and checks them, and the client. */
import type {LoggingLevel} from './features.js';

/** Least severe first: a level's index is its rank. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = Object.freeze([
    'debug',
    'info',
    'notice',
    'warning',
    'error',
    'critical',
    'alert',
    'emergency',
]);

/** The rank of a level, or -1 when `value` is not one. */
export function levelRank(value: unknown): number {
    return typeof value === 'string' ? LOGGING_LEVELS.indexOf(value as LoggingLevel) : -1;
}
