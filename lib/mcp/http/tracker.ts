/**
 * What the handler has in flight: the sessions whose handlers may still run and the exchanges
 * still waiting for an answer, so that `drain` can wait for the sessions and `close` can end the
 * exchanges that will never be answered.
 */
import type {Session} from '../server/session.js';
import type {Exchange} from './exchange.js';

export class Tracker {
    /** Per-request sessions, until their exchange is done and their handlers settled. */
    readonly #sessions = new Set<Session>();
    readonly #exchanges = new Set<Exchange>();

    get sessions(): ReadonlySet<Session> {
        return this.#sessions;
    }

    get exchanges(): ReadonlySet<Exchange> {
        return this.#exchanges;
    }

    /** `session` (a per-request one, or undefined for a legacy session) serves `exchange`. */
    hold(exchange: Exchange, session?: Session): void {
        this.#exchanges.add(exchange);
        if (session !== undefined) this.#sessions.add(session);
    }

    release(exchange: Exchange, session?: Session): void {
        this.#exchanges.delete(exchange);
        if (session === undefined) return;
        session.calls.whenAllAnswered().then(() => this.#sessions.delete(session));
    }
}
