/**
 * Pins the bench driver, and so every server it spawns while pinned, to one CPU (Linux `taskset`).
 *
 * Why: with one request in flight, a server's latency depends on whether the scheduler placed it
 * on the driver's core or the other one. On the 2-core VM, the same code measured 30 µs at p50 in
 * one slot and 72 µs in another of the same run (Node 24, ours against its twin, five runs), which
 * swamped every difference between adapters. With the driver and all servers on one CPU the
 * figures agree: ours 28.5 µs, its twin 28.6, the previous build 28.9 (5 rounds).
 *
 * `pinned()` returns a function that restores the driver's affinity, or undefined when pinning is
 * off (`BENCH_PIN=0`) or not possible here (not Linux, no `taskset`); the scenario then runs
 * unpinned, and the report says so.
 */
import {execFileSync} from 'node:child_process';
import {cpus} from 'node:os';

/** @returns {(() => void) | undefined} */
export function pinned() {
    if (process.env.BENCH_PIN === '0' || process.platform !== 'linux') return undefined;
    const pid = String(process.pid);
    let mask;
    try {
        // "pid 123's current affinity mask: 3"
        mask = execFileSync('taskset', ['-p', pid], {encoding: 'utf8'}).trim().split(' ').at(-1);
        const cpu = String(cpus().length - 1);
        execFileSync('taskset', ['-a', '-p', '-c', cpu, pid], {stdio: 'ignore'});
    } catch {
        return undefined;
    }
    return () => execFileSync('taskset', ['-a', '-p', mask, pid], {stdio: 'ignore'});
}
