/**
 * The older Inspector command line (`@modelcontextprotocol/inspector-cli` 1.0.3, 2025-11-25 only)
 * with the star-atlas example: it lists and gets the prompt, lists the template and reads a
 * resource through it. It has no completion method either.
 */
import assert from 'node:assert/strict';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {describe, test} from 'node:test';
import {
    OBJECT_TEMPLATE,
    OBSERVE_PROMPT,
    objectContents,
    observeResult,
    STAR_ATLAS,
} from '../../examples/star-atlas-session.js';
import {REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';

/** Each run is its own pair of processes, so the runs go in parallel; the timeout only guards a hang. */
const GUARD = {timeout: 60_000, concurrency: true};

const INSPECTOR_CLI = join(
    dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')),
    'build/cli.js',
);

/** Runs one method (from examples/, as inspector-cli.test.ts explains) and returns its printed JSON. */
async function inspectJson(...args: string[]): Promise<unknown> {
    const {code, stdout, stderr} = await runNode(
        [INSPECTOR_CLI, '--cli', process.execPath, STAR_ATLAS, ...args],
        {
            cwd: join(REPO_ROOT, 'examples'),
        },
    );
    assert.equal(code, 0, `the Inspector failed: ${stderr}`);
    return JSON.parse(stdout) as unknown;
}

describe('the Inspector CLI 1.0.3 with the star atlas', GUARD, () => {
    test('lists the prompt', async () => {
        assert.deepEqual(await inspectJson('--method', 'prompts/list'), {prompts: [OBSERVE_PROMPT]});
    });

    test('gets the prompt with its arguments', async () => {
        assert.deepEqual(
            await inspectJson(
                '--method',
                'prompts/get',
                '--prompt-name',
                'observe',
                '--prompt-args',
                'object=m57',
                'instrument=binoculars',
            ),
            observeResult('m57', 'binoculars'),
        );
    });

    test('lists the template', async () => {
        assert.deepEqual(await inspectJson('--method', 'resources/templates/list'), {
            resourceTemplates: [OBJECT_TEMPLATE],
        });
    });

    test('reads a resource through the template', async () => {
        assert.deepEqual(await inspectJson('--method', 'resources/read', '--uri', 'atlas://objects/m31'), {
            contents: [objectContents('m31')],
        });
    });
});
