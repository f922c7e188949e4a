import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {test} from 'node:test';
import {MOON_PANTRY, REPO_ROOT} from '../helpers/paths.js';
import {runNode} from '../helpers/process.js';
import {readmeBlock} from '../package/support.js';
import {MOON_PANTRY_ANSWERS, MOON_PANTRY_INPUT, recordsOf} from './session.js';

const example = MOON_PANTRY;

test('the moon-pantry example answers a scripted session and exits 0 when its stdin ends', async () => {
    const {code, signal, stdout, stderr} = await runNode([example], {
        cwd: REPO_ROOT,
        input: MOON_PANTRY_INPUT,
    });
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal(signal, null);
    assert.deepEqual(recordsOf(stdout), MOON_PANTRY_ANSWERS);
});

test("the README's complete example is examples/moon-pantry.mjs without its header", async () => {
    const lines = (await readFile(example, 'utf8')).split('\n');
    const shown = lines.slice(lines.findIndex((line) => !line.startsWith('// '))).join('\n');
    assert.equal(await readmeBlock('A complete example', 'js'), shown);
});
