// Bundles each package entry (its `exports` and the bin's command line) from the compiled
// dist/lib/ into dist/bundle/: one ES module an entry, plus the chunks that entries share (the
// JSON-RPC pieces, say), so that a module graph exists once in memory however many entries an app
// imports, and so that start-up loads two modules rather than one a source file (bench/LOG.md,
// entry 14).
//
//   node scripts/bundle.mjs     (after `tsc -p tsconfig.json`; part of `npm run build`)
//
// The code is tsc's output as it is: no lowering, no minification, no renaming of exports; only
// the module boundaries go. The maps chain through dist/lib's maps to lib/*.ts, which the package
// ships. dist/lib/ stays for the tests, which import its modules one by one; the types are in dist/types/.

import {dirname, join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {build} from 'esbuild';

/**
 * Each bundle, by its path under dist/bundle/ without `.js`, and the compiled module it starts from.
 * Keep each path one folder deep, as the chunks' `shared/` is: lib/native/pack.ts finds the package
 * root three folders above its own module, in dist/lib/native/ as in any bundle.
 */
export const ENTRIES = Object.freeze({
    'mcp/stdio': 'dist/lib/mcp/stdio/index.js',
    'mcp/client': 'dist/lib/mcp/client/index.js',
    'core/host': 'dist/lib/core/host/index.js',
    'native/runtime': 'dist/lib/native/runtime.js',
    'native/cli': 'dist/lib/native/cli.js',
});

/** The esbuild options for bundling `entries` (as ENTRIES) of the build under `root` into `outdir`. */
export function bundleOptions(root, entries, outdir) {
    return {
        absWorkingDir: root,
        entryPoints: Object.entries(entries).map(([out, source]) => ({in: source, out})),
        outdir,
        chunkNames: 'shared/[name]-[hash]',
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'es2023',
        packages: 'external',
        sourcemap: 'linked',
        sourcesContent: false,
        logLevel: 'warning',
    };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    await build(bundleOptions(root, ENTRIES, 'dist/bundle'));
}
