/**
 * SSE keep-alive for long-lived response streams (2026-07-28 listen streams, legacy GET streams):
 * a stream that carries nothing for a while is given up by HTTP clients and proxies (Node's
 * `fetch` after a body is silent for 300 s), so an idle one gets a comment no client dispatches.
 */

/** How often an idle long-lived stream gets a comment: well inside those idle limits. */
export const KEEP_ALIVE_MS = 30_000;

/** An SSE comment: a line starting with a colon. */
const COMMENT = new TextEncoder().encode(':\n\n');

/**
 * Offers the comment to `offer` every `KEEP_ALIVE_MS`; the stream's owner writes it when its
 * stream is idle. Returns the function that stops it, to call before the stream closes. The
 * timer never keeps the process alive.
 */
export function startKeepAlive(offer: (comment: Uint8Array) => void): () => void {
    const timer = setInterval(() => offer(COMMENT), KEEP_ALIVE_MS);
    timer.unref();
    return () => clearInterval(timer);
}
