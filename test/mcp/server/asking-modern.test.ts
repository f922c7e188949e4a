/**
 * Asking under 2026-07-28 on the raw wire: `input_required` rounds, the sealed `requestState` and
 * every way a retry can be wrong.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {stateClock} from '../../../lib/mcp/server/asking/state.js';
import type {ElicitFormRequest, HandlerContext, McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {McpAskError} from '../../../lib/mcp/stdio/index.js';
import {text, tool} from '../../helpers/session.js';
import type {Harness} from '../../helpers/streams.js';
import {harness} from '../../helpers/streams.js';

const CAPABILITIES = {elicitation: {}, sampling: {}, roots: {}};
const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
};
const IDENTITY = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"ask","version":"1.0.0"}}';
const NAME: ElicitFormRequest = {
    message: 'Your name?',
    requestedSchema: {type: 'object', properties: {name: {type: 'string'}}, required: ['name']},
};
const COLOR: ElicitFormRequest = {
    message: 'Your color?',
    requestedSchema: {type: 'object', properties: {color: {type: 'string'}}},
};
const NAME_REQUEST = {method: 'elicitation/create', params: NAME};
const STATE = /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;

interface Seen {
    runs: number;
    reasons: unknown[];
}

function server(
    handler: (context: HandlerContext<'tools/call'>) => Promise<string>,
    seen: Seen = {runs: 0, reasons: []},
    extra: Partial<McpStdioServerOptions> = {},
): Harness {
    const run = async (context: HandlerContext<'tools/call'>) => {
        seen.runs += 1;
        context.signal.addEventListener('abort', () => seen.reasons.push(context.signal.reason));
        return text(await handler(context));
    };
    return harness({
        serverInfo: {name: 'ask', version: '1.0.0'},
        protocolVersions: ['2026-07-28', '2025-11-25'],
        tools: [
            tool('ask', (_args, context) => run(context)),
            tool('other', (_args, context) => run(context)),
        ],
        prompts: [
            {
                name: 'brief',
                handler: async (_args, {elicit}) => {
                    const answer = await elicit(NAME, {key: 'user_context'});
                    return {
                        messages: [
                            {role: 'user', content: {type: 'text', text: `For ${answer.content?.name}`}},
                        ],
                    };
                },
                complete: {
                    topic: async (_value, {elicit}) => {
                        try {
                            await elicit(NAME);
                            return ['asked'];
                        } catch (error) {
                            return [(error as McpAskError).code];
                        }
                    },
                },
                arguments: [{name: 'topic'}],
            },
        ],
        resources: [
            {
                uri: 'ask://r',
                name: 'r',
                handler: async ({uri}, {elicit}) => ({contents: [{uri, text: (await elicit(NAME)).action}]}),
            },
        ],
        ...extra,
    });
}

/** The parts of an answer these tests read. */
interface Answer {
    result: {
        resultType: string;
        inputRequests: Record<string, unknown>;
        requestState: string;
        content: [{text: string}];
        contents: [{text: string}];
    };
    error: {code: number; message: string};
}

let nextId = 1;

/** Sends a modern request and returns its answer, parsed. */
async function send(
    h: Harness,
    method: string,
    params: object,
    meta: object = META,
): Promise<{id: number; line: string; body: Answer}> {
    const id = nextId++;
    const before = h.output.lineCount;
    h.send({jsonrpc: '2.0', id, method, params: {...params, _meta: meta}});
    await h.output.waitForLines(before + 1);
    const line = h.output.text.split('\n')[before] as string;
    return {id, line, body: JSON.parse(line) as Answer};
}

const accept = (content: object) => ({action: 'accept', content});

describe('asking under 2026-07-28', () => {
    test('a question ends the run: input_required with the question and a sealed state; the retry completes', async () => {
        const seen: Seen = {runs: 0, reasons: []};
        const h = server(
            async ({elicit}) => `Hello, ${(await elicit(NAME, {key: 'user_name'})).content?.name}!`,
            seen,
        );
        const first = await send(h, 'tools/call', {name: 'ask', arguments: {}});
        const state = first.body.result.requestState as string;
        assert.match(state, STATE);
        assert.equal(
            first.line,
            JSON.stringify({
                jsonrpc: '2.0',
                id: first.id,
                result: {
                    resultType: 'input_required',
                    inputRequests: {user_name: NAME_REQUEST},
                    requestState: state,
                },
            }),
        );
        assert.equal(seen.reasons.length, 1);
        assert.ok(seen.reasons[0] instanceof McpAskError);
        assert.equal((seen.reasons[0] as McpAskError).code, 'input-required');
        const second = await send(h, 'tools/call', {
            name: 'ask',
            arguments: {},
            inputResponses: {user_name: accept({name: 'Ada'})},
            requestState: state,
        });
        assert.equal(
            second.line,
            `{"jsonrpc":"2.0","id":${second.id},"result":{"resultType":"complete",${IDENTITY},"content":[{"type":"text","text":"Hello, Ada!"}]}}`,
        );
        assert.equal(seen.runs, 2);
        h.input.push(null);
        await h.server.closed;
    });

    test('two rounds: the second state records the first answer, and the handler runs three times', async () => {
        const seen: Seen = {runs: 0, reasons: []};
        const h = server(async ({elicit}) => {
            const name = await elicit(NAME);
            const color = await elicit(COLOR);
            return `${name.content?.name} likes ${color.content?.color}`;
        }, seen);
        const r1 = await send(h, 'tools/call', {name: 'ask'});
        assert.deepEqual(r1.body.result.inputRequests, {'elicitation-1': NAME_REQUEST});
        const r2 = await send(h, 'tools/call', {
            name: 'ask',
            inputResponses: {'elicitation-1': accept({name: 'Ada'})},
            requestState: r1.body.result.requestState,
        });
        assert.deepEqual(r2.body.result.inputRequests, {
            'elicitation-2': {method: 'elicitation/create', params: COLOR},
        });
        assert.notEqual(r2.body.result.requestState, r1.body.result.requestState);
        // The first answer comes from the state: this retry carries only the second one.
        const r3 = await send(h, 'tools/call', {
            name: 'ask',
            inputResponses: {'elicitation-2': accept({color: 'blue'})},
            requestState: r2.body.result.requestState,
        });
        assert.equal(r3.body.result.content[0].text, 'Ada likes blue');
        assert.equal(seen.runs, 3);
        h.input.push(null);
        await h.server.closed;
    });

    test('questions asked together (Promise.all) share one round', async () => {
        const h = server(async ({elicit, createMessage, listRoots}) => {
            const [name, message, roots] = await Promise.all([
                elicit(NAME),
                createMessage({
                    messages: [{role: 'user', content: {type: 'text', text: 'Hi'}}],
                    maxTokens: 9,
                }),
                listRoots({key: 'client_roots'}),
            ]);
            return `${name.action} ${message.model} ${roots.roots.length}`;
        });
        const r1 = await send(h, 'tools/call', {name: 'ask'});
        assert.deepEqual(Object.keys(r1.body.result.inputRequests), [
            'elicitation-1',
            'sampling-2',
            'client_roots',
        ]);
        assert.deepEqual(r1.body.result.inputRequests.client_roots, {method: 'roots/list', params: {}});
        const r2 = await send(h, 'tools/call', {
            name: 'ask',
            inputResponses: {
                'elicitation-1': {action: 'decline'},
                'sampling-2': {role: 'assistant', content: {type: 'text', text: 'Hey'}, model: 'm1'},
                client_roots: {roots: []},
            },
            requestState: r1.body.result.requestState,
        });
        assert.equal(r2.body.result.content[0].text, 'decline m1 0');
        h.input.push(null);
        await h.server.closed;
    });

    test('a retry missing its response is asked again; extra responses are ignored', async () => {
        const h = server(async ({elicit}) => (await elicit(NAME, {key: 'user_name'})).action);
        const r1 = await send(h, 'tools/call', {name: 'ask'});
        const missing = await send(h, 'tools/call', {
            name: 'ask',
            inputResponses: {wrong_key: accept({})},
            requestState: r1.body.result.requestState,
        });
        assert.equal(missing.body.result.resultType, 'input_required');
        assert.deepEqual(missing.body.result.inputRequests, {user_name: NAME_REQUEST});
        const extra = await send(h, 'tools/call', {
            name: 'ask',
            inputResponses: {user_name: accept({name: 'A'}), unknown: {action: 'accept', content: {x: 1}}},
        });
        assert.equal(extra.body.result.content[0].text, 'accept');
        h.input.push(null);
        await h.server.closed;
    });

    test('tampered, expired and replayed state is refused with -32602, the handler never running', async () => {
        const seen: Seen = {runs: 0, reasons: []};
        const h = server(async ({elicit}) => (await elicit(NAME)).action, seen);
        const r1 = await send(h, 'tools/call', {name: 'ask', arguments: {a: 1}});
        const state = r1.body.result.requestState as string;
        const refusal = (id: number, method: string, why: string) =>
            `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"${method} \\"params.requestState\\" was rejected: ${why}; send the request again without requestState and inputResponses to start over"}}`;
        const answers = {'elicitation-1': accept({})};
        const tampered = await send(h, 'tools/call', {
            name: 'ask',
            arguments: {a: 1},
            inputResponses: answers,
            requestState: `${state}-TAMPERED`,
        });
        assert.equal(
            tampered.line,
            refusal(
                tampered.id,
                'tools/call',
                'it failed its integrity check (it was not issued by this server, or it was changed)',
            ),
        );
        const otherParams = await send(h, 'tools/call', {
            name: 'ask',
            arguments: {a: 2},
            inputResponses: answers,
            requestState: state,
        });
        assert.equal(
            otherParams.line,
            refusal(otherParams.id, 'tools/call', 'it was issued for a request with other params'),
        );
        const otherTool = await send(h, 'tools/call', {
            name: 'other',
            arguments: {a: 1},
            requestState: state,
        });
        assert.equal(
            otherTool.line,
            refusal(otherTool.id, 'tools/call', 'it was issued for a request with other params'),
        );
        const otherMethod = await send(h, 'resources/read', {uri: 'ask://r', requestState: state});
        assert.equal(
            otherMethod.line,
            refusal(
                otherMethod.id,
                'resources/read',
                'it was issued for a tools/call request, not for resources/read',
            ),
        );
        const realNow = stateClock.now;
        stateClock.now = () => realNow() + 600_001;
        try {
            const expired = await send(h, 'tools/call', {
                name: 'ask',
                arguments: {a: 1},
                inputResponses: answers,
                requestState: state,
            });
            assert.equal(expired.line, refusal(expired.id, 'tools/call', 'it has expired'));
        } finally {
            stateClock.now = realNow;
        }
        assert.equal(seen.runs, 1);
        const good = await send(h, 'tools/call', {
            name: 'ask',
            arguments: {a: 1},
            inputResponses: answers,
            requestState: state,
        });
        assert.equal(good.body.result.content[0].text, 'accept');
        h.input.push(null);
        await h.server.closed;
    });

    test("a state issued by a server with another key is refused; servers sharing a key accept each other's", async () => {
        const key = 'k'.repeat(32);
        const ask = async ({elicit}: HandlerContext<'tools/call'>) => (await elicit(NAME)).action;
        const a = server(ask, undefined, {asking: {requestStateKey: key}});
        const b = server(ask, undefined, {asking: {requestStateKey: key}});
        const c = server(ask);
        const r1 = await send(a, 'tools/call', {name: 'ask'});
        const retry = {
            name: 'ask',
            inputResponses: {'elicitation-1': accept({})},
            requestState: r1.body.result.requestState,
        };
        assert.equal((await send(b, 'tools/call', retry)).body.result.content[0].text, 'accept');
        assert.equal((await send(c, 'tools/call', retry)).body.error.code, -32602);
        for (const h of [a, b, c]) {
            h.input.push(null);
            await h.server.closed;
        }
    });

    test('malformed inputResponses and requestState are refused with -32602', async () => {
        const h = server(async ({elicit}) => (await elicit(NAME)).action);
        const asNumber = await send(h, 'tools/call', {name: 'ask', inputResponses: {'elicitation-1': 12345}});
        assert.equal(
            asNumber.line,
            `{"jsonrpc":"2.0","id":${asNumber.id},"error":{"code":-32602,"message":"tools/call \\"params.inputResponses\\" has number 12345 for \\"elicitation-1\\": each answer must be a result object"}}`,
        );
        const asNull = await send(h, 'tools/call', {name: 'ask', inputResponses: null});
        assert.equal(
            asNull.line,
            `{"jsonrpc":"2.0","id":${asNull.id},"error":{"code":-32602,"message":"tools/call \\"params.inputResponses\\" must be an object of answers by key, got null"}}`,
        );
        const stateNumber = await send(h, 'tools/call', {name: 'ask', requestState: 5});
        assert.equal(
            stateNumber.body.error.message,
            'tools/call "params.requestState" must be the string this server issued, got number 5',
        );
        // An answer of the wrong shape is no answer: the question is asked again.
        const wrongShape = await send(h, 'tools/call', {
            name: 'ask',
            inputResponses: {'elicitation-1': {action: 'maybe'}},
        });
        assert.equal(wrongShape.body.result.resultType, 'input_required');
        h.input.push(null);
        await h.server.closed;
    });

    test('a capability the request did not declare: the handler sees the error, nothing is asked', async () => {
        const h = server(async ({elicit, createMessage}) => {
            const [form, message] = await Promise.allSettled([
                elicit(NAME),
                createMessage({messages: [], maxTokens: 1}),
            ]);
            return `${(form as PromiseRejectedResult).reason.code} ${message.status}`;
        });
        const meta = {...META, 'io.modelcontextprotocol/clientCapabilities': {sampling: {}}};
        const r1 = await send(h, 'tools/call', {name: 'ask'}, meta);
        assert.deepEqual(r1.body.result.inputRequests, {
            'sampling-1': {method: 'sampling/createMessage', params: {messages: [], maxTokens: 1}},
        });
        const r2 = await send(
            h,
            'tools/call',
            {
                name: 'ask',
                inputResponses: {
                    'sampling-1': {role: 'assistant', content: {type: 'text', text: ''}, model: 'm'},
                },
                requestState: r1.body.result.requestState,
            },
            meta,
        );
        assert.equal(r2.body.result.content[0].text, 'unsupported-capability fulfilled');
        h.input.push(null);
        await h.server.closed;
    });

    test('a prompt can ask; a completion cannot', async () => {
        const h = server(async () => '');
        const r1 = await send(h, 'prompts/get', {name: 'brief'});
        assert.deepEqual(r1.body.result.inputRequests, {user_context: NAME_REQUEST});
        const r2 = await send(h, 'prompts/get', {
            name: 'brief',
            inputResponses: {user_context: accept({name: 'Ada'})},
            requestState: r1.body.result.requestState,
        });
        assert.deepEqual((r2.body.result as unknown as {messages: unknown}).messages, [
            {role: 'user', content: {type: 'text', text: 'For Ada'}},
        ]);
        const completed = await send(h, 'completion/complete', {
            ref: {type: 'ref/prompt', name: 'brief'},
            argument: {name: 'topic', value: ''},
        });
        assert.deepEqual(
            (completed.body.result as unknown as {completion: {values: unknown}}).completion.values,
            ['unsupported-method'],
        );
        h.input.push(null);
        await h.server.closed;
    });

    test('a resource read can ask too', async () => {
        const h = server(async () => '');
        const r1 = await send(h, 'resources/read', {uri: 'ask://r'});
        assert.deepEqual(r1.body.result.inputRequests, {'elicitation-1': NAME_REQUEST});
        const r2 = await send(h, 'resources/read', {
            uri: 'ask://r',
            inputResponses: {'elicitation-1': {action: 'cancel'}},
            requestState: r1.body.result.requestState,
        });
        assert.equal(r2.body.result.contents[0].text, 'cancel');
        h.input.push(null);
        await h.server.closed;
    });

    test('a call cancelled while its question is open is answered with nothing', async () => {
        const seen: Seen = {runs: 0, reasons: []};
        const h = server(async ({elicit}) => (await elicit(NAME)).action, seen);
        const id = nextId++;
        const request = {jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'ask', _meta: META}};
        const cancel = {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: {requestId: id, reason: 'stop'},
        };
        // Both in one chunk: the cancellation is read in the turn the question was asked.
        h.sendRaw(`${JSON.stringify(request)}\n${JSON.stringify(cancel)}\n`);
        await h.server.drain();
        const after = await send(h, 'server/discover', {});
        assert.equal(h.output.text.split('\n')[0], after.line);
        assert.deepEqual(seen.reasons, ['stop']);
        h.input.push(null);
        await h.server.closed;
    });

    test('the legacy era ignores inputResponses and requestState', async () => {
        const h = server(async ({clientCapabilities}) => JSON.stringify(clientCapabilities));
        await h.initialize();
        h.send({
            jsonrpc: '2.0',
            id: 'x',
            method: 'tools/call',
            params: {name: 'ask', requestState: 'junk', inputResponses: 3},
        });
        const [, answer] = await h.records(2);
        assert.deepEqual(answer, {jsonrpc: '2.0', id: 'x', result: text('{}')});
        h.input.push(null);
        await h.server.closed;
    });
});

describe('the keys of a run', () => {
    test('one key asked twice for the same question shares it; for another question it throws', async () => {
        const h = server(async ({elicit}) => {
            const [first, again] = await Promise.all([elicit(NAME, {key: 'k'}), elicit(NAME, {key: 'k'})]);
            let other = '';
            try {
                await elicit(COLOR, {key: 'k'});
            } catch (error) {
                other = `${(error as Error).name}: ${(error as Error).message}`;
            }
            const replayed = await elicit(NAME, {key: 'k'});
            return `${first.action} ${again.action} ${replayed.action} | ${other}`;
        });
        const r1 = await send(h, 'tools/call', {name: 'ask'});
        assert.deepEqual(Object.keys(r1.body.result.inputRequests), ['k']);
        const r2 = await send(h, 'tools/call', {
            name: 'ask',
            inputResponses: {k: {action: 'decline'}},
            requestState: r1.body.result.requestState,
        });
        assert.equal(
            r2.body.result.content[0].text,
            'decline decline decline | TypeError: The question key "k" was already used for another question in this request',
        );
        h.input.push(null);
        await h.server.closed;
    });

    test('a question asked after the run ended, or after the handler returned, rejects', async () => {
        const late: unknown[] = [];
        let ask: (() => Promise<unknown>) | undefined;
        const h = server(async ({elicit, signal}) => {
            ask = () => elicit(COLOR);
            await elicit(NAME).catch(() => undefined);
            // The run ended with the round: a later question is refused with the same reason.
            late.push(await elicit(COLOR).catch((error: McpAskError) => error.code));
            late.push(signal.aborted);
            return '';
        });
        const r1 = await send(h, 'tools/call', {name: 'ask'});
        assert.equal(r1.body.result.resultType, 'input_required');
        await h.server.drain();
        assert.deepEqual(late, ['input-required', true]);
        const done = server(async (context) => {
            ask = () => context.elicit(NAME);
            return 'done';
        });
        await send(done, 'tools/call', {name: 'ask'});
        await assert.rejects((ask as () => Promise<unknown>)(), {
            name: 'McpAskError',
            code: 'request-answered',
        });
        for (const each of [h, done]) {
            each.input.push(null);
            await each.server.closed;
        }
    });
});
