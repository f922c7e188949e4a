/**
 * Memory as the probes measure it: heap plus external, after full collections. Only for processes
 * started with `node --expose-gc`; importing it anywhere else throws.
 */
const gc = (globalThis as {gc?: () => void}).gc;
if (gc === undefined) throw new Error('run this probe with node --expose-gc');
const collect = gc;

export function usedMemory(): number {
    // Twice: the first collection frees buffers whose backing stores are released only after it.
    collect();
    collect();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.external;
}
