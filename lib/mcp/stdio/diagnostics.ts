/**
 * Diagnostic records for the error stream: a one-line summary and, when there is one, the complete
 * detail (an error with its stack, cause and custom fields; never shortened).
 */
import {inspect} from 'node:util';

const PREFIX = '[arcane-os/mcp/stdio] ';

const COMPLETE = {
    depth: Number.POSITIVE_INFINITY,
    maxArrayLength: Number.POSITIVE_INFINITY,
    maxStringLength: Number.POSITIVE_INFINITY,
    breakLength: 120,
    colors: false,
} as const;

export function formatDiagnostic(summary: string, detail?: unknown): string {
    if (detail === undefined) return `${PREFIX}${summary}\n`;
    return `${PREFIX}${summary}\n${inspectComplete(detail)}\n`;
}

/** `util.inspect` without any of its default truncation. */
export function inspectComplete(value: unknown): string {
    try {
        return inspect(value, COMPLETE);
    } catch (error) {
        return `(the value could not be inspected: ${String(error)})`;
    }
}

/** The complete message a thrown value carries, for an `isError` tool result. */
export function messageOf(thrown: unknown): string {
    if (typeof thrown === 'string') return thrown;
    try {
        if (typeof thrown === 'object' && thrown !== null) {
            const message = (thrown as {message?: unknown}).message;
            if (typeof message === 'string' && message !== '') return message;
            if (thrown instanceof Error) return String(thrown);
        }
    } catch {
        // A throwing `message` getter: describe the value instead, below.
    }
    return `The tool handler threw a value that is not an Error: ${inspectComplete(thrown)}`;
}
