/**
 * `context.log`: one call's `notifications/message`, sent only to a client that asked, at or above
 * the level it asked for: `logging/setLevel` for the session (revisions before 2026-07-28), or the
 * request's own `_meta["io.modelcontextprotocol/logLevel"]` (2026-07-28).
 *
 * Ordering follows progress (see `progress.ts`): a message is queued only while its request is open
 * (its handler has not settled, it was not answered or cancelled), so it always precedes the
 * response; every message of a request still waiting for the writer when the request is cancelled
 * is withdrawn, so nothing of a cancelled request is written after the cancel. Unlike progress, a
 * newer message never replaces an older one: each is a record of its own.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import {QueueSlot} from '../../jsonrpc/writer.js';
import {describe} from '../../util/describe.js';
import {LOGGING_LEVELS, levelRank} from '../protocol/log-levels.js';
import type {SessionOutput} from './output.js';
import type {LoggingLevel} from './types.js';

export {LOGGING_LEVELS, levelRank};

export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/** Where a call's log messages go; `logLevel` is the session's level from `logging/setLevel`. */
export interface LogWire {
    /** Where the messages go. */
    readonly output: SessionOutput;
    /** The rank `logging/setLevel` chose for the session, or undefined while the client asked for none. */
    readonly logLevel: number | undefined;
}

/** What a log needs to know of its call. */
export interface LogSource {
    /** The request the messages are about. */
    readonly requestId: RequestId;
    /** The request has not settled, been answered or been cancelled. */
    readonly open: boolean;
}

const WHO = 'context.log()';

export class Log {
    /** The handler's `log`: works unbound, so a handler may destructure it. */
    readonly send = (level: LoggingLevel, data: unknown, logger?: string): boolean =>
        this.#send(level, data, logger);
    readonly #source: LogSource;
    readonly #wire: LogWire;
    /** The request's own rank (2026-07-28); `null` to follow the session's (`logging/setLevel`). */
    readonly #rank: number | undefined | null;
    /** The slots of messages that may still wait in the writer's queue, all of one generation. */
    #slots: QueueSlot[] = [];

    constructor(source: LogSource, wire: LogWire, rank: number | undefined | null) {
        this.#source = source;
        this.#wire = wire;
        this.#rank = rank;
    }

    /** The request was cancelled: messages still waiting are never written. */
    withdraw(): void {
        for (const slot of this.#slots) this.#wire.output.withdraw(slot);
        this.#slots = [];
    }

    #send(level: unknown, data: unknown, logger: unknown): boolean {
        const rank = levelRank(level);
        if (rank === -1) {
            if (typeof level !== 'string') {
                throw new TypeError(`${WHO} needs a level string such as 'info', got ${describe(level)}`);
            }
            throw new RangeError(
                `${WHO}: ${JSON.stringify(level)} is not a log level; the levels are ${LOGGING_LEVELS.join(', ')}`,
            );
        }
        if (logger !== undefined && typeof logger !== 'string') {
            throw new TypeError(`${WHO}: logger, when given, must be a string, got ${describe(logger)}`);
        }
        const threshold = this.#rank === null ? this.#wire.logLevel : this.#rank;
        if (threshold === undefined || rank < threshold || !this.#source.open) return false;
        let json: string | undefined;
        try {
            json = JSON.stringify(data);
        } catch (error) {
            throw new TypeError(`${WHO}: data cannot be serialized as JSON (${(error as Error).message})`, {
                cause: error,
            });
        }
        if (json === undefined) {
            throw new TypeError(`${WHO}: data must be a JSON value, got ${describe(data)}`);
        }
        const name = logger === undefined ? '' : `,"logger":${JSON.stringify(logger)}`;
        const slot = new QueueSlot();
        this.#wire.output.sendLatest(
            `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"${level}"${name},"data":${json}}}\n`,
            slot,
            this.#source.requestId,
        );
        // A slot of an older generation than this one was handed to the stream: nothing to withdraw.
        if (slot.generation !== -1) {
            if (this.#slots.length > 0 && (this.#slots[0] as QueueSlot).generation !== slot.generation) {
                this.#slots = [];
            }
            this.#slots.push(slot);
        }
        return true;
    }
}
