/**
 * One legacy (2025-03-26 through 2025-11-25) session: the core's `Session` behind an
 * `Mcp-Session-Id`, the POST exchanges waiting for its answers, and its optional GET stream for
 * messages that belong to no request. A response goes to the exchange of its request id, and a
 * call's progress and log messages to the exchange of its request, or nowhere once that is over:
 * the GET stream carries only what concerns no request in flight, and nothing when none is open.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {isRequestId} from '../../jsonrpc/records.js';
import type {QueueSlot} from '../../jsonrpc/writer.js';
import {formatDiagnostic} from '../server/diagnostics.js';
import {Session} from '../server/session.js';
import type {Exchange} from './exchange.js';
import {startKeepAlive} from './keep-alive.js';
import type {HttpSettings} from './options.js';
import {isNotificationRecord, sseEvent, sseHeaders} from './responses.js';

const encoder = new TextEncoder();

/**
 * The most bytes of events a GET stream holds unread: an event that would pass it ends the stream
 * (its client may open another), so a client that never reads it cannot make the server buffer
 * without end. An event on a stream with nothing unread goes whatever its size: the bound is on
 * what piles up, not on one message.
 */
export const MAX_UNREAD_STREAM_BYTES = 1024 * 1024;

/** A GET stream's queue counted in bytes, with no room held back: `desiredSize` is minus the unread bytes. */
const UNREAD_BYTES: QueuingStrategy<Uint8Array> = {highWaterMark: 0, size: (chunk) => chunk.byteLength};

export class LegacySession {
    readonly id: string;
    readonly session: Session;
    /** Open exchanges by request id. */
    readonly exchanges = new Map<RequestId, Exchange>();
    /** The exchange whose record is being received: where an answer without an id goes. */
    #current: Exchange | undefined;
    #stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    /** Stops the GET stream's keep-alive comments. */
    #stopKeepAlive: (() => void) | undefined;
    /** The GET stream's client is waiting for data: everything written has been read. */
    #clientWaiting = false;
    #timer: ReturnType<typeof setTimeout> | undefined;
    /** When the idle clock started (`Date.now()`), while the session is idle. */
    #idleSince: number | undefined;
    readonly #idleTimeoutMs: number;
    readonly #onIdle: () => void;
    readonly #diagnose: (text: string) => void;
    /** Set once the session has ended. */
    ended = false;

    constructor(id: string, settings: HttpSettings, onIdle: () => void) {
        this.id = id;
        this.#idleTimeoutMs = settings.idleTimeoutMs;
        this.#onIdle = onIdle;
        this.#diagnose = settings.diagnose;
        this.session = new Session(settings.catalog, {
            send: (record) => this.#route(record, undefined, undefined),
            sendLatest: (record, slot, relatedId) => this.#route(record, slot, relatedId),
            // A question to the client goes on the event stream of the request it serves.
            sendRelated: (record, relatedId) => {
                const exchange = this.exchanges.get(relatedId);
                if (exchange !== undefined) exchange.notify(record);
                else this.#enqueue(record);
            },
            // A slot belongs to one call; the few open exchanges are asked rather than indexed.
            withdraw: (slot) => {
                for (const exchange of this.exchanges.values()) exchange.withdraw(slot);
            },
            diagnose: settings.diagnose,
        });
    }

    /** No request in flight and no GET stream open. */
    get idle(): boolean {
        return this.exchanges.size === 0 && this.#stream === undefined && this.session.calls.running === 0;
    }

    /** When the idle clock runs out (`Date.now()` time), or undefined while the session is not idle. */
    get expiresAt(): number | undefined {
        return this.#idleSince === undefined ? undefined : this.#idleSince + this.#idleTimeoutMs;
    }

    get hasStream(): boolean {
        return this.#stream !== undefined;
    }

    /**
     * Hands one parsed record, POSTed as `request`, to the core; `exchange` waits for its answer
     * when it is a request.
     */
    receive(message: JsonObject, request: Request, exchange: Exchange | undefined): void {
        if (exchange !== undefined) this.exchanges.set(exchange.id, exchange);
        this.#touch();
        this.#current = exchange;
        const calls = this.session.calls;
        calls.http = {headers: request.headers};
        try {
            this.session.receiveParsed(message);
        } finally {
            this.#current = undefined;
            calls.http = undefined;
        }
    }

    /** An exchange ended: forget it, and start the idle clock when nothing is left. */
    done(exchange: Exchange): void {
        if (this.exchanges.get(exchange.id) === exchange) this.exchanges.delete(exchange.id);
        // The core counts the call as running until just after its answer is sent.
        queueMicrotask(() => this.#touch());
    }

    /** Opens the GET stream (the caller checked that none is open). */
    openStream(): Response {
        this.#touch();
        const body = new ReadableStream<Uint8Array>(
            {
                start: (controller) => {
                    this.#stream = controller;
                    // Only to a client waiting for data: a comment never sits unread.
                    this.#stopKeepAlive = startKeepAlive((comment) => {
                        if (this.#clientWaiting) this.#write(controller, comment);
                    });
                },
                // With no room held back, a pull means the client asked for more than is queued.
                pull: () => {
                    this.#clientWaiting = true;
                },
                cancel: () => {
                    this.#detachStream();
                    this.#touch();
                },
            },
            UNREAD_BYTES,
        );
        return new Response(body, {status: 200, headers: sseHeaders({'mcp-session-id': this.id})});
    }

    /**
     * Tells this session of an update to `uri` when it subscribed to it, on its GET stream: 1 when
     * told, 0 when not subscribed or no GET stream is open to carry it (the update is dropped then).
     */
    notifyResourceUpdated(uri: string): number {
        if (this.ended || this.#stream === undefined) return 0;
        const sent = this.session.subscriptions.notify(uri);
        // The bound on unread events may have ended the stream instead of carrying the update.
        return this.#stream === undefined ? 0 : sent;
    }

    /** Ends the session: its GET stream closes, its timer stops; exchanges are the caller's. */
    end(): void {
        this.ended = true;
        // Questions to the client can no longer be answered; listen requests are told.
        this.session.ending();
        clearTimeout(this.#timer);
        this.#timer = undefined;
        // Open while set: a reader's cancel unsets it first.
        this.#detachStream()?.close();
    }

    /** Forgets the GET stream and stops its keep-alive; returns it, still open, if there was one. */
    #detachStream(): ReadableStreamDefaultController<Uint8Array> | undefined {
        const stream = this.#stream;
        this.#stream = undefined;
        this.#stopKeepAlive?.();
        this.#stopKeepAlive = undefined;
        this.#clientWaiting = false;
        return stream;
    }

    /** Restarts the idle clock when the session is idle, stops it otherwise. */
    #touch(): void {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#idleSince = undefined;
        if (this.ended || !this.idle) return;
        this.#idleSince = Date.now();
        this.#timer = setTimeout(this.#onIdle, this.#idleTimeoutMs);
        this.#timer.unref();
    }

    #route(record: string, slot: QueueSlot | undefined, relatedId: RequestId | undefined): void {
        if (!isNotificationRecord(record)) {
            // An answer whose client left ends a call all the same: the session may be idle now.
            queueMicrotask(() => this.#touch());
            this.#answerOwner(record)?.answer(record);
            return;
        }
        // About a request (a call's progress or log): on that request's answer only, as the GET
        // stream is for messages unrelated to requests in flight.
        if (relatedId !== undefined) this.exchanges.get(relatedId)?.notify(record, slot);
        else this.#enqueue(record);
    }

    /**
     * A message on the GET stream, when one is open. It goes when nothing is unread, or when the
     * unread bytes with it stay within `MAX_UNREAD_STREAM_BYTES`; otherwise it ends the stream
     * instead: the events already queued are still delivered, then the client sees the stream end
     * and may open a new one.
     */
    #enqueue(record: string): void {
        const stream = this.#stream;
        if (stream === undefined) return;
        const event = encoder.encode(sseEvent(record));
        const unread = -(stream.desiredSize ?? 0);
        if (unread === 0 || unread + event.byteLength <= MAX_UNREAD_STREAM_BYTES) {
            this.#write(stream, event);
            return;
        }
        this.#detachStream()?.close();
        this.#touch();
        this.#diagnose(
            formatDiagnostic(
                `Ended a session's GET stream: its client left over ${MAX_UNREAD_STREAM_BYTES} bytes of events ` +
                    'unread; what the session sends before the client opens a new one is dropped',
            ),
        );
    }

    #write(stream: ReadableStreamDefaultController<Uint8Array>, chunk: Uint8Array): void {
        // The chunk answers the client's read; it waits again once it asks for more.
        this.#clientWaiting = false;
        stream.enqueue(chunk);
    }

    #answerOwner(record: string): Exchange | undefined {
        const id = (JSON.parse(record) as JsonObject).id;
        if (isRequestId(id)) return this.exchanges.get(id) ?? this.#current;
        return this.#current;
    }
}
