/**
 * `completion/complete` on the raw wire, both eras: prompt arguments and template variables, the
 * completer's input and context, the cut at 100 values, and every refusal.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {CompletionContext, McpPrompt, McpResourceTemplate} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {
    end,
    errorLine,
    HEAD,
    LIST_TAIL,
    legacy,
    modern,
    modernLine,
    resultLine,
    serve,
} from '../../helpers/wire.js';

const LANGUAGES = ['python', 'pytorch', 'perl', 'rust'];
const calls: {value: string; context: CompletionContext}[] = [];

const handler = () => ({messages: []});
const PROMPT: McpPrompt = {
    name: 'review',
    arguments: [{name: 'language'}, {name: 'framework'}, {name: 'plain'}],
    complete: {
        language: (value, context) => {
            calls.push({value, context});
            return LANGUAGES.filter((language) => language.startsWith(value));
        },
        framework: async (_value, context) => (context.arguments.language === 'python' ? ['flask'] : []),
    },
    handler,
};
const TEMPLATE: McpResourceTemplate = {
    uriTemplate: 'repo://{owner}/{name}',
    name: 'repo',
    complete: {
        owner: () => Array.from({length: 150}, (_, index) => `user${index}`),
        name: () => Array.from({length: 100}, (_, index) => `repo${index}`),
    },
    handler: ({uri}) => ({contents: [{uri, text: ''}]}),
};

const server = () => serve({prompts: [PROMPT], resourceTemplates: [TEMPLATE]});
const promptRef = {type: 'ref/prompt', name: 'review'};
const templateRef = {type: 'ref/resource', uri: 'repo://{owner}/{name}'};

describe('completion/complete', () => {
    test('legacy: a prompt argument, the completer given the partial value and the chosen arguments', async () => {
        calls.length = 0;
        const h = server();
        await h.initialize();
        const params = {
            ref: promptRef,
            argument: {name: 'language', value: 'py'},
            context: {arguments: {plain: 'x'}},
        };
        assert.equal(
            await legacy(h, 1, 'completion/complete', params),
            resultLine(1, {completion: {values: ['python', 'pytorch']}}),
        );
        const [call] = calls;
        assert.ok(call !== undefined);
        assert.equal(call.value, 'py');
        assert.deepEqual(call.context.arguments, {plain: 'x'});
        assert.equal(Object.isFrozen(call.context.arguments), true);
        assert.equal(call.context.method, 'completion/complete');
        assert.deepEqual(call.context.params, params);
        assert.equal(typeof call.context.reportProgress, 'function');
        assert.ok(call.context.signal instanceof AbortSignal);
        assert.equal(
            await legacy(h, 2, 'completion/complete', {
                ref: promptRef,
                argument: {name: 'framework', value: 'fl'},
                context: {arguments: {language: 'python'}},
            }),
            resultLine(2, {completion: {values: ['flask']}}),
        );
        await end(h);
    });

    test('without params.context the arguments are empty', async () => {
        calls.length = 0;
        const h = server();
        await modern(h, 1, 'completion/complete', {ref: promptRef, argument: {name: 'language', value: ''}});
        assert.deepEqual(calls[0]?.context.arguments, {});
        await end(h);
    });

    test('2026-07-28: resultType and identity; a template variable; more than 100 values are cut', async () => {
        const h = server();
        const owners = Array.from({length: 100}, (_, index) => `user${index}`);
        assert.equal(
            await modern(h, 1, 'completion/complete', {
                ref: templateRef,
                argument: {name: 'owner', value: 'u'},
            }),
            modernLine(1, {completion: {values: owners, total: 150, hasMore: true}}),
        );
        const names = Array.from({length: 100}, (_, index) => `repo${index}`);
        assert.equal(
            await modern(h, 2, 'completion/complete', {
                ref: templateRef,
                argument: {name: 'name', value: ''},
            }),
            modernLine(2, {completion: {values: names}}),
        );
        await end(h);
    });

    test('a declared argument without a completer has no suggestions', async () => {
        const h = server();
        assert.equal(
            await modern(h, 1, 'completion/complete', {
                ref: promptRef,
                argument: {name: 'plain', value: 'a'},
            }),
            modernLine(1, {completion: {values: []}}),
        );
        await end(h);
    });

    for (const era of ['legacy', 'modern'] as const) {
        test(`${era}: an unknown ref or argument, and malformed params, are -32602`, async () => {
            const h = server();
            if (era === 'legacy') await h.initialize();
            const ask = (id: number, params: object) =>
                era === 'legacy'
                    ? legacy(h, id, 'completion/complete', params)
                    : modern(h, id, 'completion/complete', params);
            const argument = {name: 'language', value: ''};
            const refusals: [object, string][] = [
                [
                    {ref: {type: 'ref/prompt', name: 'nope'}, argument},
                    'completion/complete: unknown prompt "nope"',
                ],
                [
                    {ref: {type: 'ref/resource', uri: 'repo://x/y'}, argument},
                    'completion/complete: no resource template has the uriTemplate "repo://x/y"',
                ],
                [
                    {ref: promptRef, argument: {name: 'nope', value: ''}},
                    'completion/complete: prompt "review" has no argument "nope"',
                ],
                [
                    {ref: templateRef, argument},
                    'completion/complete: template "repo://{owner}/{name}" has no variable "language"',
                ],
                [
                    {ref: {type: 'ref/tool', name: 'x'}, argument},
                    'completion/complete needs "params.ref" to be {"type": "ref/prompt", "name"} or ' +
                        '{"type": "ref/resource", "uri"} with string values',
                ],
                [
                    {ref: promptRef, argument: {name: 'language'}},
                    'completion/complete needs "params.argument" with "name" and "value" strings',
                ],
                [
                    {ref: promptRef, argument, context: {arguments: {a: 1}}},
                    'completion/complete "params.context.arguments" must be an object of string values',
                ],
            ];
            for (const [index, [params, message]] of refusals.entries()) {
                assert.equal(await ask(index, params), errorLine(index, -32602, message));
            }
            await end(h);
        });
    }
});

describe('completer failures', () => {
    const failing = (complete: McpPrompt['complete']) =>
        serve({prompts: [{name: 'p', arguments: [{name: 'a'}], complete, handler}]});
    const internal = (id: number, problem: string) =>
        errorLine(
            id,
            -32603,
            `Internal error in completion/complete of argument "a" of prompt "p" (request id ${id}): ${problem}; ` +
                "the server's diagnostics have the details",
        );
    const ask = {ref: {type: 'ref/prompt', name: 'p'}, argument: {name: 'a', value: ''}};

    test('values that are not an array of strings are -32603 with a diagnostic', async () => {
        const h = failing({a: () => ['ok', 3] as never});
        assert.equal(
            await modern(h, 1, 'completion/complete', ask),
            internal(1, 'the completer must return an array of strings'),
        );
        assert.ok(
            h.errors.text.startsWith(
                '[arcane-os/mcp/stdio] The completion/complete of argument "a" of prompt "p" (request id 1) failed: ' +
                    'the completer must return an array of strings; answered -32603\n',
            ),
        );
        await end(h);
    });

    test('a throwing or rejecting completer is -32603', async () => {
        const h = failing({
            a: () => {
                throw new Error('no index');
            },
        });
        assert.equal(await modern(h, 1, 'completion/complete', ask), internal(1, 'the handler threw'));
        await end(h);
        const gate = new Gate();
        const later = failing({a: gate.handler as never});
        later.send({
            jsonrpc: '2.0',
            id: 2,
            method: 'completion/complete',
            params: {
                ...ask,
                _meta: {
                    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                    'io.modelcontextprotocol/clientCapabilities': {},
                },
            },
        });
        await gate.started(1);
        const answered = later.output.waitForLines(1);
        gate.call(0).done.reject(new Error('later'));
        await answered;
        assert.equal(later.output.text, `${internal(2, 'the handler threw')}\n`);
        await end(later);
    });
});

describe('the completions capability', () => {
    test('only when some completer exists: otherwise completion/complete is an unknown method', async () => {
        const h = serve({prompts: [{name: 'p', arguments: [{name: 'a'}], handler}]});
        assert.equal(
            await modern(h, 1, 'server/discover'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"supportedVersions":["2026-07-28","2025-11-25"],` +
                `"capabilities":{"prompts":{}}${LIST_TAIL}}`,
        );
        const params = {ref: {type: 'ref/prompt', name: 'p'}, argument: {name: 'a', value: ''}};
        assert.equal(
            await modern(h, 2, 'completion/complete', params),
            errorLine(2, -32601, 'Method not found: "completion/complete"'),
        );
        await h.initialize();
        assert.equal(
            await legacy(h, 3, 'completion/complete', params),
            errorLine(3, -32601, 'Method not found: "completion/complete"'),
        );
        await end(h);
    });

    test('a template completer alone advertises completions beside resources', async () => {
        const h = serve({resourceTemplates: [TEMPLATE]});
        assert.equal(
            await modern(h, 1, 'server/discover'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"supportedVersions":["2026-07-28","2025-11-25"],` +
                `"capabilities":{"resources":{},"completions":{}}${LIST_TAIL}}`,
        );
        await end(h);
    });
});
