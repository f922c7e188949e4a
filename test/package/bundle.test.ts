/**
 * The package's entries are bundles of dist/lib (scripts/bundle.mjs): each must export exactly what
 * the module its types describe exports, load none of dist/lib's modules, and share one copy of each
 * class two entries hand out. The package name resolves to them, so the examples, which import
 * `arcane-os/...`, run the bundles wherever a test spawns them (the real-client suites, say).
 */
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {join, posix} from 'node:path';
import {describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import type * as Host from '../../lib/core/host/index.js';
import type * as Client from '../../lib/mcp/client/index.js';
import type * as Http from '../../lib/mcp/http/index.js';
import type * as Stdio from '../../lib/mcp/stdio/index.js';
import type * as Runtime from '../../lib/native/runtime.js';
import {runNode} from '../helpers/process.js';
import {REPO_ROOT} from './support.js';

interface Exported {
    readonly types: string;
    readonly default: string;
}

async function entries(): Promise<[string, Exported][]> {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        exports: Record<string, string | Exported>;
    };
    return Object.entries(manifest.exports).filter(
        (entry): entry is [string, Exported] => typeof entry[1] !== 'string',
    );
}

/** An entry by its package name, as an app imports it (a variable, so tsc resolves nothing at build time). */
async function imported<Module>(subpath: string): Promise<Module> {
    const specifier = `arcane-os/${subpath}`;
    return (await import(specifier)) as Module;
}

function load(path: string): Promise<Record<string, unknown>> {
    return import(pathToFileURL(join(REPO_ROOT, path)).href) as Promise<Record<string, unknown>>;
}

/** What an export is, for comparing two copies of one module: its kind, and its value when it is data. */
function shapeOf(value: unknown): unknown {
    if (typeof value === 'function') return `function ${value.name}/${value.length}`;
    return value;
}

/** The modules a bundle loads, itself first: the relative imports of each file, followed. */
async function graphOf(path: string): Promise<string[]> {
    const seen = [path];
    for (let index = 0; index < seen.length; index += 1) {
        const file = seen[index] as string;
        const text = await readFile(join(REPO_ROOT, file), 'utf8');
        for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?["']([^"']+)["'];?$/gm)) {
            if (specifier === undefined || specifier.startsWith('node:')) continue;
            assert.ok(
                specifier.startsWith('.'),
                `${file} imports ${specifier}, which is neither node: nor ours`,
            );
            const target = posix.normalize(posix.join(posix.dirname(file), specifier));
            if (!seen.includes(target)) seen.push(target);
        }
    }
    return seen;
}

describe('the bundled entries', () => {
    test('export the same names, functions and values as the modules their types describe', async () => {
        for (const [subpath, {types, default: bundle}] of await entries()) {
            const bundled = await load(bundle);
            const compiled = await load(
                types.replace(/^\.\/dist\/types\//, './dist/').replace(/\.d\.ts$/, '.js'),
            );
            assert.deepEqual(Object.keys(bundled).sort(), Object.keys(compiled).sort(), subpath);
            for (const name of Object.keys(compiled)) {
                assert.deepEqual(shapeOf(bundled[name]), shapeOf(compiled[name]), `${subpath}: ${name}`);
            }
        }
    });

    test('load only dist/bundle files and Node built-ins, two modules for the server', async () => {
        for (const [subpath, {default: bundle}] of await entries()) {
            for (const file of await graphOf(posix.normalize(bundle))) {
                assert.match(file, /^dist\/bundle\//, `${subpath} loads ${file}`);
            }
        }
        assert.deepEqual((await graphOf('dist/bundle/mcp/stdio.js')).length, 2);
    });

    test('are what the package name resolves to from the examples folder, as from an app', async () => {
        const subpaths = (await entries()).map(([subpath]) => `arcane-os${subpath.slice(1)}`);
        // An -e module resolves from the working directory, here the examples' own folder.
        const printed = await runNode(
            [
                '--input-type=module',
                '-e',
                `for (const name of ${JSON.stringify(subpaths)}) console.log(import.meta.resolve(name));`,
            ],
            {cwd: join(REPO_ROOT, 'examples')},
        );
        const expected = (await entries()).map(
            ([, {default: bundle}]) => pathToFileURL(join(REPO_ROOT, bundle)).href,
        );
        assert.deepEqual(printed, {code: 0, signal: null, stdout: `${expected.join('\n')}\n`, stderr: ''});
    });

    test('share McpProtocolError between the stdio and HTTP entries, so a tool may throw either', async () => {
        const stdio = await imported<typeof Stdio>('mcp/stdio');
        const http = await imported<typeof Http>('mcp/http');
        assert.equal(http.McpProtocolError, stdio.McpProtocolError);
        assert.equal(http.ErrorCode, stdio.ErrorCode);
        const handler = http.createMcpHttpHandler({
            serverInfo: {name: 'bundle', version: '1'},
            tools: [
                {
                    name: 'refuse',
                    inputSchema: {type: 'object'},
                    handler: () => {
                        throw new stdio.McpProtocolError(-32050, 'Refused on purpose');
                    },
                },
            ],
        });
        const initialize = {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: {name: 'c', version: '1'},
        };
        const post = (body: unknown, headers: Record<string, string> = {}) =>
            handler.fetch(
                new Request('http://127.0.0.1/mcp', {
                    method: 'POST',
                    headers: {'content-type': 'application/json', ...headers},
                    body: JSON.stringify(body),
                }),
            );
        const opened = await post({jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize});
        const session = opened.headers.get('mcp-session-id') as string;
        const refused = await post(
            {jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'refuse'}},
            {'mcp-session-id': session},
        );
        assert.equal(
            await refused.text(),
            '{"jsonrpc":"2.0","id":1,"error":{"code":-32050,"message":"Refused on purpose"}}\n',
        );
        await handler.close();
    });

    test("give a client's framing error the server entry's own Utf8DecodeError as its cause", async () => {
        const {connectMcpClient, McpProtocolViolationError} = await imported<typeof Client>('mcp/client');
        const {Utf8DecodeError} = await imported<typeof Stdio>('mcp/stdio');
        const garbled = 'process.stdout.write(Buffer.from([0xff, 0x0a])); process.stdin.resume();';
        await assert.rejects(
            connectMcpClient({command: process.execPath, args: ['-e', garbled], strict: true}),
            (error) => {
                assert.ok(error instanceof McpProtocolViolationError);
                assert.equal(error.message, 'The MCP server wrote bytes to stdout that are not UTF-8');
                assert.ok(
                    error.cause instanceof Utf8DecodeError,
                    'one Utf8DecodeError class for both entries',
                );
                return true;
            },
        );
    });

    test('throw from arcane-os/native/runtime the FlagError class that arcane-os/core/host exports', async () => {
        const {APP_ENTRY_FLAG, readAppEntry} = await imported<typeof Runtime>('native/runtime');
        const {FlagError} = await imported<typeof Host>('core/host');
        assert.throws(
            () => readAppEntry(['node', 'arcane-core.mjs', APP_ENTRY_FLAG]),
            (error) => {
                assert.ok(error instanceof FlagError, 'one FlagError class for both entries');
                assert.equal(error.flag, APP_ENTRY_FLAG);
                assert.equal(
                    error.message,
                    `${APP_ENTRY_FLAG} is missing its value: give the module to import, relative to the bundle's ` +
                        `app/ folder, as in "${APP_ENTRY_FLAG} native/moon-mcp.mjs"`,
                );
                return true;
            },
        );
    });
});
