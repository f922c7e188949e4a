/**
 * The MCP Inspector command lines over Streamable HTTP against `createMcpHttpHandler` on node:http:
 * the 1.0.3 CLI (`--transport http`, legacy era) and the 2.x CLI (`--transport http --server-url`)
 * in each protocol era. Each run lists the tools, calls one, and lists the resources and prompts.
 * Every run tags its requests with an `X-Run` header, so the runs go in parallel and the test
 * still sees which HTTP requests each one made.
 */
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import type {McpHttpHandler, NodeHttpServer} from '../../../lib/mcp/http/index.js';
import {createMcpHttpHandler, MCP_PROTOCOL_VERSIONS, serveNodeHttp} from '../../../lib/mcp/http/index.js';
import {REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';

const GUARD = {timeout: 120_000, concurrency: true};

const require = createRequire(import.meta.url);
const CLI_1 = join(
    dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')),
    'build/cli.js',
);
const CLI_2 = join(
    dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
    'clients/launcher/build/index.js',
);

const ADD = {
    name: 'add',
    description: 'Adds a and b.',
    inputSchema: {
        type: 'object' as const,
        properties: {a: {type: 'number'}, b: {type: 'number'}},
        required: ['a', 'b'],
    },
};
const NOTE = {uri: 'mem://note', name: 'note', mimeType: 'text/plain'};
const GREET = {name: 'greet', description: 'Greets someone.', arguments: [{name: 'who', required: true}]};

/** What the handler saw of each run: its HTTP method, JSON-RPC method and era headers, in order. */
interface Seen {
    readonly http: string;
    readonly rpc: string | undefined;
    readonly version: string | null;
    readonly session: boolean;
}
const seen = new Map<string, Seen[]>();

let handler: McpHttpHandler;
let served: NodeHttpServer;
let home = '';
let node22 = '';

before(async () => {
    handler = createMcpHttpHandler({
        serverInfo: {name: 'inspector-http', version: '1.0.0'},
        protocolVersions: [...MCP_PROTOCOL_VERSIONS],
        tools: [
            {
                ...ADD,
                handler: ({a, b}) => ({
                    content: [{type: 'text', text: String((a as number) + (b as number))}],
                }),
            },
        ],
        resources: [{...NOTE, handler: () => ({contents: [{...NOTE, text: 'hello'}]})}],
        prompts: [
            {
                ...GREET,
                handler: ({who}) => ({
                    messages: [{role: 'user', content: {type: 'text', text: `Hello, ${who}`}}],
                }),
            },
        ],
        onDiagnostic: () => {},
    });
    served = await serveNodeHttp({
        fetch: async (request) => {
            const run = request.headers.get('x-run') ?? '';
            const body =
                request.method === 'POST' ? ((await request.clone().json()) as {method?: string}) : {};
            const list = seen.get(run) ?? [];
            seen.set(run, list);
            list.push({
                http: request.method,
                rpc: body.method,
                version: request.headers.get('mcp-protocol-version'),
                session: request.headers.has('mcp-session-id'),
            });
            return handler.fetch(request);
        },
    });
    const script = pathToFileURL(join(REPO_ROOT, 'scripts', 'node-binary.mjs')).href;
    node22 = ((await import(script)) as {nodeBinary(major: number): string}).nodeBinary(22);
    // The 2.x CLI keeps state under the home folder: a scratch one, not the user's.
    home = mkdtempSync(join(tmpdir(), 'arcane-inspector-http-'));
});

after(async () => {
    await handler.close({cancelPending: true});
    await served.close();
    rmSync(home, {recursive: true, force: true});
});

let runs = 0;

/** One CLI run of `method`; returns the parsed result and the requests of the run. */
async function inspect(
    cli: '1.0.3' | 'legacy' | 'modern' | 'auto',
    ...args: string[]
): Promise<{result: unknown; requests: Seen[]}> {
    runs += 1;
    const run = `${cli}-${runs}`;
    const header = `X-Run: ${run}`;
    const {code, stdout, stderr} =
        cli === '1.0.3'
            ? await runNode(
                  [CLI_1, '--cli', served.url, '--transport', 'http', '--header', header, ...args],
                  {
                      // It reads its own identity from `../package.json` of its working directory.
                      cwd: join(REPO_ROOT, 'examples'),
                  },
              )
            : await runNode(
                  [
                      CLI_2,
                      '--cli',
                      '--protocol-era',
                      cli,
                      '--transport',
                      'http',
                      '--server-url',
                      served.url,
                      '--header',
                      header,
                      ...args,
                      '--format',
                      'json',
                  ],
                  {cwd: REPO_ROOT, node: node22, env: {...process.env, HOME: home}},
              );
    assert.equal(code, 0, `the Inspector failed: ${stderr}`);
    const parsed = JSON.parse(stdout) as {result?: unknown};
    return {result: cli === '1.0.3' ? parsed : parsed.result, requests: seen.get(run) ?? []};
}

/** A modern answer carries the server's identity in `_meta`; the rest is as in the legacy era. */
function strip(result: unknown): unknown {
    const {_meta, ...rest} = result as {_meta?: unknown};
    return rest;
}

/** The requests of a run were served in the era it asked for. */
function assertEra(cli: string, requests: Seen[], method: string): void {
    const posts = requests.filter((request) => request.http === 'POST');
    const call = posts.find((request) => request.rpc === method);
    assert.ok(call !== undefined, `${cli}: no ${method} POST among ${JSON.stringify(requests)}`);
    if (cli === 'modern') {
        assert.equal(
            posts.some((request) => request.rpc === 'initialize'),
            false,
        );
        assert.deepEqual(call, {http: 'POST', rpc: method, version: '2026-07-28', session: false});
    } else if (cli === 'auto') {
        // The probe finds 2026-07-28 served, so the run stays in that era.
        assert.equal(posts[0]?.rpc, 'server/discover');
        assert.deepEqual(call, {http: 'POST', rpc: method, version: '2026-07-28', session: false});
    } else {
        assert.equal(posts[0]?.rpc, 'initialize');
        assert.equal(call.session, true);
        assert.notEqual(call.version, '2026-07-28');
    }
}

for (const cli of ['1.0.3', 'legacy', 'modern', 'auto'] as const) {
    describe(`the Inspector CLI ${cli === '1.0.3' ? '1.0.3' : `2.x, ${cli} era`} over HTTP`, GUARD, () => {
        const keep = cli === 'modern' || cli === 'auto' ? strip : (result: unknown) => result;

        test('lists the tools', async () => {
            const {result, requests} = await inspect(cli, '--method', 'tools/list');
            assert.deepEqual(keep(result), {tools: [ADD]});
            assertEra(cli, requests, 'tools/list');
        });

        test('calls a tool with arguments', async () => {
            const {result, requests} = await inspect(
                cli,
                '--method',
                'tools/call',
                '--tool-name',
                'add',
                '--tool-arg',
                'a=2',
                'b=40',
            );
            assert.deepEqual(keep(result), {content: [{type: 'text', text: '42'}]});
            assertEra(cli, requests, 'tools/call');
        });

        test('lists the resources', async () => {
            const {result, requests} = await inspect(cli, '--method', 'resources/list');
            assert.deepEqual(keep(result), {resources: [NOTE]});
            assertEra(cli, requests, 'resources/list');
        });

        test('lists the prompts', async () => {
            const {result, requests} = await inspect(cli, '--method', 'prompts/list');
            assert.deepEqual(keep(result), {prompts: [GREET]});
            assertEra(cli, requests, 'prompts/list');
        });
    });
}
