/**
 * Diagnostic records for the error stream: a one-line summary and, when there is one, the complete
 * detail (an error with its stack, cause and custom fields; never shortened).
 */
import {createRequire} from 'node:module';
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
 * sessions never call: loading the adapter takes less time and memory (bench/LOG.md, entry 7).
 * `getBuiltinModule` is `process.getBuiltinModule` (Node ≥ 20.16 and 22.3); an older Node loads
 * it through a `require`, since a top-level `await` slowed the code after it in the bundle
 * (bench/LOG.md, entry 17).
 */
export function loadInspect(getBuiltinModule: ((id: 'node:util') => unknown) | undefined): Inspect {
    const util = (getBuiltinModule ?? createRequire(import.meta.url))('node:util');
    return (util as typeof import('node:util')).inspect;
}

let inspect: Inspect | undefined;

export function formatDiagnostic(summary: string, detail?: unknown): string {
    if (detail === undefined) return `${PREFIX}${summary}\n`;
    return `${PREFIX}${summary}\n${inspectComplete(detail)}\n`;
}

/** `util.inspect` without any of its default truncation. */
export function inspectComplete(value: unknown): string {
    try {
        inspect ??= loadInspect(process.getBuiltinModule);
        return inspect(value, COMPLETE);
    } catch (error) {
        return `(the value could not be inspected: ${String(error)})`;
    }
}
