/**
 * `context.reportProgress`: one call's progress notifications, checked at the call site and sent
 * through the ordered writer, the same in both eras (the token rides in `params._meta` of a
 * 2025 request and of a 2026-07-28 request alike).
 *
 * Rules:
 * - The token is `params._meta.progressToken` when it is a string or an integer of at most
 *   2^53 - 1 in magnitude (`0` included), as request ids are. Any other value is not a token: the
 *   request is served without progress, and the first report of its handler says why in a
 *   diagnostic. The request itself is answered as usual: progress is optional, so a client's bad
 *   token costs it only the notifications.
 * - Every report is checked, with or without a token and after the request ended, so a mistake
 *   shows on the first run and not only with a client that asks for progress.
 * - A report is sent only while the request is open: after its handler settled (returned, threw,
 *   or its promise settled), it was answered or it was cancelled, nothing is sent.
 * - The notifications of a request share one queue slot (`QueueSlot`): while one still waits for
 *   the writer, a newer one takes its place, so a handler that reports in a tight loop leaves at
 *   most one waiting record. A notification still waiting when its request is answered or
 *   cancelled is withdrawn (see `Call#end`), so the response follows only notifications already
 *   handed to the stream, and nothing of a cancelled request is written after the cancel.
 */
import type {RequestId} from '../../jsonrpc/records.js';
import {isObject, isRequestId} from '../../jsonrpc/records.js';
import {QueueSlot} from '../../jsonrpc/writer.js';
import {describe} from '../../util/describe.js';
import {formatDiagnostic} from './diagnostics.js';
import type {SessionOutput} from './output.js';
import type {ProgressUpdate} from './types.js';

/** What progress needs to know of its call. */
export interface ProgressSource {
    readonly requestId: RequestId;
    /** The request's `params._meta.progressToken` as sent, unchecked; undefined when absent. */
    readonly progressToken: unknown;
    /** The request has not settled, been answered or been cancelled. */
    readonly open: boolean;
    describe(): string;
}

const WHO = 'context.reportProgress()';

/** The request's `params._meta.progressToken` as sent, or undefined. */
export function progressTokenOf(meta: unknown): unknown {
    return isObject(meta) ? meta.progressToken : undefined;
}

/** One call's `reportProgress` and the queue slot its notifications share. */
export class ProgressReporter {
    /** The handler's `reportProgress`: works unbound, so a handler may destructure it. */
    readonly report = (update: ProgressUpdate): boolean => this.#report(update);
    readonly #source: ProgressSource;
    readonly #output: SessionOutput;
    #last = Number.NEGATIVE_INFINITY;
    /** The start of every record, up to the progress value; '' when the request has no token. */
    #head: string | undefined;
    readonly #slot = new QueueSlot();

    constructor(source: ProgressSource, output: SessionOutput) {
        this.#source = source;
        this.#output = output;
    }

    /** The request was answered or cancelled: a notification still waiting is never written. */
    withdraw(): void {
        this.#output.withdraw(this.#slot);
    }

    #report(update: unknown): boolean {
        if (!isObject(update)) {
            throw new TypeError(
                `${WHO} needs an object such as {progress: 1, total: 10, message: 'Step 1 of 10'}, got ${describe(update)}`,
            );
        }
        for (const key in update) {
            if (key !== 'progress' && key !== 'total' && key !== 'message') {
                throw new TypeError(
                    `${WHO} got an unknown field ${JSON.stringify(key)}; the fields are progress, total and message`,
                );
            }
        }
        const {progress, total, message} = update;
        if (typeof progress !== 'number') {
            throw new TypeError(`${WHO}: progress must be a finite number, got ${describe(progress)}`);
        }
        if (!Number.isFinite(progress)) {
            throw new RangeError(`${WHO}: progress must be a finite number, got ${progress}`);
        }
        if (progress <= this.#last) {
            throw new RangeError(
                `${WHO}: progress ${progress} is not greater than ${this.#last}, the last progress reported ` +
                    `for ${this.#source.describe()}; progress must increase with each report`,
            );
        }
        if (total !== undefined) {
            if (typeof total !== 'number') {
                throw new TypeError(
                    `${WHO}: total, when given, must be a finite number, got ${describe(total)}`,
                );
            }
            if (!Number.isFinite(total)) {
                throw new RangeError(`${WHO}: total, when given, must be a finite number, got ${total}`);
            }
        }
        if (message !== undefined && typeof message !== 'string') {
            throw new TypeError(`${WHO}: message, when given, must be a string, got ${describe(message)}`);
        }
        this.#last = progress;
        if (!this.#source.open) return false;
        if (this.#head === undefined) this.#head = this.#start();
        const head = this.#head;
        if (head === '') return false;
        // A finite number prints as JSON would (`String(-0)` and `JSON.stringify(-0)` are both "0").
        let record = `${head}${progress}`;
        if (total !== undefined) record += `,"total":${total}`;
        if (message !== undefined) record += `,"message":${JSON.stringify(message)}`;
        this.#output.sendLatest(`${record}}}\n`, this.#slot, this.#source.requestId);
        return true;
    }

    /** The record's start for a valid token; otherwise '' and a diagnostic saying why. */
    #start(): string {
        const token = this.#source.progressToken;
        if (isRequestId(token)) {
            return `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${JSON.stringify(token)},"progress":`;
        }
        if (token !== undefined) {
            this.#output.diagnose(
                formatDiagnostic(
                    `Sent no progress for ${this.#source.describe()}: its params._meta.progressToken is ` +
                        `${describe(token)}, and a progress token must be a string or an integer`,
                ),
            );
        }
        return '';
    }
}
