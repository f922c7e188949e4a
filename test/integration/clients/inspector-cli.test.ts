/**
 * The MCP Inspector's command-line mode (`@modelcontextprotocol/inspector-cli`) launches the
 * examples with `node`, performs one method, and prints the result as JSON.
 */
import assert from 'node:assert/strict';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {describe, test} from 'node:test';
import {
    OBSERVATORY_CATALOG,
    OBSERVATORY_RESOURCES,
    OBSERVATORY_TOOL_NAMES,
    PLATE_PNG,
    SKY_TONIGHT,
} from '../../helpers/observatory.js';
import {MOON_PANTRY, OBSERVATORY, REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';

/** Each run is its own pair of processes, so the runs go in parallel; the timeout only guards against a hang. */
const GUARD = {timeout: 60_000, concurrency: true};

const require = createRequire(import.meta.url);
const INSPECTOR_CLI = join(
    dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')),
    'build/cli.js',
);

/**
 * Inspector CLI 1.0.3 reads its own identity from `../package.json` relative to its working
 * directory, so it runs from a folder one level below the repository root.
 */
const WORKING_DIRECTORY = join(REPO_ROOT, 'examples');

interface Outcome {
    code: number | null;
    stdout: string;
    stderr: string;
}

async function inspect(server: string, ...args: string[]): Promise<Outcome> {
    const {code, stdout, stderr} = await runNode(
        [INSPECTOR_CLI, '--cli', process.execPath, server, ...args],
        {
            cwd: WORKING_DIRECTORY,
        },
    );
    return {code, stdout, stderr};
}

/** Runs one method that must succeed and returns its parsed JSON output. */
async function inspectJson(server: string, ...args: string[]): Promise<unknown> {
    const outcome = await inspect(server, ...args);
    assert.equal(outcome.code, 0, `the Inspector failed: ${outcome.stderr}`);
    return JSON.parse(outcome.stdout) as unknown;
}

describe('the Inspector CLI with the observatory example', GUARD, () => {
    test('lists the tools with their schemas, annotations and icons intact', async () => {
        const {tools} = (await inspectJson(OBSERVATORY, '--method', 'tools/list')) as {
            tools: {name: string}[];
        };
        assert.deepEqual(
            tools.map((tool) => tool.name),
            OBSERVATORY_TOOL_NAMES,
        );
        assert.deepEqual(tools[0], SKY_TONIGHT);
    });

    test('calls a tool with an argument and prints its content and structuredContent', async () => {
        const result = await inspectJson(
            OBSERVATORY,
            '--method',
            'tools/call',
            '--tool-name',
            'sky.tonight',
            '--tool-arg',
            'site=Kitt Peak',
        );
        assert.deepEqual(result, {
            content: [{type: 'text', text: 'Kitt Peak: Moon, Jupiter, Saturn visible; seeing 4/5.'}],
            structuredContent: {
                site: 'Kitt Peak',
                moonPhase: 'waxing gibbous',
                visible: ['Moon', 'Jupiter', 'Saturn'],
                seeing: 4,
            },
        });
    });

    test('calls a tool that returns every content block type', async () => {
        const {content} = (await inspectJson(
            OBSERVATORY,
            '--method',
            'tools/call',
            '--tool-name',
            'sky.gallery',
        )) as {
            content: {type: string}[];
        };
        assert.deepEqual(
            content.map((block) => block.type),
            ['text', 'image', 'audio', 'resource_link', 'resource'],
        );
    });

    test('prints an isError result of a tool as a result', async () => {
        const result = await inspectJson(
            OBSERVATORY,
            '--method',
            'tools/call',
            '--tool-name',
            'telescope.point',
            '--tool-arg',
            'target=pluto',
        );
        assert.deepEqual(result, {
            content: [
                {
                    type: 'text',
                    text: 'No catalogued object is called "pluto"; try one of moon, jupiter, saturn, m31.',
                },
            ],
            isError: true,
        });
    });

    test('lists the resources', async () => {
        assert.deepEqual(await inspectJson(OBSERVATORY, '--method', 'resources/list'), {
            resources: OBSERVATORY_RESOURCES,
        });
    });

    test('reads the text resource and the blob resource', async () => {
        assert.deepEqual(
            await inspectJson(OBSERVATORY, '--method', 'resources/read', '--uri', 'observatory://catalog'),
            {
                contents: [
                    {
                        uri: 'observatory://catalog',
                        mimeType: 'application/json',
                        text: JSON.stringify(OBSERVATORY_CATALOG),
                    },
                ],
            },
        );
        assert.deepEqual(
            await inspectJson(
                OBSERVATORY,
                '--method',
                'resources/read',
                '--uri',
                'observatory://plates/m31.png',
            ),
            {contents: [{uri: 'observatory://plates/m31.png', mimeType: 'image/png', blob: PLATE_PNG}]},
        );
    });

    test('reports the missing-resource error and exits 1', async () => {
        const outcome = await inspect(
            OBSERVATORY,
            '--method',
            'resources/read',
            '--uri',
            'observatory://nowhere',
        );
        assert.equal(outcome.code, 1);
        assert.equal(outcome.stdout, '');
        assert.ok(
            outcome.stderr.includes(
                'Failed to read resource observatory://nowhere: MCP error -32002: Resource not found: observatory://nowhere\n',
            ),
            outcome.stderr,
        );
    });
});

describe('the Inspector CLI with the moon-pantry example', GUARD, () => {
    test('calls moon.menu and reads pantry://menu', async () => {
        const menu = {
            content: 'Moon soup\nExtra tentacles available.',
            message: {chef: 'Octopus', open: true},
        };
        assert.deepEqual(
            await inspectJson(MOON_PANTRY, '--method', 'tools/call', '--tool-name', 'moon.menu'),
            {
                content: [{type: 'text', text: JSON.stringify(menu)}],
                structuredContent: menu,
            },
        );
        assert.deepEqual(
            await inspectJson(MOON_PANTRY, '--method', 'resources/read', '--uri', 'pantry://menu'),
            {
                contents: [{uri: 'pantry://menu', mimeType: 'application/json', text: JSON.stringify(menu)}],
            },
        );
    });
});
