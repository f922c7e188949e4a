/**
 * What a caller holds for an open subscription: its id, what was asked for and granted, the
 * promise of how it ended, and an idempotent `close()`.
 */
import type {FullFilter, ListenFilter} from './listen-filter.js';

/** How a subscription ended. */
export type ListenEnd =
    /** `close()`, the listen's `signal`, or `client.close()`. */
    | {readonly by: 'client'}
    /** The server answered the listen request (a graceful end) or cancelled it. */
    | {readonly by: 'server'}
    /** The server answered with an error, or the connection or the session ended. */
    | {readonly by: 'error'; readonly error: unknown};

/** An open subscription, as `client.listen()` resolves it. */
export interface McpSubscription {
    /** The subscription id: the id of its `subscriptions/listen` request. */
    readonly id: number;
    /** What was asked for, duplicates removed. */
    readonly requested: Readonly<Required<ListenFilter>>;
    /** What the server agreed to deliver: a part of `requested`, maybe all of it, maybe none. */
    readonly granted: Readonly<Required<ListenFilter>>;
    /** Settles, never rejecting, once the subscription is over. */
    readonly ended: Promise<ListenEnd>;
    /** Ends the subscription. Idempotent: every call returns the same promise, which never rejects. */
    close(): Promise<void>;
}

/**
 * The frozen handle of an acknowledged subscription. `end` is called once, by the first
 * `close()`; every call returns the same promise, settled when `ended` is.
 */
export function subscriptionHandle(
    id: number,
    requested: FullFilter,
    granted: FullFilter,
    ended: Promise<ListenEnd>,
    end: () => void,
): McpSubscription {
    let closing: Promise<void> | undefined;
    return Object.freeze({
        id,
        requested: Object.freeze(requested),
        granted: Object.freeze(granted),
        ended,
        close: () => {
            if (closing === undefined) {
                end();
                closing = ended.then(() => {});
            }
            return closing;
        },
    });
}
