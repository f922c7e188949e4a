// `npm pack` hooks: the packed package.json must show a consumer no install script, while a clone
// (`npm ci`) and a git dependency (npm runs `prepare` in its own clone) still build dist/.
//
//   node scripts/pack-manifest.mjs strip     (prepack, after the build) drop scripts.prepare
//   node scripts/pack-manifest.mjs restore   (postpack) put package.json back byte for byte
//
// npm reads package.json again after prepack, for the packed copy and to decide whether to run
// `prepare`, so the stripped manifest is what the tarball holds. The original text waits beside it
// in package.json.prepack (never packed, and visible to git should it linger); should a pack fail
// between the two steps, the next strip or restore puts it back first.
import {existsSync} from 'node:fs';
import {readFile, rm, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const backup = join(root, 'package.json.prepack');

/** Puts the original package.json back, when a strip left one waiting; says whether it did. */
async function restore() {
    if (!existsSync(backup)) return false;
    await writeFile(manifest, await readFile(backup));
    await rm(backup);
    return true;
}

async function strip() {
    if (await restore()) {
        process.stderr.write('pack-manifest: restored package.json left stripped by an earlier pack\n');
    }
    const text = await readFile(manifest, 'utf8');
    const parsed = JSON.parse(text);
    if (parsed.scripts?.prepare === undefined) return;
    await writeFile(backup, text);
    delete parsed.scripts.prepare;
    await writeFile(manifest, `${JSON.stringify(parsed, null, 4)}\n`);
}

const command = process.argv[2];
if (command === 'strip') {
    await strip();
} else if (command === 'restore') {
    await restore();
} else {
    process.stderr.write('Usage: node scripts/pack-manifest.mjs strip|restore\n');
    process.exitCode = 2;
}
