/**
 * Preloaded (`--import`, with `--expose-gc`) into every server of the cancel storm and the fan-out:
 * SIGUSR2 makes the server scavenge its young generation, so that every server starts the measured
 * storm or fan-out with no garbage there and an empty allocation area (what survives is copied
 * out, and promoted by the next scavenge).
 *
 * Why: the storm's window is short (25-50 ms), and one scavenge with its 5,000 pending calls alive
 * costs about 8 ms on Node 24. Whether a server's scavenge falls inside the window depends only on
 * how full its young generation happens to be when the cancels arrive, which is the same in every
 * round for the same code: the twin cannot show it. Measured (Node 24, `--trace-gc`): the bundled
 * adapter scavenged inside the window and the same code unbundled did not, 35 against 27 ms until
 * quiet, for one 8.4 ms scavenge.
 *
 * A scavenge, not a full collection: a forced full collection makes V8 flush the bytecode of every
 * function that is not running, however hot, so the measured round recompiled the whole path on
 * the compiler threads (Node 22: 22-39 ms of their CPU inside the storm's window, against 4-7 ms
 * after a scavenge; log entry 20).
 */
process.on('SIGUSR2', () => globalThis.gc({type: 'minor'}));
