/**
 * The code blocks of README.md, CHANGELOG.md, docs/*.md and bench/*.md are checked by what their
 * info string says. The convention (docs authors: follow it; a block outside it fails this test):
 *
 * - ```ts and ```js: a module of its own, type-checked against the built package's own types
 *   (`import ... from 'arcane-os/mcp/stdio'` resolves as it does for a user), strict, in one `tsc`
 *   invocation for every block of every page (JavaScript with checkJs). Write complete code: import
 *   what you use, declare what you need.
 * - `run` (```js run): also executed with node, from the repository root, after every block of its
 *   page has been written; it must exit 0 and write nothing on stderr.
 * - `file=<name>` (```js file=moon-pantry.mjs): the block is saved under that name, beside the other
 *   blocks of its page, so a `run` block can import or spawn it (the README's client example spawns
 *   its server example this way).
 * - `no-check` (```ts no-check): an excerpt or a signature, neither checked nor run.
 * - ```json must parse (unless `no-check`); ```sh and ```text are shown, not run here (the tests
 *   and scripts that run documented commands read them from their pages).
 * - Any other language or mark, or a block without a language, fails.
 */
import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import {after, before, test} from 'node:test';
import {type Finished, runNode} from '../helpers/process.js';
import {type CodeBlock, codeBlocks, docPages, REPO_ROOT, readPage} from './markdown.js';

const LANGS = new Set(['ts', 'js', 'json', 'sh', 'text']);
const MARKS = /^(run|no-check|file=[\w.-]+\.(?:m?js|m?ts))$/;
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** A deliberately wrong block, checked with the others: proves the check fails and sees the package's types. */
const CANARY = `import {createMcpStdioServer} from 'arcane-os/mcp/stdio';

createMcpStdioServer({serverInfo: {name: 'canary', version: 1}});
`;

interface Placed {
    page: string;
    block: CodeBlock;
    /** Where the block was written, relative to the scratch folder. */
    file: string;
}

let scratch = '';
const placed: Placed[] = [];
const problems: string[] = [];
let typecheck: Finished;
const runs = new Map<Placed, Finished>();

function fileName(block: CodeBlock): string {
    const named = block.marks.find((mark) => mark.startsWith('file='));
    return named === undefined ? `line-${block.line}.${block.lang === 'ts' ? 'ts' : 'mjs'}` : named.slice(5);
}

before(async () => {
    // Inside the package, so that `arcane-os/...` resolves through its own exports, as for a user.
    scratch = await mkdtemp(join(REPO_ROOT, 'dist', 'docs-snippets-'));
    for (const page of await docPages()) {
        const folder = page.replace(/[/.]/g, '_');
        for (const block of codeBlocks(await readPage(page))) {
            const where = `${page}:${block.line}`;
            if (!LANGS.has(block.lang))
                problems.push(`${where}: language "${block.lang}" is none of ${[...LANGS]}`);
            for (const mark of block.marks) {
                if (!MARKS.test(mark)) problems.push(`${where}: unknown mark "${mark}"`);
            }
            if (block.marks.includes('no-check')) continue;
            if (block.lang === 'json') {
                try {
                    JSON.parse(block.body);
                } catch (error) {
                    problems.push(`${where}: not JSON (${(error as Error).message})`);
                }
            }
            if (block.lang !== 'ts' && block.lang !== 'js') continue;
            const file = join(folder, fileName(block));
            await mkdir(join(scratch, folder), {recursive: true});
            await writeFile(join(scratch, file), block.body);
            placed.push({page, block, file});
        }
    }
    await mkdir(join(scratch, 'canary'));
    await writeFile(join(scratch, 'canary', 'wrong.ts'), CANARY);
    await writeFile(
        join(scratch, 'tsconfig.json'),
        JSON.stringify({
            compilerOptions: {
                target: 'es2023',
                lib: ['es2023'],
                module: 'nodenext',
                moduleResolution: 'nodenext',
                types: ['node'],
                strict: true,
                noUncheckedIndexedAccess: true,
                noImplicitOverride: true,
                allowJs: true,
                checkJs: true,
                noEmit: true,
                skipLibCheck: true,
            },
            include: ['**/*.ts', '**/*.mjs'],
        }),
    );
    typecheck = await runNode([TSC, '-p', join(scratch, 'tsconfig.json'), '--pretty', 'false'], {
        cwd: scratch,
    });
    for (const entry of placed) {
        if (entry.block.marks.includes('run'))
            runs.set(entry, await runNode([join(scratch, entry.file)], {cwd: REPO_ROOT}));
    }
});

after(async () => {
    if (scratch !== '') await rm(scratch, {recursive: true, force: true});
});

test('every code block has a known language and known marks, and every json block parses', () => {
    assert.deepEqual(problems, []);
    assert.ok(placed.length >= 8, `only ${placed.length} ts/js blocks were found to check`);
});

test('every ts and js block type-checks against the package types', () => {
    const errors = typecheck.stdout.split('\n').filter((line) => / error TS\d+:/.test(line));
    const outside = errors.filter((line) => !line.startsWith(join('canary', 'wrong.ts')));
    const byPage = outside.map((line) => {
        const entry = placed.find(({file}) => line.startsWith(file));
        return entry === undefined ? line : `${entry.page}:${entry.block.line} (${line})`;
    });
    assert.deepEqual(byPage, []);
    // The canary proves the check runs: the package's types were found (no TS2307) and are enforced.
    const canary = errors.filter((line) => line.startsWith(join('canary', 'wrong.ts')));
    assert.equal(canary.length, 1, typecheck.stdout + typecheck.stderr);
    assert.match(canary[0] as string, /error TS2322: Type 'number' is not assignable to type 'string'/);
    assert.notEqual(typecheck.code, 0, 'tsc must fail on the canary alone');
});

test('every run block exits 0 and writes nothing on stderr', () => {
    assert.ok(runs.size > 0, 'no block is marked run');
    for (const [{page, block}, finished] of runs) {
        assert.deepEqual(
            {
                where: `${page}:${block.line}`,
                code: finished.code,
                signal: finished.signal,
                stderr: finished.stderr,
            },
            {where: `${page}:${block.line}`, code: 0, signal: null, stderr: ''},
        );
    }
});

test("the README's client example runs against the README's server example", () => {
    const server = placed.find(({page, file}) => page === 'README.md' && file.endsWith('moon-pantry.mjs'));
    const client = [...runs].find(
        ([{page, file}]) => page === 'README.md' && file.endsWith('pantry-client.mjs'),
    );
    assert.ok(server !== undefined && client !== undefined, 'README.md lost its marked examples');
    assert.equal(
        relative(scratch, join(scratch, server.file, '..')),
        relative(scratch, join(scratch, client[0].file, '..')),
    );
    const lines = client[1].stdout.split('\n');
    assert.deepEqual(lines.slice(0, 3), [
        'moon-pantry 1.0.0, MCP 2025-11-25',
        'Ask moon.menu for the complete lunar dinner menu.',
        'tool moon.menu: Read the complete lunar dinner menu.',
    ]);
    assert.equal(lines.at(-2), 'resource pantry://menu: 1 item(s)');
});
