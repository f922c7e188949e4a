/**
 * The stdio child's process group (POSIX): the child leads a group of its own, so a signal to the
 * group reaches what its command started (`npx`, `sh -c`, a wrapper script) as well. A process
 * that leaves the group (`setsid`) is out of reach.
 */
import {readdir, readFile} from 'node:fs/promises';

/** POSIX only: a Windows `detached` child gets a console of its own instead. */
export const OWN_GROUP = process.platform !== 'win32';

/**
 * True while a process of the group lives. Signal 0 only asks; on Linux a group whose members are
 * all zombies (dead, but not yet reaped, as under a container's init that reaps nothing) is over.
 */
export async function groupAlive(group: number): Promise<boolean> {
    try {
        process.kill(-group, 0);
    } catch (error) {
        // EPERM: a member lives but is not ours to signal; it counts as alive.
        return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    return process.platform === 'linux' ? livingMember(group) : true;
}

/** Sends `signal` to the group; false when it has no member left. */
export function signalGroup(group: number, signal: NodeJS.Signals): boolean {
    try {
        process.kill(-group, signal);
        return true;
    } catch {
        return false;
    }
}

async function livingMember(group: number): Promise<boolean> {
    let entries: string[];
    try {
        entries = await readdir('/proc');
    } catch {
        return true;
    }
    for (const entry of entries) {
        if (!/^\d+$/.test(entry)) continue;
        let stat: string;
        try {
            stat = await readFile(`/proc/${entry}/stat`, 'latin1');
        } catch {
            continue;
        }
        // After the command name in parentheses: state, ppid, pgrp.
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(pgrp) === group && state !== 'Z' && state !== 'X') return true;
    }
    return false;
}
