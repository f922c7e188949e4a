/**
 * The session's output: where a session's answers, notifications and diagnostics go. A transport
 * implements it once per session (stdio over its two record writers; an HTTP handler over its
 * response), and the session, its calls and its methods write only through it.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import type {QueueSlot} from '../../jsonrpc/writer.js';

export interface SessionOutput {
    /** Sends one whole JSON-RPC record, line feed included. */
    send(record: string): void;
    /**
     * Sends one whole record in `slot`, over the one still waiting there (`RecordWriter#writeLatest`).
     * `relatedId`: the client's request this notification is about, for a transport with a channel
     * per request.
     */
    sendLatest(record: string, slot: QueueSlot, relatedId?: RequestId): void;
    /** Drops the record still waiting in `slot`, if any (`RecordWriter#withdraw`). */
    withdraw(slot: QueueSlot): void;
    /**
     * Sends one record of the server's own, a request to the client or its cancellation, made
     * while serving the client's request `relatedId`: a transport with a channel per request (an
     * HTTP exchange) sends it there. Without this method, `send` is used.
     */
    sendRelated?(record: string, relatedId: RequestId): void;
    /** Reports one diagnostic record (`formatDiagnostic`), never on the protocol stream. */
    diagnose(text: string): void;
}
