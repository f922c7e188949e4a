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
