/** The text a thrown value carries, for messages that quote a failure. */

/**
 * A string as it is; an object's own non-empty `message` string; an `Error` without one as
 * `String(error)` (its name). Anything else goes to `otherwise`, by default `String(value)`. Never
 * throws, also for a throwing `message` getter or a value `String` cannot convert.
 */
export function messageOf(thrown: unknown, otherwise: (value: unknown) => string = text): string {
    if (typeof thrown === 'string') return thrown;
    try {
        if (typeof thrown === 'object' && thrown !== null) {
            const message = (thrown as {message?: unknown}).message;
            if (typeof message === 'string' && message !== '') return message;
            if (thrown instanceof Error) return String(thrown);
        }
    } catch {
        // A throwing `message` getter: `otherwise` describes the value instead.
    }
    return otherwise(thrown);
}

function text(value: unknown): string {
    try {
        return String(value);
    } catch {
        return Object.prototype.toString.call(value);
    }
}
