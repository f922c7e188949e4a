/**
 * The legacy sessions of one handler, in memory: created by `initialize` under a random id, found
 * by `Mcp-Session-Id`, ended by DELETE, by idle expiry, by eviction when `maxSessions` is reached,
 * or by `close()`. A `Map` in least-recently-used order: each use moves a session to the end.
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

    /** A new session not registered yet (see `admit`), or undefined when every slot is busy. */
    create(): LegacySession | undefined {
        if (this.#sessions.size >= this.#settings.maxSessions && !this.#evict()) return undefined;
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

    /** Ends the least recently used idle session; false when none is idle. */
    #evict(): boolean {
        for (const session of this.#sessions.values()) {
            if (session.idle) {
                this.end(session, 'evicted');
                return true;
            }
        }
        return false;
    }
}
