/**
 * The rule that splits the suites (scripts/suites.mjs): those that drive a third-party peer (the
 * official SDK clients and servers, the Inspector, @ai-sdk/mcp, a bridge such as mcp-proxy, the
 * demo's SDK client, nginx through scripts/ensure-nginx.mjs) live under test/integration/ and run in `npm run test:integration`; all others
 * run in `npm test`. A suite counts as driving a peer when it, or a test module it imports, names
 * one in a string (an import specifier, an npx package or the demo script), and so does a fixture
 * of its own fixtures/ folder that it names.
 */
import assert from 'node:assert/strict';
import {readdir, readFile} from 'node:fs/promises';
import {dirname, join, relative} from 'node:path';
import {test} from 'node:test';
import {REPO_ROOT} from '../helpers/paths.js';

const TESTS = join(REPO_ROOT, 'test');
const PEER =
    /['"](?:npx )?(?:@modelcontextprotocol\/(?!conformance)[\w-]+|@ai-sdk\/[\w-]+|mcp-proxy\b|scripts\/demo\.mjs|scripts\/ensure-nginx\.mjs)/;
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g;
/** A string that may name a fixture of the module's own fixtures/ folder, which it spawns. */
const FIXTURE_NAME = /['"`](?:\.\/fixtures\/)?([\w.-]+?)(?:\.js)?['"`]/g;

/** Every test module's source, by its path relative to test/. */
async function sources(): Promise<Map<string, string>> {
    const files = (await readdir(TESTS, {recursive: true})).filter((file) => file.endsWith('.ts')).sort();
    const texts = await Promise.all(files.map((file) => readFile(join(TESTS, file), 'utf8')));
    return new Map(files.map((file, index) => [file.split('\\').join('/'), texts[index] as string]));
}

/** The test modules `file` reaches through relative imports and the fixtures it names, itself included. */
function reach(file: string, texts: Map<string, string>, seen = new Set<string>()): Set<string> {
    if (seen.has(file) || !texts.has(file)) return seen;
    seen.add(file);
    const text = texts.get(file) as string;
    const at = (path: string) =>
        relative(TESTS, join(TESTS, dirname(file), path))
            .split('\\')
            .join('/');
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) reach(at(`${specifier}.ts`), texts, seen);
    for (const [, name] of text.matchAll(FIXTURE_NAME)) reach(at(`fixtures/${name}.ts`), texts, seen);
    return seen;
}

/** Each suite of one side of the split, with whether it drives a peer. */
async function suites(integration: boolean): Promise<{suite: string; drivesPeer: boolean}[]> {
    const texts = await sources();
    return [...texts.keys()]
        .filter((file) => file.endsWith('.test.ts') && file.startsWith('integration/') === integration)
        .map((suite) => ({
            suite,
            drivesPeer: [...reach(suite, texts)].some((file) => PEER.test(texts.get(file) as string)),
        }));
}

test('no unit suite drives a third-party peer: those belong under test/integration/', async () => {
    const found = await suites(false);
    assert.ok(found.length > 0);
    assert.deepEqual(
        found.filter(({drivesPeer}) => drivesPeer).map(({suite}) => suite),
        [],
    );
});

test('every suite under test/integration/ drives a third-party peer: others belong with the unit suites', async () => {
    const found = await suites(true);
    assert.ok(found.length > 0);
    assert.deepEqual(
        found.filter(({drivesPeer}) => !drivesPeer).map(({suite}) => suite),
        [],
    );
});
