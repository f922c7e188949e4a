/**
 * One session's resource subscriptions: the URIs a legacy client subscribed to with
 * `resources/subscribe`, and the open `subscriptions/listen` requests of 2026-07-28, each with the
 * URIs it was granted. `notify` sends `notifications/resources/updated` to each; `end` answers every
 * open listen request, as the session closes. A session holds at most `limit` subscriptions: the
 * legacy URIs plus each listen's URIs, a listen granted none counting one, as it is held too.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import {resultRecord} from '../../jsonrpc/records.js';
import type {SessionOutput} from './output.js';

export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

export class Subscriptions {
    readonly #output: SessionOutput;
    readonly #legacy = new Set<string>();
    readonly #listens = new Map<RequestId, ReadonlySet<string>>();
    readonly limit: number;
    /** The slots the open listens take. */
    #listening = 0;

    constructor(output: SessionOutput, limit: number) {
        this.#output = output;
        this.limit = limit;
    }

    /** The subscriptions held, legacy and listens together. */
    get count(): number {
        return this.#legacy.size + this.#listening;
    }

    /** False, subscribing nothing, when a new `uri` would take the session over its limit. */
    subscribe(uri: string): boolean {
        if (this.#legacy.has(uri)) return true;
        if (this.count >= this.limit) return false;
        this.#legacy.add(uri);
        return true;
    }

    unsubscribe(uri: string): void {
        this.#legacy.delete(uri);
    }

    /** The subscriptions a listen granted `count` URIs takes: a listen granted none is held too. */
    static slots(count: number): number {
        return Math.max(1, count);
    }

    /** An open listen request holds its id, as a running call does. */
    holds(id: RequestId): boolean {
        return this.#listens.has(id);
    }

    /** Opens a listen stream granted `uris`, acknowledging it first. */
    listen(id: RequestId, uris: readonly string[]): void {
        this.#listens.set(id, new Set(uris));
        this.#listening += Subscriptions.slots(uris.length);
        this.#output.send(
            `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":${idMeta(id)},"notifications":{"resourceSubscriptions":${JSON.stringify(uris)}}}}\n`,
        );
    }

    /** The client cancelled its listen request: the stream ends, unanswered. True when one was open. */
    cancel(id: RequestId): boolean {
        const uris = this.#listens.get(id);
        if (uris === undefined) return false;
        this.#listens.delete(id);
        this.#listening -= Subscriptions.slots(uris.size);
        return true;
    }

    /** Tells every subscriber of `uri`; returns how many notifications were sent. */
    notify(uri: string): number {
        let sent = 0;
        const uriJson = JSON.stringify(uri);
        if (this.#legacy.has(uri)) {
            this.#output.send(
                `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":${uriJson}}}\n`,
            );
            sent += 1;
        }
        for (const [id, uris] of this.#listens) {
            if (!uris.has(uri)) continue;
            this.#output.send(
                `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":${idMeta(id)},"uri":${uriJson}}}\n`,
            );
            sent += 1;
        }
        return sent;
    }

    /** The session is closing: each open listen request is answered, a graceful end of its stream. */
    end(): void {
        for (const id of this.#listens.keys()) {
            this.#output.send(resultRecord(id, `{"resultType":"complete","_meta":${idMeta(id)}}`));
        }
        this.#listens.clear();
        this.#listening = 0;
        this.#legacy.clear();
    }
}

function idMeta(id: RequestId): string {
    return `{${JSON.stringify(SUBSCRIPTION_ID_KEY)}:${JSON.stringify(id)}}`;
}
