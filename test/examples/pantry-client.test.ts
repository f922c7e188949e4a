import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {test} from 'node:test';
import {examplePath, REPO_ROOT} from '../helpers/paths.js';
import {runNode} from '../helpers/process.js';

const example = examplePath('pantry-client.mjs');

test('the pantry-client example drives moon-pantry through the client and exits 0', async () => {
    const {code, signal, stdout, stderr} = await runNode([example], {cwd: REPO_ROOT});
    assert.deepEqual(
        {code, signal, stderr, stdout},
        {
            code: 0,
            signal: null,
            stderr: '',
            stdout: [
                'moon-pantry 1.0.0, MCP 2025-11-25',
                'Ask moon.menu for the complete lunar dinner menu.',
                'tool moon.menu: Read the complete lunar dinner menu.',
                '{',
                "  content: 'Moon soup\\nExtra tentacles available.',",
                "  message: { chef: 'Octopus', open: true }",
                '}',
                'resource pantry://menu: 1 item(s)',
                '',
            ].join('\n'),
        },
    );
});

test('the README shows the pantry-client example exactly', async () => {
    const [readme, source] = await Promise.all([
        readFile(new URL('README.md', `file://${REPO_ROOT}`), 'utf8'),
        readFile(example, 'utf8'),
    ]);
    const body = source.split('\n').slice(2).join('\n');
    assert.ok(
        readme.includes(`\`\`\`js run file=pantry-client.mjs\n${body}\`\`\`\n`),
        'the README code block differs from the example',
    );
});
