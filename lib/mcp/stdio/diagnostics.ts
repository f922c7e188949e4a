/**
 * Diagnostic records for the error stream: a one-line summary and, when there is one, the complete
 * detail (an error with its stack, cause and custom fields; never shortened).
 */
import type {InspectOptions} from 'node:util';

const PREFIX = '[arcane-os/mcp/stdio] ';

const COMPLETE: InspectOptions = {
    depth: Number.POSITIVE_INFINITY,
    maxArrayLength: Number.POSITIVE_INFINITY,
    maxStringLength: Number.POSITIVE_INFINITY,
    breakLength: 120,
    colors: false,
};

type Inspect = typeof import('node:util').inspect;

/**
 * `node:util` is loaded on the first detailed diagnostic, not at start-up, for a function most
 * sessions never call. Node 24, against the eager import: loading the adapter 22.4 → 18.9 ms
 * (median of 25 alternating runs) and 1.9 MiB less RSS; idle RSS of a served session 50.9 → 50.2
 * MiB, same-code twin within 0.2 % (bench/README.md, optimisation log 7). `process.getBuiltinModule`
 * (Node ≥ 20.16 and 22.3) loads it synchronously when needed; an older Node 20 loads it here.
 */
const eager: Inspect | undefined =
    typeof process.getBuiltinModule === 'function' ? undefined : (await import('node:util')).inspect;
let inspect: Inspect | undefined = eager;

export function formatDiagnostic(summary: string, detail?: unknown): string {
    if (detail === undefined) return `${PREFIX}${summary}\n`;
    return `${PREFIX}${summary}\n${inspectComplete(detail)}\n`;
}

/** `util.inspect` without any of its default truncation. */
export function inspectComplete(value: unknown): string {
    try {
        inspect ??= process.getBuiltinModule('node:util').inspect;
        return inspect(value, COMPLETE);
    } catch (error) {
        return `(the value could not be inspected: ${String(error)})`;
    }
}
