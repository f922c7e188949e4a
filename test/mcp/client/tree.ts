/**
 * The processes a test started, read from /proc (Linux): a process that has exited but that
 * nothing reaped yet (a zombie, as under a container init that reaps nothing) counts as gone.
 */
import {readdirSync, readFileSync} from 'node:fs';

interface Entry {
    pid: number;
    ppid: number;
    state: string;
}

function table(): Entry[] {
    const entries: Entry[] = [];
    for (const name of readdirSync('/proc')) {
        if (!/^\d+$/.test(name)) continue;
        let stat: string;
        try {
            stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        } catch {
            continue;
        }
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        entries.push({pid: Number(name), ppid: Number(ppid), state: state as string});
    }
    return entries;
}

/** Every living descendant of this process, at any depth. */
export function descendants(root = process.pid): number[] {
    const entries = table();
    const found: number[] = [];
    const parents = new Set([root]);
    let grew = true;
    while (grew) {
        grew = false;
        for (const entry of entries) {
            if (parents.has(entry.ppid) && !parents.has(entry.pid)) {
                parents.add(entry.pid);
                if (entry.state !== 'Z') found.push(entry.pid);
                grew = true;
            }
        }
    }
    return found.sort((a, b) => a - b);
}

/** True while the process exists and is not a zombie. */
export function alive(pid: number): boolean {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
        return false;
    }
}

export const HAS_PROC = process.platform === 'linux';
