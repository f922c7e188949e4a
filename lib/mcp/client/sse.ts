/**
 * A Server-Sent Events parser: the event-stream interpretation rules of the WHATWG HTML standard,
 * fed byte chunks as they arrive, with a bound on how much one event may hold.
 *
 * Lines end at LF, CR or CRLF. A CR ends its line at once; an LF that follows it, even in the next
 * chunk, belongs to the same line ending. CR and LF never occur inside a multi-byte UTF-8 sequence,
 * and neither does the colon, so lines are found and split in bytes and each field is decoded on
 * its own with the WHATWG UTF-8 decoder (bad bytes become U+FFFD, as when a whole stream is
 * decoded). One byte order mark at the very start of the stream is skipped.
 *
 * Per line: an empty line dispatches the event; a line starting with a colon is a comment; a line
 * with a colon is a field named by what precedes the first colon, its value being the rest without
 * one leading space; a line without a colon is a field with an empty value. `data` appends its value
 * and an LF to the data buffer; `event` sets the event type; `id` sets the last event id buffer
 * unless its value contains U+0000; `retry` made of ASCII digits only reports a reconnection time;
 * other fields are ignored. At dispatch the last event id is taken from its buffer (which is not
 * cleared), an empty data buffer dispatches nothing, a final LF is removed from the data, and the
 * type defaults to `message`. What follows the last empty line when the stream ends is discarded.
 *
 * The bound: the bytes of an event's lines (comments and line endings not counted), including the
 * line in progress, may not exceed `maxEventBytes`. Past it the event is dropped, `onOversized` is
 * told once, and every line up to the next empty line is discarded without being kept.
 */

/** One dispatched event. */
export interface SseEvent {
    /** The `event` field, or `message` when none (or an empty one) was given. */
    readonly type: string;
    /** The `data` lines joined by LF. May be empty (a `data` field with no value). */
    readonly data: string;
    /** The last event id of the stream as of this event: `''` until the server sets one. */
    readonly lastEventId: string;
}

export interface SseHandlers {
    event(event: SseEvent): void;
    /** A `retry` field: the server's reconnection time in milliseconds. Default: ignored. */
    retry?(milliseconds: number): void;
    /** An event grew past the limit and was dropped; `bytes` is its size when the limit was passed. */
    oversized(bytes: number): void;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

const decoder = new TextDecoder('utf-8', {ignoreBOM: true});

function text(bytes: Uint8Array, start: number, end: number): string {
    return start === end ? '' : decoder.decode(bytes.subarray(start, end));
}

export class SseParser {
    readonly #handlers: SseHandlers;
    readonly #maxEventBytes: number;
    /** Parts of the line in progress (it spans chunks), unless it is being dropped. */
    #parts: Uint8Array[] = [];
    #partBytes = 0;
    /** Earlier chunks hold the start of the current line (kept in `#parts`, or dropped). */
    #lineStarted = false;
    /** The previous chunk ended with CR: an LF at the start of this one ends no further line. */
    #afterCR = false;
    /** No line has been completed yet: the first one may start with a byte order mark. */
    #firstLine = true;
    /** Bytes of the current event's lines so far, comments excluded. */
    #eventBytes = 0;
    /** The current event went over the limit: its lines are dropped through the next empty line. */
    #dropping = false;
    /** The data buffer: each `data` value followed by LF. */
    #data = '';
    #type = '';
    #idBuffer = '';
    #lastEventId = '';

    constructor(handlers: SseHandlers, maxEventBytes: number) {
        this.#handlers = handlers;
        this.#maxEventBytes = maxEventBytes;
    }

    /** The stream's last event id as of its last dispatch step: what `Last-Event-ID` should carry. */
    get lastEventId(): string {
        return this.#lastEventId;
    }

    /** Feeds the next chunk of the stream's bytes. Handlers run synchronously, in stream order. */
    push(chunk: Uint8Array): void {
        let start = 0;
        if (this.#afterCR && chunk.length > 0) {
            this.#afterCR = false;
            if (chunk[0] === LF) start = 1;
        }
        const length = chunk.length;
        let index = start;
        while (index < length) {
            const byte = chunk[index];
            if (byte !== LF && byte !== CR) {
                index += 1;
                continue;
            }
            this.#endLine(chunk, start, index);
            index += 1;
            if (byte === CR) {
                if (index === length) {
                    this.#afterCR = true;
                } else if (chunk[index] === LF) {
                    index += 1;
                }
            }
            start = index;
        }
        if (start < length) this.#keep(chunk, start);
    }

    /**
     * The stream ended: an event still without its closing empty line is discarded, as the
     * standard says. `lastEventId` stays readable; a new stream needs a new parser.
     */
    end(): void {
        this.#parts = [];
        this.#partBytes = 0;
        this.#lineStarted = false;
        this.#resetEvent();
    }

    #keep(chunk: Uint8Array, start: number): void {
        this.#lineStarted = true;
        if (this.#dropping) return;
        this.#partBytes += chunk.length - start;
        if (this.#overLimit(this.#partBytes)) return;
        this.#parts.push(start === 0 ? chunk : chunk.subarray(start));
    }

    #endLine(chunk: Uint8Array, start: number, end: number): void {
        let line = chunk;
        let from = start;
        let to = end;
        if (this.#lineStarted) {
            this.#lineStarted = false;
            // The tail of a dropped line, even when empty here, is no empty line.
            if (this.#dropping) return;
            const kept = this.#parts;
            line = new Uint8Array(this.#partBytes + (end - start));
            this.#parts = [];
            this.#partBytes = 0;
            let offset = 0;
            for (const part of kept) {
                line.set(part, offset);
                offset += part.length;
            }
            line.set(chunk.subarray(start, end), offset);
            from = 0;
            to = line.length;
        }
        if (this.#firstLine) {
            this.#firstLine = false;
            if (to - from >= 3 && line[from] === 0xef && line[from + 1] === 0xbb && line[from + 2] === 0xbf) {
                from += 3;
            }
        }
        if (from === to) {
            this.#dispatch();
            return;
        }
        if (this.#dropping || line[from] === COLON) return;
        if (this.#overLimit(to - from)) return;
        this.#eventBytes += to - from;
        this.#field(line, from, to);
    }

    /** Checks the event's size with `pending` more bytes; starts dropping it when too big. */
    #overLimit(pending: number): boolean {
        const bytes = this.#eventBytes + pending;
        if (bytes <= this.#maxEventBytes) return false;
        this.#dropping = true;
        this.#parts = [];
        this.#partBytes = 0;
        this.#data = '';
        this.#handlers.oversized(bytes);
        return true;
    }

    #field(line: Uint8Array, from: number, to: number): void {
        let colon = line.indexOf(COLON, from);
        if (colon >= to) colon = -1;
        const nameEnd = colon === -1 ? to : colon;
        let valueStart = colon === -1 ? to : colon + 1;
        if (valueStart < to && line[valueStart] === SPACE) valueStart += 1;
        const name = text(line, from, nameEnd);
        switch (name) {
            case 'data':
                this.#data += `${text(line, valueStart, to)}\n`;
                return;
            case 'event':
                this.#type = text(line, valueStart, to);
                return;
            case 'id': {
                const value = text(line, valueStart, to);
                if (!value.includes('\0')) this.#idBuffer = value;
                return;
            }
            case 'retry': {
                const value = text(line, valueStart, to);
                if (/^[0-9]+$/.test(value)) this.#handlers.retry?.(Number(value));
                return;
            }
            default:
                return;
        }
    }

    #dispatch(): void {
        this.#lastEventId = this.#idBuffer;
        const dropped = this.#dropping;
        const data = this.#data;
        const type = this.#type;
        this.#resetEvent();
        if (dropped || data === '') return;
        this.#handlers.event({
            type: type === '' ? 'message' : type,
            data: data.slice(0, -1),
            lastEventId: this.#lastEventId,
        });
    }

    #resetEvent(): void {
        this.#data = '';
        this.#type = '';
        this.#eventBytes = 0;
        this.#dropping = false;
    }
}
