/**
 * The bridge section of docs/hosts.md, run as written: the `npx mcp-proxy@…` commands are read from the
 * page and run through a shell from the repository root, and our client drives the observatory
 * example through them over Streamable HTTP, each on a port the system picks (`--port 0`) so that
 * runs in parallel do not collide. The bridge runs in a process group of its own; the
 * test ends it with SIGTERM and waits until every process that shares its output pipes (the
 * shell, npx, the bridge, and the example, whose stderr the bridge passes through) has exited.
 */
import assert from 'node:assert/strict';
import type {ChildProcess} from 'node:child_process';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {connectMcpClient, readToolResult} from '../../../lib/mcp/client/index.js';
import {LineReader} from '../../helpers/children.js';
import {REPO_ROOT} from '../../helpers/paths.js';
import type {Certificates} from '../../mcp/client/http-fixture.js';
import {makeCertificates} from '../../mcp/client/http-fixture.js';

const GUARD = {timeout: 90_000};
const DRIVER = fileURLToPath(new URL('../../mcp/client/fixtures/http-driver.js', import.meta.url));
const REPORT_LISTENING = fileURLToPath(new URL('./fixtures/report-listening.js', import.meta.url));

/** The `npx mcp-proxy@…` command lines of docs/hosts.md, in order. */
function readmeCommands(): string[] {
    const readme = readFileSync(join(REPO_ROOT, 'docs', 'hosts.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Serve your stdio server to remote clients'));
    return section
        .split('\n')
        .filter((line) => line.startsWith('npx mcp-proxy@'))
        .slice(0, 2);
}

interface Bridge {
    child: ChildProcess;
    stdout: LineReader;
    stderr: LineReader;
    /** Resolves once every process holding the bridge's output pipes has exited. */
    gone: Promise<void>;
}

function startBridge(command: string, env: NodeJS.ProcessEnv = process.env): Bridge {
    const preload = `--import=${pathToFileURL(REPORT_LISTENING).href}`;
    const child = spawn('sh', ['-c', command], {
        cwd: REPO_ROOT,
        env: {...env, NODE_OPTIONS: [env.NODE_OPTIONS, preload].filter(Boolean).join(' ')},
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = child.stdout as NonNullable<typeof child.stdout>;
    const stderr = child.stderr as NonNullable<typeof child.stderr>;
    const gone = Promise.all([once(stdout, 'close'), once(stderr, 'close')]).then(() => undefined);
    return {child, stdout: new LineReader(stdout), stderr: new LineReader(stderr), gone};
}

/** Ends the bridge's whole process group and waits until all of it is gone. */
async function stopBridge(bridge: Bridge): Promise<void> {
    try {
        process.kill(-(bridge.child.pid as number), 'SIGTERM');
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
    await bridge.gone;
}

/**
 * Resolves with the port the bridge listens on, once it does. The bridge prints its port before it
 * listens and nothing once it does, so each of its processes preloads `report-listening`, which
 * reports the listen (or its failure) on stderr. The tests run the README's commands with
 * `--port 0`, so the system picks a free port and parallel runs never meet on 8931 or 8443.
 */
async function listeningPort(bridge: Bridge): Promise<number> {
    const line = await bridge.stderr.waitFor(
        (candidate) => candidate.startsWith('LISTENING ') || candidate.startsWith('LISTEN FAILED '),
    );
    assert.match(line, /^LISTENING \d+$/, `the bridge could not listen: ${line}`);
    return Number(line.slice('LISTENING '.length));
}

/** The README's command with the port left to the system. */
function onAnyPort(command: string, port: string): string {
    assert.ok(command.includes(`--port ${port} `), command);
    return command.replace(`--port ${port} `, '--port 0 ');
}

let commands: string[];
let certificates: Certificates;
before(() => {
    commands = readmeCommands();
    certificates = makeCertificates();
});
after(() => certificates.remove());

test('the README shows the loopback command and the remote one', () => {
    assert.deepEqual(commands, [
        'npx mcp-proxy@6.7.19 --host 127.0.0.1 --port 8931 --server stream -- node examples/observatory.mjs',
        'npx mcp-proxy@6.7.19 --host 0.0.0.0 --port 8443 --sslCert server.pem --sslKey server-key.pem ' +
            '--apiKey "$MCP_PROXY_API_KEY" --server stream -- node examples/observatory.mjs',
    ]);
});

test(
    "the README's bridge command serves the observatory to our client over Streamable HTTP",
    GUARD,
    async () => {
        const bridge = startBridge(onAnyPort(commands[0] as string, '8931'));
        try {
            const port = await listeningPort(bridge);
            const client = await connectMcpClient({url: `http://127.0.0.1:${port}/mcp`});
            assert.equal(client.serverInfo.name, 'observatory');
            assert.equal(client.protocolVersion, '2025-11-25');
            assert.deepEqual(
                (await client.listTools()).map((tool) => tool.name),
                ['sky.tonight', 'sky.gallery', 'telescope.point', 'sky.survey', 'journal.delete'],
            );
            assert.deepEqual(readToolResult(await client.callTool('sky.tonight', {site: 'Ridge'})), {
                site: 'Ridge',
                moonPhase: 'waxing gibbous',
                visible: ['Moon', 'Jupiter', 'Saturn'],
                seeing: 4,
            });
            const pointed = await client.callTool('telescope.point', {target: 'vega'});
            assert.equal(pointed.isError, true);
            const resources = await client.listResources();
            assert.deepEqual(
                resources.map((r) => r.uri),
                ['observatory://catalog', 'observatory://plates/m31.png'],
            );
            const catalog = await client.readResource('observatory://catalog');
            assert.equal((catalog.contents[0] as {mimeType: string}).mimeType, 'application/json');

            const controller = new AbortController();
            const survey = client.callTool('sky.survey', {sectors: 10_000}, {signal: controller.signal});
            await bridge.stderr.waitFor((line) =>
                /^observatory: survey \S+ started: 10000 sectors$/.test(line),
            );
            const reason = new Error('enough of the sky');
            controller.abort(reason);
            await assert.rejects(survey, (e) => e === reason);
            await bridge.stderr.waitFor((line) =>
                /^observatory: survey \S+ stopped after \d+ sectors: /.test(line),
            );
            await client.close();
            await bridge.stdout.waitFor((line) =>
                line.startsWith('[mcp-proxy] received delete request for session '),
            );
        } finally {
            await stopBridge(bridge);
        }
        assert.equal(bridge.stderr.lines.filter((line) => line.includes('Error')).join('\n'), '');
    },
);

test(
    "the README's remote command (bound to loopback here) serves HTTPS and wants the API key",
    GUARD,
    async () => {
        const dir = join(certificates.caFile, '..');
        writeFileSync(join(dir, 'server.pem'), certificates.cert);
        writeFileSync(join(dir, 'server-key.pem'), certificates.key);
        const command = onAnyPort(commands[1] as string, '8443')
            .replace('--host 0.0.0.0', '--host 127.0.0.1')
            .replace(
                '--sslCert server.pem --sslKey server-key.pem',
                `--sslCert ${dir}/server.pem --sslKey ${dir}/server-key.pem`,
            );
        const bridge = startBridge(command, {...process.env, MCP_PROXY_API_KEY: 'k3y'});
        try {
            const port = await listeningPort(bridge);
            const run = async (key: string) => {
                const child = spawn(
                    process.execPath,
                    [DRIVER, `https://localhost:${port}/mcp`, 'list', '', key],
                    {
                        env: {...process.env, NODE_EXTRA_CA_CERTS: certificates.caFile},
                        stdio: ['ignore', 'pipe', 'inherit'],
                    },
                );
                let out = '';
                child.stdout.setEncoding('utf8').on('data', (text: string) => {
                    out += text;
                });
                const [code] = (await once(child, 'close')) as [number | null];
                assert.equal(code, 0);
                return out
                    .trim()
                    .split('\n')
                    .map(
                        (line) =>
                            JSON.parse(line) as {
                                step: string;
                                value?: unknown;
                                error?: {name: string; message: string};
                            },
                    );
            };
            const allowed = await run('k3y');
            assert.deepEqual(
                allowed.map((s) => s.step),
                ['connect', 'listTools', 'close'],
            );
            assert.equal((allowed[1]?.value as unknown[] | undefined)?.length, 5);
            const refused = await run('wrong');
            assert.equal(refused.length, 1);
            assert.equal(refused[0]?.error?.name, 'McpConnectionError');
            assert.match(
                refused[0]?.error?.message ?? '',
                /answered HTTP 401 Unauthorized \(check the credentials passed in headers\)/,
            );
        } finally {
            await stopBridge(bridge);
        }
    },
);
