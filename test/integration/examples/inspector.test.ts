/**
 * The Inspector commands of docs/hosts.md, run exactly as printed (`npx`, from the folder of the example),
 * with the Inspector 2.x that the repository pins, so npx finds it installed and asks no registry.
 */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {describe, test} from 'node:test';
import {docBlock, REPO_ROOT, run} from '../../package/support.js';

/** Each command is its own pair of processes; the timeout only turns a hang into a failure. */
const GUARD = {timeout: 120_000, concurrency: true};
const EXAMPLES = join(REPO_ROOT, 'examples');

const menu = {content: 'Moon soup\nExtra tentacles available.', message: {chef: 'Octopus', open: true}};

async function commands(): Promise<string[][]> {
    const block = await docBlock('docs/hosts.md', 'Inspect it from the command line', 'sh');
    return block
        .trimEnd()
        .split('\n')
        .map((line) => line.split(' '));
}

/** Runs one printed command line, which starts with npx and holds no quoting. */
function npx(argv: readonly string[]) {
    assert.equal(argv[0], 'npx');
    return run('npx', argv.slice(1), {cwd: EXAMPLES});
}

describe("the README's Inspector commands", GUARD, () => {
    test('are three npx commands of the pinned Inspector 2.x CLI against the example', async () => {
        const lines = await commands();
        assert.equal(lines.length, 3);
        for (const argv of lines) {
            assert.deepEqual(argv.slice(0, 6), [
                'npx',
                '-y',
                '@modelcontextprotocol/inspector@2.12.0',
                '--cli',
                'node',
                'moon-pantry.mjs',
            ]);
        }
    });

    test('list the tools, call moon.menu and read pantry://menu, each printing the exact result', async () => {
        const expected = [
            {
                tools: [
                    {
                        name: 'moon.menu',
                        description: 'Read the complete lunar dinner menu.',
                        inputSchema: {type: 'object'},
                        annotations: {readOnlyHint: true},
                    },
                ],
            },
            {content: [{type: 'text', text: JSON.stringify(menu)}], structuredContent: menu},
            {contents: [{uri: 'pantry://menu', mimeType: 'application/json', text: JSON.stringify(menu)}]},
        ];
        const lines = await commands();
        const outcomes = await Promise.all(lines.map(npx));
        for (const [index, outcome] of outcomes.entries()) {
            assert.equal(outcome.code, 0, outcome.stderr);
            assert.deepEqual(JSON.parse(outcome.stdout), expected[index], lines[index]?.join(' '));
        }
    });

    test('print an isError result and exit 5, and exit 1 on an error response', async () => {
        const [first] = await commands();
        const base = (first as string[]).slice(0, 5);
        const [isError, missing] = await Promise.all([
            npx([
                ...base,
                'observatory.mjs',
                '--method',
                'tools/call',
                '--tool-name',
                'telescope.point',
                '--tool-arg',
                'target=pluto',
            ]),
            npx([...base, 'moon-pantry.mjs', '--method', 'resources/read', '--uri', 'pantry://nowhere']),
        ]);
        assert.equal(isError.code, 5);
        assert.deepEqual(JSON.parse(isError.stdout), {
            content: [
                {
                    type: 'text',
                    text: 'No catalogued object is called "pluto"; try one of moon, jupiter, saturn, m31.',
                },
            ],
            isError: true,
        });
        assert.equal(missing.code, 1);
        assert.equal(missing.stdout, '');
        assert.deepEqual(JSON.parse(missing.stderr.trim().split('\n').at(-1) as string), {
            error: {code: 'error', message: 'Resource not found: pantry://nowhere'},
        });
    });
});
