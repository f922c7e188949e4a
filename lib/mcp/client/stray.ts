/**
 * Problems that belong to no request: what they are called, the event a caller's
 * `onProtocolError` receives, and calling it so that nothing it does can break the session.
 */
import type {StrayKind} from './transport.js';

/**
 * What was wrong, as a stable string:
 * - `not-utf8`: a stdio line whose bytes are not UTF-8;
 * - `not-json`: a stdio line, or the data of an SSE event, that is not JSON;
 * - `oversized`: a stdio line or SSE event over `maxMessageBytes` (dropped without being kept);
 * - `not-json-rpc`: JSON that is not a JSON-RPC message (an array, a number, a wrong `jsonrpc`);
 * - `unmatched-response`: a response to an id this client never sent or already settled, or one
 *   with no usable id (such as an error the server could not tie to a request).
 */
export type McpProtocolErrorKind = StrayKind | 'not-json-rpc' | 'unmatched-response';

/** One problem the server caused that belongs to no request. */
export interface McpProtocolErrorEvent {
    readonly kind: McpProtocolErrorKind;
    /** What was wrong, for a person: with `strict: true`, the message the session ends with. */
    readonly message: string;
    /**
     * The offending line, SSE event data or message (as JSON), at most {@link STRAY_TEXT_CHARS}
     * characters, ending with `…` when cut; bytes that are not UTF-8 show as U+FFFD. Empty for
     * `oversized`, whose bytes are never kept. Untrusted text: show it, never run it.
     */
    readonly text: string;
}

/** The longest `text` an `McpProtocolErrorEvent` carries, in UTF-16 code units (`…` excluded). */
export const STRAY_TEXT_CHARS = 200;

/** The start of `text`, cut between characters rather than inside a surrogate pair. */
export function excerpt(text: string): string {
    if (text.length <= STRAY_TEXT_CHARS) return text;
    let end = STRAY_TEXT_CHARS;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    return `${text.slice(0, end)}…`;
}

/**
 * Tells a caller's callback (`onProtocolError`, the notification callbacks). What it throws, or a
 * promise it returns that rejects, is dropped: the callback observes the session and must not end
 * it.
 */
export function tell<T>(callback: (value: T) => void, value: T): void {
    try {
        const returned: unknown = callback(value);
        if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') {
            (returned as PromiseLike<unknown>).then(undefined, () => {});
        }
    } catch {
        // Dropped on purpose: see above.
    }
}
