/**
 * No import cycle anywhere in lib/, type-only imports included: a cycle ties modules together so
 * that neither can be read, tested or moved alone. The test parses every `import … from`,
 * `export … from`, side-effect import and dynamic `import()` of lib/**.ts and names each cycle.
 */
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

/** This file runs from dist/test/; the sources are two levels up. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LIB = join(ROOT, 'lib');

const STATIC = /^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier `source` names, type-only ones included. */
export function specifiers(source: string): string[] {
    const found: string[] = [];
    for (const pattern of [STATIC, BARE, DYNAMIC]) {
        for (const match of source.matchAll(pattern)) found.push(match[1] as string);
    }
    return found;
}

/** Each cycle of `graph` once, as the list of its modules with the first repeated at the end. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
    const found: string[][] = [];
    const seen = new Set<string>();
    const onPath: string[] = [];
    const visit = (node: string): void => {
        const at = onPath.indexOf(node);
        if (at >= 0) {
            found.push([...onPath.slice(at), node]);
            return;
        }
        if (seen.has(node)) return;
        seen.add(node);
        onPath.push(node);
        for (const next of graph.get(node) ?? []) visit(next);
        onPath.pop();
    };
    for (const node of [...graph.keys()].sort()) visit(node);
    return found;
}

function sources(dir: string): string[] {
    return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return sources(path);
        return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
}

function libGraph(): Map<string, string[]> {
    const graph = new Map<string, string[]>();
    for (const file of sources(LIB)) {
        const edges = specifiers(readFileSync(file, 'utf8'))
            .filter((specifier) => specifier.startsWith('.'))
            .map((specifier) => relative(ROOT, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))));
        graph.set(relative(ROOT, file), edges);
    }
    return graph;
}

test('the parser sees every kind of import, type-only and multi-line ones included', () => {
    const source = [
        "import type {A} from './a.js';",
        'import {',
        '    b,',
        '    type C,',
        "} from './b.js';",
        "export {d} from '../d.js';",
        "export type * from './e.js';",
        "import './f.js';",
        "const g = await import('./g.js');",
        " * a comment that says import nothing from './h.js' mid-line",
        'const text = \'import x from "./i.js"\';',
    ].join('\n');
    assert.deepEqual(specifiers(source).sort(), [
        '../d.js',
        './a.js',
        './b.js',
        './e.js',
        './f.js',
        './g.js',
    ]);
});

test('the cycle finder names a cycle, and only a cycle', () => {
    const graph = new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a', 'd']],
        ['d', []],
        ['e', ['e']],
    ]);
    assert.deepEqual(cycles(graph), [
        ['a', 'b', 'c', 'a'],
        ['e', 'e'],
    ]);
    assert.deepEqual(
        cycles(
            new Map([
                ['a', ['b']],
                ['b', []],
            ]),
        ),
        [],
    );
});

test('lib/ has no import cycle, type-only imports included', () => {
    const graph = libGraph();
    assert.ok(graph.size > 40, `expected the whole of lib/, read ${graph.size} modules`);
    for (const [file, edges] of graph) {
        for (const edge of edges) {
            assert.ok(
                graph.has(edge) || !edge.startsWith('lib'),
                `${file} imports ${edge}, which does not exist`,
            );
        }
    }
    const found = cycles(graph).map((cycle) => cycle.join(' → '));
    assert.deepEqual(found, [], `import cycles in lib/:\n${found.join('\n')}`);
});
