/**
 * What the handler has in flight: the sessions whose handlers may still run, the exchanges still
 * waiting for an answer, and the per-request sessions holding an open `subscriptions/listen`
 * stream, so that `drain` can wait for the sessions, `close` can end the exchanges that will never
 * be answered, and resource updates reach every listen stream.
 */
import type {Session} from '../server/session.js';
import type {Exchange} from './exchange.js';

export class Tracker {
    /** Per-request sessions, until their exchange is done and their handlers settled. */
    readonly #sessions = new Set<Session>();
    readonly #exchanges = new Set<Exchange>();
    /** Per-request sessions whose listen exchange is still open. */
    readonly #listening = new Set<Session>();

    get sessions(): ReadonlySet<Session> {
        return this.#sessions;
    }

    get exchanges(): ReadonlySet<Exchange> {
        return this.#exchanges;
    }

    get listening(): ReadonlySet<Session> {
        return this.#listening;
    }

    /** `session` serves a listen stream on `exchange`, unless that exchange has ended already. */
    listen(exchange: Exchange, session: Session): void {
        if (this.#exchanges.has(exchange)) this.#listening.add(session);
    }

    /** `session` (a per-request one, or undefined for a legacy session) serves `exchange`. */
    hold(exchange: Exchange, session?: Session): void {
        this.#exchanges.add(exchange);
        if (session !== undefined) this.#sessions.add(session);
    }

    release(exchange: Exchange, session?: Session): void {
        this.#exchanges.delete(exchange);
        if (session === undefined) return;
        this.#listening.delete(session);
        session.calls.whenAllAnswered().then(() => this.#sessions.delete(session));
    }
}
