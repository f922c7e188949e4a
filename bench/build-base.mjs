/**
 * Compiles lib/mcp/stdio as of a git revision (with every module of lib/ it imports, such as
 * lib/jsonrpc/) into bench/results/base/<rev>/, so `BENCH_BASE` can run it beside the working
 * tree's build in one invocation (an A/B of one optimisation). A revision that ships its entries
 * bundled (it has scripts/bundle.mjs) is compiled and bundled by that revision's own script, all
 * its entries at once, so the base splits into the same chunks and loads as it shipped; the entries
 * it bundles one by one (the HTTP transport) are built beside them, as its script builds them.
 * Usage: node bench/build-base.mjs <rev>   → prints the module path to pass as BENCH_BASE.
 */
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {build} from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rev = process.argv[2] ?? 'HEAD';
const sha = execFileSync('git', ['rev-parse', '--short', rev], {cwd: root, encoding: 'utf8'}).trim();
const out = join(root, 'bench/results/base', sha);
const files = execFileSync('git', ['ls-tree', '-r', '--name-only', `${sha}`, 'lib/'], {
    cwd: root,
    encoding: 'utf8',
})
    .split('\n')
    .filter((file) => file.endsWith('.ts'));
for (const file of files) {
    const target = join(out, 'src', file);
    mkdirSync(dirname(target), {recursive: true});
    writeFileSync(target, execFileSync('git', ['show', `${sha}:${file}`], {cwd: root, encoding: 'utf8'}));
}
const shipsBundles =
    execFileSync('git', ['ls-tree', '--name-only', sha, 'scripts/bundle.mjs'], {
        cwd: root,
        encoding: 'utf8',
    }) !== '';
/** The revision's bundle script (its ENTRIES and bundleOptions), or undefined before there was one. */
let bundler;
if (shipsBundles) {
    const script = join(out, 'scripts/bundle.mjs');
    mkdirSync(dirname(script), {recursive: true});
    writeFileSync(
        script,
        execFileSync('git', ['show', `${sha}:scripts/bundle.mjs`], {cwd: root, encoding: 'utf8'}),
    );
    bundler = await import(pathToFileURL(script).href);
}
/** Each compiled module to start from, relative to `out`, as the revision's ENTRIES give them. */
const entries = bundler?.ENTRIES ?? {'mcp/stdio': 'dist/lib/mcp/stdio/index.js'};
/** Entries the revision bundles one by one (its HTTP transport), when it has any. */
const separate = bundler?.SEPARATE_ENTRIES ?? {};
const tsc = join(root, 'node_modules/.bin/tsc');
execFileSync(
    tsc,
    [
        '--ignoreConfig',
        ...['--target', 'es2023', '--module', 'nodenext', '--moduleResolution', 'nodenext'],
        ...['--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), '--skipLibCheck'],
        ...['--rootDir', join(out, 'src'), '--outDir', join(out, 'dist')],
        // The entries alone: tsc follows their imports and compiles exactly what they load.
        ...Object.values({...entries, ...separate}).map((entry) =>
            join(out, 'src', entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
        ),
    ],
    {cwd: root, stdio: 'inherit'},
);
writeFileSync(join(out, 'dist/package.json'), '{"type":"module"}\n');
let module = join(out, 'dist/lib/mcp/stdio/index.js');
if (bundler !== undefined) {
    await build(bundler.bundleOptions(out, entries, 'dist/bundle'));
    for (const [name, source] of Object.entries(separate)) {
        await build(bundler.separateOptions(out, name, source, 'dist/bundle'));
    }
    module = join(out, 'dist/bundle/mcp/stdio.js');
}
process.stdout.write(`${module}\n`);
