/** The repository's own hygiene: what git ignores. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {REPO_ROOT, runOk} from './support.js';

test('.gitignore ignores no tracked file', async () => {
    const {stdout} = await runOk('git', ['ls-files', '--cached', '--ignored', '--exclude-standard'], {
        cwd: REPO_ROOT,
    });
    assert.equal(stdout, '');
});
