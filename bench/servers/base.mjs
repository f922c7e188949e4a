/** Like ours.mjs, but the adapter comes from BENCH_BASE (a build of an earlier revision). */
import {serve} from './serve.mjs';

await serve(await import(process.env.BENCH_BASE), 'bench-base');
