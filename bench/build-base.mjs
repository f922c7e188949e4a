/**
 * Compiles lib/mcp/stdio as of a git revision (with every module of lib/ it imports, such as
 * lib/jsonrpc/) into bench/results/base/<rev>/, so `BENCH_BASE` can run it beside the working
 * tree's build in one invocation (an A/B of one optimisation). A revision that ships its entries
 * bundled (it has scripts/bundle.mjs) is bundled the same way, so the base loads as it shipped.
 * Usage: node bench/build-base.mjs <rev>   → prints the module path to pass as BENCH_BASE.
 */
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {bundleOptions} from '../scripts/bundle.mjs';

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
const entry = join(out, 'src/lib/mcp/stdio/index.ts');
for (const file of files) {
    const target = join(out, 'src', file);
    mkdirSync(dirname(target), {recursive: true});
    writeFileSync(target, execFileSync('git', ['show', `${sha}:${file}`], {cwd: root, encoding: 'utf8'}));
}
const tsc = join(root, 'node_modules/.bin/tsc');
execFileSync(
    tsc,
    [
        '--ignoreConfig',
        ...['--target', 'es2023', '--module', 'nodenext', '--moduleResolution', 'nodenext'],
        ...['--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), '--skipLibCheck'],
        ...['--rootDir', join(out, 'src'), '--outDir', join(out, 'dist')],
        // The entry alone: tsc follows its imports and compiles exactly what the adapter loads.
        entry,
    ],
    {cwd: root, stdio: 'inherit'},
);
writeFileSync(join(out, 'dist/package.json'), '{"type":"module"}\n');
let module = join(out, 'dist/lib/mcp/stdio/index.js');
const shipsBundles = execFileSync('git', ['ls-tree', '--name-only', sha, 'scripts/bundle.mjs'], {
    cwd: root,
    encoding: 'utf8',
});
if (shipsBundles.trim() !== '') {
    await build(bundleOptions(out, {'mcp/stdio': 'dist/lib/mcp/stdio/index.js'}, 'dist/bundle'));
    module = join(out, 'dist/bundle/mcp/stdio.js');
}
process.stdout.write(`${module}\n`);
