/**
 * The legacy sessions of one handler, in memory: created by `initialize` under a random id, found
 * by `Mcp-Session-Id`, ended by DELETE, by idle expiry or by `close()`. At `maxSessions` a new one
 * is refused rather than another client's session ended: a session, once granted, lasts until its
 * client ends it or it has been idle for the idle timeout, so a flood of `initialize` cannot take
 * sessions away from the clients holding them. A `Map` in least-recently-used order.
 */
import {randomBytes} from 'node:crypto';
import {LegacySession} from './legacy-session.js';
import type {HttpSettings} from './options.js';
import type {SessionEndReason} from './types.js';

export class LegacySessions {
    readonly #settings: HttpSettings;
    readonly #sessions = new Map<string, LegacySession>();

    constructor(settings: HttpSettings) {
        this.#settings = settings;
    }

    get size(): number {
        return this.#sessions.size;
    }

    values(): IterableIterator<LegacySession> {
        return this.#sessions.values();
    }

    /** A new session not registered yet (see `admit`), or undefined at `maxSessions`. */
    create(): LegacySession | undefined {
        if (this.#sessions.size >= this.#settings.maxSessions) this.#endExpired();
        if (this.#sessions.size >= this.#settings.maxSessions) return undefined;
        // 32 random bytes as base64url: visible ASCII only, as the transport requires.
        const id = randomBytes(32).toString('base64url');
        const session: LegacySession = new LegacySession(id, this.#settings, () =>
            this.end(session, 'expired'),
        );
        return session;
    }

    /** Registers a session whose `initialize` succeeded. */
    admit(session: LegacySession): void {
        this.#sessions.set(session.id, session);
    }

    /** The session for an id, moved to the most recently used end. */
    use(id: string): LegacySession | undefined {
        const session = this.#sessions.get(id);
        if (session === undefined) return undefined;
        this.#sessions.delete(id);
        this.#sessions.set(id, session);
        return session;
    }

    end(session: LegacySession, reason: SessionEndReason): void {
        if (session.ended) return;
        if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
        session.end();
        session.session.calls.cancelAll(new DOMException(`The MCP session ended (${reason})`, 'AbortError'));
        this.#settings.onSessionEnd?.({sessionId: session.id, reason});
    }

    /** Whole seconds until a session's idle clock runs out (at least 1): a refusal's `Retry-After`. */
    retryAfterSeconds(): number {
        let soonest = Number.POSITIVE_INFINITY;
        for (const session of this.#sessions.values())
            soonest = Math.min(soonest, session.expiresAt ?? soonest);
        // With every session busy, one that turns idle now expires after a full timeout.
        const wait = Number.isFinite(soonest) ? soonest - Date.now() : this.#settings.idleTimeoutMs;
        return Math.max(1, Math.ceil(wait / 1000));
    }

    /** Ends the sessions idle past their timeout whose timer has not fired yet (a busy event loop). */
    #endExpired(): void {
        const now = Date.now();
        for (const session of [...this.#sessions.values()]) {
            const expiresAt = session.expiresAt;
            if (expiresAt !== undefined && expiresAt <= now) this.end(session, 'expired');
        }
    }
}
