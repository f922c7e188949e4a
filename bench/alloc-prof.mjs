/**
 * Preload for BENCH_ALLOC_PROF=1: samples every allocation of the server (also the objects later
 * collected by a minor or major GC, which --heap-prof leaves out) and writes a .heapprofile into
 * BENCH_ALLOC_PROF_DIR when the process exits. Summarise with
 * `node bench/profile-summary.mjs <dir> --calls N`: bytes allocated per call, by function.
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import {Session} from 'node:inspector';
import {join} from 'node:path';

const dir = process.env.BENCH_ALLOC_PROF_DIR ?? '.';
const session = new Session();
session.connect();
session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
});
process.on('exit', () => {
    // An in-process session answers synchronously, so the profile is written before the exit.
    session.post('HeapProfiler.stopSampling', (error, result) => {
        if (error) throw error;
        mkdirSync(dir, {recursive: true});
        writeFileSync(join(dir, `${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
});
