/**
 * Scale out on a real engine: two processes serving one catalog over HTTP behind nginx (Debian's
 * package, installed by scripts/ensure-nginx.mjs when missing), configured with docs/http.md's
 * recipe. Modern clients spread across both with no affinity; legacy sessions keep reaching the
 * process that created them. Two broken configurations show why the recipe is as it is.
 */
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import type {Answer, Backend} from './support.js';
import {
    call,
    docsRecipe,
    ensureNginx,
    freePort,
    message,
    pointed,
    startBackend,
    startNginx,
} from './support.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const JSON_AND_SSE = {'content-type': 'application/json', accept: 'application/json, text/event-stream'};

let binary: string;
let backends: Backend[];

before(async () => {
    binary = ensureNginx();
    backends = await Promise.all([startBackend('alpha'), startBackend('beta')]);
});

after(async () => {
    await Promise.all(backends.map((backend) => backend.stop()));
});

/** Runs `body` against nginx serving `http` (the recipe, possibly altered), then stops it. */
async function behindNginx(http: (recipe: string) => string, body: (port: number) => Promise<void>) {
    const port = await freePort();
    const nginx = await startNginx(binary, http(pointed(await docsRecipe(), backends, port)), port);
    try {
        await body(port);
    } finally {
        await nginx.stop();
    }
}

function modernWhoami(port: number, id: number): Promise<Answer> {
    return call(
        port,
        'POST',
        {...JSON_AND_SSE, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'whoami'},
        {
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
                name: 'whoami',
                arguments: {},
                _meta: {
                    'io.modelcontextprotocol/protocolVersion': MODERN,
                    'io.modelcontextprotocol/clientCapabilities': {},
                },
            },
        },
    );
}

/** Who answered a successful `whoami`; fails the test on any other answer. */
function answeredBy(answer: Answer): string {
    assert.equal(answer.status, 200, answer.body);
    const text = message(answer).result?.content?.[0]?.text;
    assert.ok(text === 'alpha' || text === 'beta', answer.body);
    return text;
}

/** A legacy session from `from`: its id, or the answer that refused `initialize`. */
async function initialize(port: number, from: string): Promise<string> {
    const answer = await call(
        port,
        'POST',
        JSON_AND_SSE,
        {
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {protocolVersion: LEGACY, capabilities: {}, clientInfo: {name: 'scale', version: '1'}},
        },
        from,
    );
    assert.equal(answer.status, 200, answer.body);
    const id = answer.headers['mcp-session-id'];
    assert.equal(typeof id, 'string');
    return id as string;
}

function legacy(
    port: number,
    session: string,
    from: string,
    method: string,
    body?: unknown,
): Promise<Answer> {
    const headers = {...JSON_AND_SSE, 'mcp-protocol-version': LEGACY, 'mcp-session-id': session};
    return call(port, method, headers, body, from);
}

const legacyWhoami = (port: number, session: string, from: string, id: number) =>
    legacy(port, session, from, 'POST', {jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'whoami'}});

const notFound = (session: string) =>
    `${JSON.stringify({
        jsonrpc: '2.0',
        error: {
            code: -32600,
            message: `Session not found: ${JSON.stringify(session)} ended or never existed; send "initialize" without Mcp-Session-Id to start a new one`,
        },
    })}\n`;

test("the docs' recipe: modern calls go round robin to both processes, every one answered", async () => {
    await behindNginx(
        (recipe) => recipe,
        async (port) => {
            const sequential: string[] = [];
            for (let id = 1; id <= 20; id += 1) sequential.push(answeredBy(await modernWhoami(port, id)));
            assert.deepEqual(
                sequential.sort(),
                [...Array(10).fill('alpha'), ...Array(10).fill('beta')],
                'round robin alternates between the two processes',
            );
            const concurrent = await Promise.all(
                Array.from({length: 40}, (_, index) => modernWhoami(port, 100 + index)),
            );
            assert.deepEqual(new Set(concurrent.map(answeredBy)), new Set(['alpha', 'beta']));
        },
    );
});

test("the docs' recipe: every call of every legacy session reaches the process that owns it", async () => {
    await behindNginx(
        (recipe) => recipe,
        async (port) => {
            const owners = new Map<string, string>();
            // Clients from eight loopback addresses, four sessions each, all at once.
            const clients = Array.from({length: 8}, (_, index) => `127.0.0.${index + 2}`);
            await Promise.all(
                clients.flatMap((from) =>
                    Array.from({length: 4}, async () => {
                        const session = await initialize(port, from);
                        const initialized = await legacy(port, session, from, 'POST', {
                            jsonrpc: '2.0',
                            method: 'notifications/initialized',
                        });
                        assert.equal(initialized.status, 202, initialized.body);
                        const names = new Set<string>();
                        for (let id = 1; id <= 5; id += 1)
                            names.add(answeredBy(await legacyWhoami(port, session, from, id)));
                        assert.equal(names.size, 1, 'one process answers every call of a session');
                        const deleted = await legacy(port, session, from, 'DELETE');
                        assert.equal(deleted.status, 204, deleted.body);
                        const owner = [...names][0] as string;
                        assert.equal(owners.get(from) ?? owner, owner, 'one client address, one process');
                        owners.set(from, owner);
                    }),
                ),
            );
            assert.equal(owners.size, clients.length);
        },
    );
});

test('hashing on Mcp-Session-Id alone breaks sessions: initialize carries no id, so it lands anywhere', async () => {
    await behindNginx(
        (recipe) =>
            recipe
                .replace('hash $remote_addr consistent;', 'hash $http_mcp_session_id consistent;')
                .replace('map $http_mcp_method $mcp_upstream {', 'map $http_mcp_session_id $mcp_upstream {')
                .replace(
                    '""      mcp_legacy;\n    default mcp_modern;',
                    '""      mcp_modern;\n    default mcp_legacy;',
                ),
        async (port) => {
            const statuses: number[] = [];
            for (let index = 0; index < 16; index += 1) {
                const session = await initialize(port, '127.0.0.1');
                const answer = await legacyWhoami(port, session, '127.0.0.1', 1);
                statuses.push(answer.status);
                if (answer.status === 404) assert.equal(answer.body, notFound(session));
                else answeredBy(answer);
            }
            // Each session's id hashes to either process whatever process created it: about half fail.
            assert.ok(statuses.includes(404), `no session hashed away from its owner: ${statuses.join(' ')}`);
        },
    );
});

test('without affinity a legacy session call that lands on the other process is 404', async () => {
    await behindNginx(
        (recipe) => recipe.replace('hash $remote_addr consistent;', ''),
        async (port) => {
            const session = await initialize(port, '127.0.0.2');
            const first = await legacyWhoami(port, session, '127.0.0.2', 1);
            const second = await legacyWhoami(port, session, '127.0.0.2', 2);
            const [refused, served] = first.status === 404 ? [first, second] : [second, first];
            assert.equal(refused.status, 404);
            assert.equal(refused.body, notFound(session));
            answeredBy(served);
        },
    );
});
