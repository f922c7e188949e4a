/**
 * Answering the server over stdio, against the raw fake server: the capabilities the handlers
 * declare, legacy server requests answered (or refused as before), and the modern era's input
 * rounds with their new ids, answers and exact `requestState`.
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import type {ServerRequestHandlers} from '../../../lib/mcp/client/index.js';
import {McpClientError, McpProtocolViolationError} from '../../../lib/mcp/client/index.js';
import type {Action} from './fixtures/fake-server.js';
import {closeAll, connectFake, GUARD} from './support.js';

afterEach(closeAll);

const FORM = {
    message: 'Who are you?',
    requestedSchema: {
        type: 'object',
        properties: {
            name: {type: 'string', default: 'Ada'},
            age: {type: 'integer', default: 36},
            note: {type: 'string'},
        },
    },
};

/** A tools/call that first sends the server's request `request`, then answers the call. */
function asking(request: object): Record<string, Action[]> {
    return {
        'tools/call': [{send: [{jsonrpc: '2.0', id: 'q1', ...request}], andThen: {result: {content: []}}}],
    };
}

const ALL: ServerRequestHandlers = {
    elicitation: {
        form: () => ({action: 'accept', content: {note: 'given'}}),
        url: (params) => ({action: params.url === 'https://example.com/x' ? 'accept' : 'decline'}),
    },
    sampling: () => ({role: 'assistant', content: {type: 'text', text: 'Paris'}, model: 'm'}),
    roots: () => ({roots: [{uri: 'file:///w', name: 'w'}]}),
};

test('the client declares exactly the capabilities it was given handlers for', GUARD, async () => {
    for (const [handlers, capabilities] of [
        [ALL, '{"elicitation":{"form":{},"url":{}},"sampling":{},"roots":{}}'],
        [{elicitation: {url: () => ({action: 'cancel'})}}, '{"elicitation":{"url":{}}}'],
        [{roots: () => ({roots: []})}, '{"roots":{}}'],
        [{}, '{}'],
    ] as const) {
        const {client, wire} = await connectFake({}, {handlers});
        const [initialize] = await wire.receivedCount(1);
        assert.ok(initialize?.includes(`"capabilities":${capabilities},`), initialize);
        await client.close();
    }
});

for (const [what, request, answer] of [
    [
        'a form elicitation, completed with the schema defaults',
        {method: 'elicitation/create', params: FORM},
        '{"action":"accept","content":{"note":"given","name":"Ada","age":36}}',
    ],
    [
        'a url elicitation',
        {
            method: 'elicitation/create',
            params: {mode: 'url', message: 'Sign in', url: 'https://example.com/x', elicitationId: 'e'},
        },
        '{"action":"accept"}',
    ],
    [
        'a sampling request',
        {method: 'sampling/createMessage', params: {messages: [], maxTokens: 5}},
        '{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"}',
    ],
    ['a roots request', {method: 'roots/list'}, '{"roots":[{"uri":"file:///w","name":"w"}]}'],
] as const) {
    test(`a legacy server's request is answered with its handler: ${what}`, GUARD, async () => {
        const {client, wire} = await connectFake({script: asking(request)}, {handlers: ALL});
        await client.callTool('ask', {});
        assert.equal(await wire.receivedLine('"id":"q1"'), `{"jsonrpc":"2.0","id":"q1","result":${answer}}`);
        await client.close();
    });
}

test('a request without a handler is refused with -32601, as before', GUARD, async () => {
    const {client, wire} = await connectFake(
        {script: asking({method: 'sampling/createMessage', params: {}})},
        {handlers: {roots: () => ({roots: []})}},
    );
    await client.callTool('ask', {});
    assert.equal(
        await wire.receivedLine('"id":"q1"'),
        '{"jsonrpc":"2.0","id":"q1","error":{"code":-32601,"message":"This client does not serve sampling/createMessage"}}',
    );
    await client.close();
});

test('a handler that throws answers -32603 with what it threw; the session goes on', GUARD, async () => {
    const {client, wire} = await connectFake(
        {script: asking({method: 'roots/list'})},
        {
            handlers: {
                roots: () => {
                    throw new Error('no workspace open');
                },
            },
        },
    );
    await client.callTool('ask', {});
    assert.equal(
        await wire.receivedLine('"id":"q1"'),
        '{"jsonrpc":"2.0","id":"q1","error":{"code":-32603,"message":"The client\'s handler for roots/list failed: no workspace open"}}',
    );
    await client.callTool('again', {});
    await client.close();
});

test('a handler that returns no object answers -32603 saying so', GUARD, async () => {
    const {client, wire} = await connectFake(
        {script: asking({method: 'roots/list'})},
        {handlers: {roots: (() => 'x') as never}},
    );
    await client.callTool('ask', {});
    assert.equal(
        await wire.receivedLine('"id":"q1"'),
        '{"jsonrpc":"2.0","id":"q1","error":{"code":-32603,"message":"The client\'s handler for roots/list failed: the handler returned the string \\"x\\", not a result object"}}',
    );
    await client.close();
});

const DISCOVERY = {resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {tools: {}}};
const ENVELOPE =
    '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' +
    '"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},' +
    '"io.modelcontextprotocol/clientInfo":{"name":"arcane-os","version":"0.1.0"}}';
const INPUT = {
    resultType: 'input_required',
    inputRequests: {who: {method: 'elicitation/create', params: FORM}},
    requestState: 'opaque+state/==',
};
const DONE = {resultType: 'complete', content: [{type: 'text', text: 'done'}]};
const FORM_ONLY = {elicitation: {form: () => ({action: 'accept', content: {}})}};

function modern(calls: Action[]) {
    return {script: {'server/discover': [{result: DISCOVERY}], 'tools/call': calls}};
}

test(
    'an input_required result is fulfilled and the call sent again: new id, answers, exact state',
    GUARD,
    async () => {
        const {client, wire} = await connectFake(modern([{result: INPUT}, {result: DONE}]), {
            versionNegotiation: '2026-07-28',
            handlers: FORM_ONLY,
        });
        assert.deepEqual(await client.callTool('book', {day: 1}), DONE);
        const lines = await wire.receivedCount(3);
        assert.deepEqual(lines.slice(1), [
            `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book","arguments":{"day":1},${ENVELOPE}}}`,
            '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"book","arguments":{"day":1},' +
                `"inputResponses":{"who":{"action":"accept","content":{"name":"Ada","age":36}}},"requestState":"opaque+state/==",${ENVELOPE}}}`,
        ]);
        await client.close();
    },
);

test(
    'a round without requestState sends none; one without inputRequests sends no answers',
    GUARD,
    async () => {
        const {requestState: _state, ...stateless} = INPUT;
        const {client, wire} = await connectFake(
            modern([
                {result: stateless},
                {result: {resultType: 'input_required', requestState: 's2'}},
                {result: DONE},
            ]),
            {versionNegotiation: '2026-07-28', handlers: FORM_ONLY},
        );
        await client.callTool('book', {});
        const lines = await wire.receivedCount(4);
        assert.deepEqual(lines.slice(2), [
            '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"book","arguments":{},' +
                `"inputResponses":{"who":{"action":"accept","content":{"name":"Ada","age":36}}},${ENVELOPE}}}`,
            `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"book","arguments":{},"requestState":"s2",${ENVELOPE}}}`,
        ]);
        await client.close();
    },
);

test('the rounds stop at maxInputRounds', GUARD, async () => {
    const {client} = await connectFake(modern([{result: INPUT}]), {
        versionNegotiation: '2026-07-28',
        handlers: FORM_ONLY,
        maxInputRounds: 2,
    });
    await assert.rejects(client.callTool('book', {}), (error: unknown) => {
        assert.ok(error instanceof McpClientError);
        assert.equal(
            error.message,
            'The MCP server still asked for input after 2 rounds of tools/call; raise maxInputRounds if it needs more',
        );
        return true;
    });
    await client.close();
});

test('an input request the client declared nothing for fails the call', GUARD, async () => {
    const asked = {
        resultType: 'input_required',
        inputRequests: {s: {method: 'sampling/createMessage', params: {}}},
    };
    const {client} = await connectFake(modern([{result: asked}]), {
        versionNegotiation: '2026-07-28',
        handlers: FORM_ONLY,
    });
    await assert.rejects(client.callTool('book', {}), (error: unknown) => {
        assert.ok(error instanceof McpProtocolViolationError);
        assert.equal(
            error.message,
            'The MCP server asked, in answer to tools/call, for "s" by sampling/createMessage, which this client declared no capability for',
        );
        return true;
    });
    await client.close();
});

test('a result without resultType is complete', GUARD, async () => {
    const {client} = await connectFake(modern([{result: {content: []}}]), {versionNegotiation: '2026-07-28'});
    assert.deepEqual(await client.callTool('plain', {}), {content: []});
    await client.close();
});
