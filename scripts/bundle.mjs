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

import {dirname, join, relative} from 'node:path';
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

/**
 * Entries bundled one by one after ENTRIES, sharing no chunk with them: the HTTP transport uses the
 * whole server core, and split together with the stdio entry it would move that core into a chunk
 * of its own, a third module for every stdio server to load. Its copy of the core is private; the
 * one class an application can meet from both entries, `McpProtocolError` (with `ErrorCode`), is
 * imported from the stdio bundle, so `instanceof` holds whichever entry the app took it from.
 */
export const SEPARATE_ENTRIES = Object.freeze({
    'mcp/http': 'dist/lib/mcp/http/index.js',
});

/** The compiled module whose exports a separate entry takes from the stdio bundle. */
const FROM_STDIO = 'dist/lib/mcp/server/errors.js';

/** The esbuild options for one entry of SEPARATE_ENTRIES (`out` its path without `.js`). */
export function separateOptions(root, out, source, outdir) {
    const stdio = join(root, outdir, 'mcp/stdio.js');
    const shared = join(root, FROM_STDIO);
    return {
        ...bundleOptions(root, {[out]: source}, outdir),
        splitting: false,
        plugins: [
            {
                name: 'from-stdio-bundle',
                setup(build) {
                    build.onResolve({filter: /\/errors\.js$/}, (args) => {
                        if (join(args.resolveDir, args.path) !== shared) return undefined;
                        const from = relative(dirname(join(root, outdir, out)), stdio)
                            .split('\\')
                            .join('/');
                        return {path: from.startsWith('.') ? from : `./${from}`, external: true};
                    });
                },
            },
        ],
    };
}

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
    for (const [out, source] of Object.entries(SEPARATE_ENTRIES)) {
        await build(separateOptions(root, out, source, 'dist/bundle'));
    }
}
