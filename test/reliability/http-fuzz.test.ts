/**
 * Hostile input against the HTTP handler on node:http: seeded random methods, headers (content
 * types, Accept, revisions, session ids, Mcp-* headers, Origin, Host) and bodies (valid, truncated,
 * oversized, random bytes, batches), with clients that go away mid-body, mid-answer (SSE streams
 * included) or at once. Nothing crashes or rejects unhandled, no answer is a 500, every session
 * the handler holds ends when it closes, memory is flat across rounds, and nothing stays open.
 */
import assert from 'node:assert/strict';
import {request} from 'node:http';
import {test} from 'node:test';
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import type {McpTool, SessionEndInfo} from '../../lib/mcp/http/index.js';
import {createMcpHttpHandler, serveNodeHttp} from '../../lib/mcp/http/index.js';
import type {FuzzCase} from './http-fuzz-cases.js';
import {fuzzCase, LEGACY, MODERN, Random} from './http-fuzz-cases.js';

const SEED = 0x23f022;
const ROUNDS = 4;
const CASES_PER_ROUND = 120;
const IN_FLIGHT = 8;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
}

const text = (value: string) => ({content: [{type: 'text' as const, text: value}]});
const TOOLS: McpTool[] = [
    {
        name: 'echo',
        inputSchema: {type: 'object', properties: {region: {type: 'string', 'x-mcp-header': 'Region'}}},
        handler: (args) => text(JSON.stringify(args)),
    },
    {
        name: 'burst',
        inputSchema: {type: 'object'},
        handler: async (_args, context) => {
            for (let progress = 1; progress <= 50; progress += 1) context.reportProgress({progress});
            return text('burst');
        },
    },
    {
        // Runs until its client goes away (modern era) or briefly otherwise, streaming progress.
        name: 'hold',
        inputSchema: {type: 'object'},
        handler: (_args, context) => {
            context.reportProgress({progress: 1, total: 2});
            return new Promise((resolve, reject) => {
                const timer = setTimeout(() => resolve(text('held')), 20);
                context.signal.addEventListener(
                    'abort',
                    () => {
                        clearTimeout(timer);
                        reject(context.signal.reason);
                    },
                    {once: true},
                );
            });
        },
    },
];

interface Outcome {
    status?: number;
    session?: string;
}

/** Sends one case and leaves as it says; resolves once the client side is done, never rejects. */
function send(url: URL, fuzz: FuzzCase): Promise<Outcome> {
    return new Promise((resolve) => {
        const outcome: Outcome = {};
        let outgoing: ReturnType<typeof request>;
        try {
            outgoing = request(url, {method: fuzz.method, headers: fuzz.headers, agent: false});
        } catch {
            resolve(outcome); // a header value node:http itself refuses to send
            return;
        }
        outgoing.on('error', () => {});
        outgoing.on('close', () => resolve(outcome));
        outgoing.on('response', (incoming) => {
            outcome.status = incoming.statusCode;
            const session = incoming.headers['mcp-session-id'];
            if (typeof session === 'string') outcome.session = session;
            incoming.on('error', () => {});
            const stream = String(incoming.headers['content-type']).startsWith('text/event-stream');
            // A GET stream carries nothing until the server has something to say: leave it at once.
            if (stream && fuzz.method === 'GET') outgoing.destroy();
            else if (fuzz.leave === 'mid-answer') {
                if (stream) incoming.once('data', () => outgoing.destroy());
                else outgoing.destroy();
            }
            incoming.resume();
        });
        const body = fuzz.body;
        if (body === undefined) {
            outgoing.end();
            if (fuzz.leave === 'at-once') setImmediate(() => outgoing.destroy());
        } else if (fuzz.leave === 'mid-body') {
            outgoing.setHeader('content-length', body.length + 64);
            outgoing.write(body.subarray(0, Math.ceil(body.length / 2)), () => outgoing.destroy());
        } else {
            outgoing.end(body);
            if (fuzz.leave === 'at-once') setImmediate(() => outgoing.destroy());
        }
    });
}

const RESOURCES = ['TCPSocketWrap', 'TCPServerWrap', 'Timeout', 'Immediate'];
const openResources = () =>
    process
        .getActiveResourcesInfo()
        .filter((name) => RESOURCES.includes(name))
        .sort();

test('seeded fuzz of methods, headers, bodies and disconnects: no crash, no leak, memory flat', {
    timeout: 120_000,
}, async () => {
    const failures: unknown[] = [];
    const onFailure = (error: unknown) => void failures.push(error);
    process.on('unhandledRejection', onFailure);
    process.on('uncaughtException', onFailure);
    const before = openResources();
    const ended: SessionEndInfo[] = [];
    const diagnostics: string[] = [];
    const handler = createMcpHttpHandler({
        serverInfo: {name: 'fuzz', version: '1.0.0'},
        protocolVersions: [MODERN, LEGACY],
        tools: TOOLS,
        maxMessageBytes: 4096,
        maxSessions: 16,
        onSessionEnd: (info) => void ended.push(info),
        onDiagnostic: (line) => void diagnostics.push(line),
    });
    const served = await serveNodeHttp(handler);
    const url = new URL(served.url);
    const random = new Random(SEED);
    const sessions: string[] = [];
    const statuses = new Map<number, number>();
    const heaps: number[] = [];
    try {
        for (let round = 0; round < ROUNDS; round += 1) {
            for (let start = 0; start < CASES_PER_ROUND; start += IN_FLIGHT) {
                const batch = Array.from({length: IN_FLIGHT}, () => fuzzCase(random, sessions));
                for (const outcome of await Promise.all(batch.map((fuzz) => send(url, fuzz)))) {
                    if (outcome.status !== undefined)
                        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
                    if (outcome.session !== undefined && !sessions.includes(outcome.session))
                        sessions.push(outcome.session);
                }
                if (sessions.length > 32) sessions.splice(0, sessions.length - 32);
            }
            await handler.drain();
            heaps.push(heapAfterGc());
        }
        assert.deepEqual(failures, []);
        // Every answer is one the transport names for the input; a 500 would mean the handler broke.
        const seen = [...statuses.keys()].sort((a, b) => a - b);
        assert.deepEqual(
            seen.filter(
                (status) => ![200, 202, 204, 400, 403, 404, 405, 406, 409, 413, 415].includes(status),
            ),
            [],
            `${JSON.stringify(Object.fromEntries(statuses))} ${diagnostics.join('\n')}`,
        );
        assert.ok(
            seen.includes(200) && seen.includes(400) && seen.includes(404),
            'the fuzz reaches the tools',
        );
        assert.deepEqual(
            diagnostics.filter((line) => line.includes('answered 500')),
            [],
        );
        // Heap after the last round within 2 MiB of after the second (the first warms up).
        const growth = (heaps.at(-1) as number) - (heaps[1] as number);
        assert.ok(growth < 2 * 1024 * 1024, `heap grew by ${growth} bytes: ${heaps.join(', ')}`);
    } finally {
        const open = handler.sessionCount;
        const endedBefore = ended.length;
        await handler.close({cancelPending: true});
        await handler.closed;
        await served.close();
        process.off('unhandledRejection', onFailure);
        process.off('uncaughtException', onFailure);
        // Every session the handler counted ended at close, and no other; none ended twice.
        assert.equal(handler.sessionCount, 0);
        assert.equal(ended.length - endedBefore, open);
        assert.ok(ended.slice(endedBefore).every(({reason}) => reason === 'closed'));
        assert.equal(new Set(ended.map(({sessionId}) => sessionId)).size, ended.length);
        const endedIds = new Set(ended.map(({sessionId}) => sessionId));
        assert.deepEqual(
            sessions.filter((id) => !endedIds.has(id)),
            [],
        );
        // A closed handle leaves the list in the close phase of the loop turn after it was closed.
        await new Promise(setImmediate);
        await new Promise(setImmediate);
        assert.deepEqual(openResources(), before);
    }
});
