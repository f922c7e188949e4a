/**
 * Newline framing: turns input chunks into records, one per line.
 *
 * Bytes are scanned for the line feed (0x0A) before anything is decoded. A line feed never occurs
 * inside a multi-byte UTF-8 sequence, so a record is always a whole run of bytes and a character
 * split across chunks is decoded only once its record is complete. A record that spans chunks is
 * kept as its decoded text so far plus the decoder's carried bytes; nothing is concatenated per
 * chunk. A trailing carriage return is removed, so LF and CRLF endings are both accepted, and empty
 * lines are skipped. The limit applies to the record without its line ending (a CRLF's carriage return
 * does not count). A record longer than the limit is never buffered: its bytes are counted and
 * dropped through its line feed, then reported with its size. A line that lies within one chunk
 * is decoded with `Buffer#toString`, which is cheaper than a decoder call; that decoding replaces
 * bad bytes with U+FFFD, so a line whose text contains U+FFFD is decoded again by the fatal decoder,
 * which either fails it or, when the U+FFFD was really sent, returns the same text. The whole lines
 * of a chunk that holds several are decoded together, up to `REGION_BYTES` at a time, when they are
 * ASCII, and sliced from that text.
 */

import {Utf8DecodeError} from './utf8-error.js';

/** Receives what the reader finds, in input order. */
export interface RecordSink {
    /** A complete record, without its line ending. Never empty. */
    receive(text: string): void;
    /** A record of `bytes` bytes (line feed excluded) exceeded the limit and was discarded. */
    oversized(bytes: number): void;
    /**
     * When given, a record that is not UTF-8 is skipped and reported here, and reading goes on:
     * `text` is what was read of it, for a diagnostic (its start when it spanned chunks; bad bytes
     * seen within one chunk show as U+FFFD), `bytes` its size. Without it, `push` throws `Utf8DecodeError` and the
     * reader halts.
     */
    invalid?(text: string, bytes: number): void;
}

const LF = 0x0a;
const CR = 0x0d;
/**
 * How much of a chunk one decoding of whole ASCII lines covers at most: a whole chunk at once raised
 * the peak RSS of a burst of requests, and this keeps the CPU gain (bench/LOG.md, entry 21).
 */
const REGION_BYTES = 8192;

export class LineReader {
    readonly #sink: RecordSink;
    readonly #maxBytes: number;
    #decoder = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});
    /** Decoded text of the record in progress. */
    #pendingText = '';
    /** Bytes of the record in progress, line feed excluded. */
    #pendingBytes = 0;
    /** Raw chunks of the record in progress, kept for the diagnostic of a decoding failure. */
    #parts: Buffer[] = [];
    /** The last byte of the record in progress is a carriage return (possibly its line ending). */
    #pendingCR = false;
    /** The record in progress is over the limit and is being dropped. */
    #discarding = false;
    /** The record in progress is being dropped because it is not UTF-8: what was read of it. */
    #invalidText: string | undefined;
    #halted = false;
    readonly #sender: string;

    /** `sender` names the peer in a decoding failure's message; the server's reader keeps the default. */
    constructor(sink: RecordSink, maxBytes: number, sender = 'the MCP client') {
        this.#sink = sink;
        this.#maxBytes = maxBytes;
        this.#sender = sender;
    }

    /** Stops delivering records, including any left in the chunk being processed. */
    halt(): void {
        this.#halted = true;
    }

    /** Feeds one input chunk. Throws `Utf8DecodeError` when byte input is not valid UTF-8. */
    push(chunk: Buffer | string): void {
        if (typeof chunk === 'string') {
            this.#pushText(chunk);
            return;
        }
        const length = chunk.length;
        let start = 0;
        let tryLines = true;
        while (!this.#halted) {
            const lf = chunk.indexOf(LF, start);
            if (lf === -1) break;
            if (this.#pendingBytes !== 0) {
                this.#finishPending(chunk, start, lf);
                start = lf + 1;
                continue;
            }
            // More than this line in the chunk: the whole lines of the next REGION_BYTES, when
            // they are ASCII, are decoded with one call and sliced. Text that is not ASCII is
            // decoded once more, line by line, and the rest of the chunk goes line by line.
            if (tryLines && lf + 1 < length) {
                const last = chunk.lastIndexOf(LF, start + REGION_BYTES);
                if (last > lf) {
                    if (this.#asciiLines(chunk, start, last)) {
                        start = last + 1;
                        continue;
                    }
                    tryLines = false;
                }
            }
            this.#wholeLine(chunk, start, lf);
            start = lf + 1;
        }
        if (start < length && !this.#halted) {
            this.#appendBytes(chunk, start);
        }
    }

    /** Input ended: a final record without its line feed is still delivered. */
    end(): void {
        if (this.#halted || this.#pendingBytes === 0) return;
        if (this.#discarding) {
            this.#reportOversized(this.#pendingCR ? -1 : 0);
            return;
        }
        let text: string;
        try {
            text = this.#pendingText + this.#decoder.decode();
        } catch (cause) {
            if (this.#sink.invalid === undefined) throw this.#decodeError(undefined, cause);
            this.#skipInvalid(this.#pendingText, this.#pendingBytes - (this.#pendingCR ? 1 : 0));
            return;
        }
        this.#reset();
        this.#emit(text);
    }

    #wholeLine(chunk: Buffer, start: number, lf: number): void {
        let end = lf;
        if (end > start && chunk[end - 1] === CR) end -= 1;
        if (end === start) return;
        if (end - start > this.#maxBytes) {
            this.#sink.oversized(end - start);
            return;
        }
        let text = chunk.toString('utf8', start, end);
        if (text.indexOf('\uFFFD') !== -1) {
            try {
                text = this.#decoder.decode(chunk.subarray(start, end));
            } catch (cause) {
                if (this.#sink.invalid === undefined) throw this.#decodeError(chunk, cause);
                this.#skipInvalid(text, end - start);
                return;
            }
        }
        this.#sink.receive(text);
    }

    /**
     * Delivers the lines of `chunk` from `start` to the line feed at `last` from one decoded text,
     * when that text is ASCII: then a character is a byte, so each line's length is its size in
     * bytes and no character can be split. Returns false, having delivered nothing, otherwise. The
     * check is exact: each byte that is not ASCII either shortens the text (a sequence of two to
     * four bytes is one or two characters) or becomes U+FFFD.
     */
    #asciiLines(chunk: Buffer, start: number, last: number): boolean {
        const text = chunk.toString('utf8', start, last);
        const end = text.length;
        if (end !== last - start || text.indexOf('\uFFFD') !== -1) return false;
        const sink = this.#sink;
        let from = 0;
        while (from <= end && !this.#halted) {
            let lf = text.indexOf('\n', from);
            if (lf === -1) lf = end;
            let stop = lf;
            if (stop > from && text.charCodeAt(stop - 1) === CR) stop -= 1;
            if (stop - from > this.#maxBytes) sink.oversized(stop - from);
            else if (stop > from) sink.receive(text.slice(from, stop));
            from = lf + 1;
        }
        return true;
    }

    #finishPending(chunk: Buffer, start: number, lf: number): void {
        const cr = (lf > start ? chunk[lf - 1] === CR : this.#pendingCR) ? 1 : 0;
        if (this.#discarding || this.#pendingBytes + (lf - start) - cr > this.#maxBytes) {
            this.#reportOversized(lf - start - cr);
            return;
        }
        let text: string;
        try {
            text = this.#pendingText + this.#decoder.decode(chunk.subarray(start, lf));
        } catch (cause) {
            if (this.#sink.invalid === undefined) throw this.#decodeError(chunk, cause);
            const bytes = this.#pendingBytes + (lf - start) - cr;
            this.#skipInvalid(this.#pendingText + chunk.toString('utf8', start, lf - cr), bytes);
            return;
        }
        this.#reset();
        this.#emit(text);
    }

    #appendBytes(chunk: Buffer, start: number): void {
        const bytes = chunk.length - start;
        this.#pendingBytes += bytes;
        this.#pendingCR = chunk[chunk.length - 1] === CR;
        if (this.#discarding) return;
        if (this.#pendingBytes - (this.#pendingCR ? 1 : 0) > this.#maxBytes) {
            this.#startDiscarding();
            return;
        }
        try {
            this.#pendingText += this.#decoder.decode(chunk.subarray(start), {stream: true});
        } catch (cause) {
            if (this.#sink.invalid === undefined) throw this.#decodeError(chunk, cause);
            // Dropped through its line feed like a record over the limit, then reported as invalid.
            this.#invalidText = this.#pendingText + chunk.toString('utf8', start);
            this.#startDiscarding();
            return;
        }
        this.#parts.push(chunk);
    }

    #pushText(chunk: string): void {
        let start = 0;
        while (!this.#halted) {
            const lf = chunk.indexOf('\n', start);
            if (lf === -1) break;
            const piece = chunk.slice(start, lf);
            start = lf + 1;
            const cr = (piece === '' ? this.#pendingCR : piece.endsWith('\r')) ? 1 : 0;
            const bytes = this.#pendingBytes + Buffer.byteLength(piece) - cr;
            if (this.#discarding || bytes > this.#maxBytes) {
                this.#reportOversized(bytes - this.#pendingBytes);
                continue;
            }
            const text = this.#pendingText + piece;
            this.#reset();
            this.#emit(text);
        }
        if (start < chunk.length && !this.#halted) {
            const piece = start === 0 ? chunk : chunk.slice(start);
            this.#pendingBytes += Buffer.byteLength(piece);
            this.#pendingCR = piece.endsWith('\r');
            if (this.#discarding) return;
            if (this.#pendingBytes - (this.#pendingCR ? 1 : 0) > this.#maxBytes) {
                this.#startDiscarding();
                return;
            }
            this.#pendingText += piece;
        }
    }

    #emit(text: string): void {
        const end = text.charCodeAt(text.length - 1) === CR ? text.length - 1 : text.length;
        if (end === 0) return;
        this.#sink.receive(end === text.length ? text : text.slice(0, end));
    }

    #startDiscarding(): void {
        this.#discarding = true;
        this.#pendingText = '';
        this.#parts = [];
        this.#decoder = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});
    }

    #reportOversized(tailBytes: number): void {
        const total = this.#pendingBytes + tailBytes;
        const invalidText = this.#invalidText;
        this.#reset();
        // The record may have ended inside a character the decoder still carries.
        this.#decoder = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});
        if (invalidText === undefined) this.#sink.oversized(total);
        else this.#sink.invalid?.(invalidText, total);
    }

    /** Drops the record in progress, which is not UTF-8, and reports it; reading goes on. */
    #skipInvalid(text: string, bytes: number): void {
        this.#reset();
        this.#decoder = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});
        (this.#sink.invalid as NonNullable<RecordSink['invalid']>)(text, bytes);
    }

    #reset(): void {
        this.#pendingText = '';
        this.#pendingBytes = 0;
        this.#pendingCR = false;
        this.#discarding = false;
        this.#invalidText = undefined;
        if (this.#parts.length > 0) this.#parts = [];
    }

    #decodeError(chunk: Buffer | undefined, cause: unknown): Utf8DecodeError {
        const chunks = chunk === undefined ? this.#parts : [...this.#parts, chunk];
        const error = new Utf8DecodeError(chunks, this.#pendingText, cause, this.#sender);
        this.#halted = true;
        return error;
    }
}
