/**
 * Asking the client in the legacy era, on the raw wire: each question is a request of the server's
 * own, answered, refused, cancelled, timed out or cut short by the session's end.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {ElicitFormRequest, HandlerContext, McpStdioServerOptions} from '../../../lib/mcp/stdio/index.js';
import {McpAnswerError, McpAskError} from '../../../lib/mcp/stdio/index.js';
import {deferred} from '../../helpers/deferred.js';
import {text, tool} from '../../helpers/session.js';
import type {Harness} from '../../helpers/streams.js';
import {harness} from '../../helpers/streams.js';

const FORM: ElicitFormRequest = {
    message: 'Delete everything?',
    requestedSchema: {type: 'object', properties: {ok: {type: 'boolean'}}, required: ['ok']},
};
const ELICIT_LINE =
    '{"jsonrpc":"2.0","id":"arcane-os:1","method":"elicitation/create","params":' +
    '{"message":"Delete everything?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}';

/** What a handler saw: the answer, or the error's name, code and message. */
function outcome(error: unknown): string {
    if (error instanceof McpAskError || error instanceof McpAnswerError) {
        return `${error.name} ${String(error.code)}: ${error.message}`;
    }
    return `other: ${String(error)}`;
}

function server(
    handler: (context: HandlerContext<'tools/call'>) => Promise<string>,
    extra: Partial<McpStdioServerOptions> = {},
): Harness {
    return harness({
        serverInfo: {name: 'ask', version: '1.0.0'},
        tools: [
            tool('ask', async (_args, context) => {
                try {
                    return text(await handler(context));
                } catch (error) {
                    return text(outcome(error));
                }
            }),
        ],
        ...extra,
    });
}

const CAPABLE = {
    protocolVersion: '2025-11-25',
    capabilities: {elicitation: {}, sampling: {}, roots: {}},
    clientInfo: {name: 'c', version: '1'},
};

function lines(h: Harness): string[] {
    return h.output.text.split('\n').filter((line) => line !== '');
}

const cursors = new WeakMap<Harness, number>();

/** The next line this test has not read yet (the initialize response counts as read). */
async function nextLine(h: Harness): Promise<string> {
    const at = cursors.get(h) ?? 1;
    cursors.set(h, at + 1);
    await h.output.waitForLines(at + 1);
    return lines(h)[at] as string;
}

async function lineAt(h: Harness, index: number): Promise<string> {
    await h.output.waitForLines(index + 1);
    return lines(h)[index] as string;
}

function result(id: number, value: string): string {
    return JSON.stringify({jsonrpc: '2.0', id, result: text(value)});
}

describe('asking in the legacy era', () => {
    test('elicit sends elicitation/create with an id of the server, and the answer resolves it', async () => {
        const h = server(async ({elicit}) => JSON.stringify(await elicit(FORM)));
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        assert.equal(await nextLine(h), ELICIT_LINE);
        h.send({jsonrpc: '2.0', id: 'arcane-os:1', result: {action: 'accept', content: {ok: true}}});
        assert.equal(await nextLine(h), result(1, '{"action":"accept","content":{"ok":true}}'));
        h.input.push(null);
        await h.server.closed;
    });

    test('createMessage and listRoots asked together go out at once, each answered by its id', async () => {
        const h = server(async ({createMessage, listRoots}) => {
            const [message, roots] = await Promise.all([
                createMessage({
                    messages: [{role: 'user', content: {type: 'text', text: 'Hi'}}],
                    maxTokens: 5,
                }),
                listRoots(),
            ]);
            return `${JSON.stringify(message.content)} ${roots.roots.length}`;
        });
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        await h.output.waitForLines(3);
        assert.deepEqual(lines(h).slice(1), [
            '{"jsonrpc":"2.0","id":"arcane-os:1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":5}}',
            '{"jsonrpc":"2.0","id":"arcane-os:2","method":"roots/list","params":{}}',
        ]);
        h.send({jsonrpc: '2.0', id: 'arcane-os:2', result: {roots: [{uri: 'file:///a'}]}});
        h.send({
            jsonrpc: '2.0',
            id: 'arcane-os:1',
            result: {role: 'assistant', content: {type: 'text', text: 'Hello'}, model: 'm'},
        });
        assert.equal(await lineAt(h, 3), result(1, '{"type":"text","text":"Hello"} 1'));
        h.input.push(null);
        await h.server.closed;
    });

    test('a capability the client did not declare rejects before anything is written', async () => {
        const h = server(async ({elicit}) => JSON.stringify(await elicit(FORM)));
        await h.initialize();
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        assert.equal(
            await nextLine(h),
            result(
                1,
                'McpAskError unsupported-capability: The client declared no "elicitation" capability, so elicitation/create was not sent; check context.clientCapabilities before asking',
            ),
        );
        assert.equal(lines(h).length, 2);
        h.input.push(null);
        await h.server.closed;
    });

    test('url mode needs the url capability', async () => {
        const h = server(async ({elicit}) =>
            JSON.stringify(
                await elicit({mode: 'url', message: 'Sign in', url: 'https://x.test/', elicitationId: 'e1'}),
            ),
        );
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        assert.equal(
            await nextLine(h),
            result(
                1,
                'McpAskError unsupported-capability: The client declared no "elicitation.url" capability, so elicitation/create was not sent; check context.clientCapabilities before asking',
            ),
        );
        h.input.push(null);
        await h.server.closed;
    });

    test('an error response reaches the handler as an McpAnswerError with its code and data', async () => {
        const h = server(async ({elicit}) => JSON.stringify(await elicit(FORM)));
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        await nextLine(h);
        h.send({jsonrpc: '2.0', id: 'arcane-os:1', error: {code: -32601, message: 'No forms here', data: 7}});
        assert.equal(
            await nextLine(h),
            result(
                1,
                'McpAnswerError -32601: The client answered elicitation/create with error -32601: No forms here',
            ),
        );
        h.input.push(null);
        await h.server.closed;
    });

    test('an answer of the wrong shape rejects with invalid-response', async () => {
        const h = server(async ({elicit}) => JSON.stringify(await elicit(FORM)));
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        await nextLine(h);
        h.send({jsonrpc: '2.0', id: 'arcane-os:1', result: {action: 'maybe'}});
        assert.equal(
            await nextLine(h),
            result(
                1,
                'McpAskError invalid-response: The client\'s answer to elicitation/create is not valid: its "action" is not "accept", "decline" or "cancel"',
            ),
        );
        h.input.push(null);
        await h.server.closed;
    });

    test('cancelling the call cancels its question and answers nothing', async () => {
        const seen = deferred<unknown>();
        const h = server(async ({elicit}) => {
            try {
                return JSON.stringify(await elicit(FORM));
            } catch (error) {
                seen.resolve(error);
                throw error;
            }
        });
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        await nextLine(h);
        h.send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: {requestId: 1, reason: 'User stopped'},
        });
        assert.equal(
            await nextLine(h),
            '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"arcane-os:1","reason":"User stopped"}}',
        );
        assert.equal(await seen.promise, 'User stopped');
        await h.server.drain();
        // A late answer to the cancelled question is no one's: told on the diagnostics, not answered.
        h.send({jsonrpc: '2.0', id: 1, method: 'ping'});
        assert.equal(await nextLine(h), '{"jsonrpc":"2.0","id":1,"result":{}}');
        assert.equal(lines(h).length, 4);
        h.input.push(null);
        await h.server.closed;
    });

    test('a client that never answers: the timeout rejects and the client is told', async () => {
        const h = server(async ({elicit}) => JSON.stringify(await elicit(FORM)), {asking: {timeoutMs: 1}});
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        await h.output.waitForLines(4);
        assert.deepEqual(lines(h).slice(1), [
            ELICIT_LINE,
            '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"arcane-os:1","reason":"No answer within 1 ms"}}',
            result(
                1,
                'McpAskError timeout: The client did not answer elicitation/create within 1 ms; it was told to stop',
            ),
        ]);
        h.input.push(null);
        await h.server.closed;
    });

    test('the session ending rejects a waiting question with session-closed', async () => {
        const h = server(async ({elicit}) => JSON.stringify(await elicit(FORM)));
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        await nextLine(h);
        h.input.push(null);
        await h.server.closed;
        assert.equal(
            lines(h)[2],
            result(1, 'McpAskError session-closed: The MCP session ended before the client answered'),
        );
    });

    test('close({cancelPending}) cancels the question with the close reason', async () => {
        const h = server(async ({elicit}) => JSON.stringify(await elicit(FORM)));
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        await nextLine(h);
        await h.server.close({cancelPending: true});
        assert.deepEqual(lines(h).slice(2), [
            '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"arcane-os:1","reason":"The MCP session was closed with cancelPending: true"}}',
        ]);
    });

    test('progress still flows while a question is open', async () => {
        const h = server(async ({elicit, reportProgress}) => {
            const answer = elicit(FORM);
            const sent = reportProgress({progress: 1, message: 'asked'});
            return `${sent} ${(await answer).action}`;
        });
        await h.initialize(CAPABLE);
        h.send({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {name: 'ask', _meta: {progressToken: 'p'}},
        });
        await h.output.waitForLines(3);
        assert.deepEqual(lines(h).slice(1), [
            ELICIT_LINE,
            '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"message":"asked"}}',
        ]);
        h.send({jsonrpc: '2.0', id: 'arcane-os:1', result: {action: 'decline'}});
        assert.equal(await lineAt(h, 3), result(1, 'true decline'));
        h.input.push(null);
        await h.server.closed;
    });

    test('a malformed question throws a TypeError at the call site', async () => {
        const h = server(async ({elicit}) => {
            try {
                await elicit({message: 'x'} as never);
                return 'sent';
            } catch (error) {
                return `${(error as Error).name}: ${(error as Error).message}`;
            }
        });
        await h.initialize(CAPABLE);
        h.send({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'ask'}});
        assert.equal(
            await nextLine(h),
            result(
                1,
                'TypeError: context.elicit(request): a form needs "requestedSchema", an object schema {type: "object", properties: {...}}, got undefined',
            ),
        );
        h.input.push(null);
        await h.server.closed;
    });
});
