/**
 * A server of the in-process benches (inproc.mjs, instructions.mjs) over caller-given streams:
 * `ours`, `twin`, `base` (BENCH_BASE) or a floor. Resolves with a function that resolves once the
 * server has no call left running.
 */
export async function startInProcess(server, {input, output, error}) {
    if (server === 'floor' || server === 'sigfloor') {
        // The floor reads its variant from argv when it loads.
        if (server === 'sigfloor' && !process.argv.includes('--signal')) process.argv.push('--signal');
        const floor = await import('./servers/floor.mjs');
        floor.serveFloor(input, output);
        return async () => {
            while (floor.pendingCalls() > 0) await new Promise((resolve) => setImmediate(resolve));
            await new Promise((resolve) => setImmediate(resolve));
        };
    }
    const adapter = await import(server === 'base' ? process.env.BENCH_BASE : 'arcane-os/mcp/stdio');
    const {benchOptions} = await import('./servers/serve.mjs');
    const instance = adapter.createMcpStdioServer(benchOptions(adapter, `bench-${server}`));
    instance.start({input, output, error});
    return () => instance.drain();
}

/** `count` records from `make(id)` for ids from `first` on, as Buffers of 256 lines each. */
export function chunksOf(count, first, make) {
    const chunks = [];
    for (let start = 0; start < count; start += 256) {
        let text = '';
        for (let index = start; index < Math.min(count, start + 256); index += 1) text += make(first + index);
        chunks.push(Buffer.from(text));
    }
    return chunks;
}
