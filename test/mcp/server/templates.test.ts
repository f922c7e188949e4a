/**
 * Resource templates on the raw wire, both eras: the list exactly as authored, reads matched in
 * catalog order after the static resources, the variables a handler gets, and the era's not-found.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {McpResourceTemplate, TemplateContext} from '../../../lib/mcp/stdio/index.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';
import {
    end,
    errorLine,
    HEAD,
    LIST_TAIL,
    legacy,
    META,
    modern,
    modernLine,
    resultLine,
    SERVER_INFO,
    serve,
} from '../../helpers/wire.js';

const seen: {params: unknown; context: TemplateContext}[] = [];

const TEMPLATES: McpResourceTemplate[] = [
    {
        uriTemplate: 'test://template/{id}/data',
        name: 'data',
        title: 'Data by id',
        description: 'One record',
        mimeType: 'application/json',
        annotations: {audience: ['user']},
        icons: [{src: 'https://example.com/d.png'}],
        _meta: {'example.com/k': true},
        vendor: 'kept',
        complete: {id: () => ['1']},
        handler: (params, context) => {
            seen.push({params, context});
            return {
                contents: [
                    {uri: params.uri, mimeType: 'application/json', text: JSON.stringify(context.variables)},
                ],
            };
        },
    },
    {
        uriTemplate: 'file:///{+path}{?rev}',
        name: 'files',
        handler: (params, context) => ({
            contents: [{uri: params.uri, text: `file ${JSON.stringify(context.variables)}`}],
        }),
    },
    {
        uriTemplate: 'test://template/{a}/{b}',
        name: 'shadowed',
        handler: () => ({contents: [{uri: 'never', text: 'never'}]}),
    },
];

const LIST =
    '[{"uriTemplate":"test://template/{id}/data","name":"data","title":"Data by id","description":"One record",' +
    '"mimeType":"application/json","annotations":{"audience":["user"]},"icons":[{"src":"https://example.com/d.png"}],' +
    '"_meta":{"example.com/k":true},"vendor":"kept"},{"uriTemplate":"file:///{+path}{?rev}","name":"files"},' +
    '{"uriTemplate":"test://template/{a}/{b}","name":"shadowed"}]';

function server(templates = TEMPLATES) {
    return serve({
        resources: [
            {
                uri: 'test://template/static/data',
                name: 'static',
                handler: ({uri}) => ({contents: [{uri, text: 'static'}]}),
            },
        ],
        resourceTemplates: templates,
    });
}

describe('resources/templates/list', () => {
    test('legacy: the descriptors exactly as authored, less handler and complete', async () => {
        const h = server();
        await h.initialize();
        assert.equal(
            await legacy(h, 1, 'resources/templates/list'),
            `{"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":${LIST}}}`,
        );
        await end(h);
    });

    test('2026-07-28: identity and caching hints', async () => {
        const h = server();
        assert.equal(
            await modern(h, 1, 'resources/templates/list'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"resourceTemplates":${LIST}${LIST_TAIL}}`,
        );
        await end(h);
    });

    test('templates alone advertise resources, and resources/list is empty', async () => {
        const h = serve({resourceTemplates: [TEMPLATES[1] as McpResourceTemplate]});
        assert.equal(
            JSON.stringify(await h.initialize()),
            '{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"resources":{}},' +
                '"serverInfo":{"name":"surface-test","version":"1.0.0"}}}',
        );
        assert.equal(
            await legacy(h, 1, 'resources/list'),
            '{"jsonrpc":"2.0","id":1,"result":{"resources":[]}}',
        );
        await end(h);
    });
});

describe('resources/read through a template', () => {
    test('legacy: the first matching template serves, with the complete params and decoded variables', async () => {
        seen.length = 0;
        const h = server();
        await h.initialize();
        const params = {uri: 'test://template/12%203/data', _meta: {progressToken: 1}, extra: 'x'};
        assert.equal(
            await legacy(h, 1, 'resources/read', params),
            resultLine(1, {
                contents: [{uri: params.uri, mimeType: 'application/json', text: '{"id":"12 3"}'}],
            }),
        );
        const [first] = seen;
        assert.ok(first !== undefined);
        assert.deepEqual(first.params, params);
        assert.equal(first.context.params, first.params);
        assert.equal(first.context.method, 'resources/read');
        assert.equal(first.context.requestId, 1);
        assert.deepEqual(first.context.variables, {id: '12 3'});
        assert.equal(Object.isFrozen(first.context), true);
        assert.equal(Object.isFrozen(first.context.variables), true);
        assert.deepEqual({...first.context}.variables, {id: '12 3'});
        assert.equal(typeof first.context.reportProgress, 'function');
        assert.equal(
            await legacy(h, 2, 'resources/read', {uri: 'file:///src/a.ts?rev=4'}),
            resultLine(2, {
                contents: [{uri: 'file:///src/a.ts?rev=4', text: 'file {"path":"src/a.ts","rev":"4"}'}],
            }),
        );
        await end(h);
    });

    test('a static resource with the same uri wins over a template', async () => {
        const h = server();
        await h.initialize();
        assert.equal(
            await legacy(h, 1, 'resources/read', {uri: 'test://template/static/data'}),
            resultLine(1, {contents: [{uri: 'test://template/static/data', text: 'static'}]}),
        );
        await end(h);
    });

    test('2026-07-28: identity and the read caching hints', async () => {
        const h = server();
        assert.equal(
            await modern(h, 1, 'resources/read', {uri: 'test://template/7/data'}),
            modernLine(
                1,
                {
                    contents: [
                        {uri: 'test://template/7/data', mimeType: 'application/json', text: '{"id":"7"}'},
                    ],
                },
                ',"ttlMs":0,"cacheScope":"private"}',
            ),
        );
        await end(h);
    });

    test('no match: -32002 in the legacy era, -32602 with data {uri} in 2026-07-28', async () => {
        const h = server();
        assert.equal(
            await modern(h, 1, 'resources/read', {uri: 'test://other/1'}),
            errorLine(1, -32602, 'Resource not found: test://other/1', {uri: 'test://other/1'}),
        );
        await h.initialize();
        assert.equal(
            await legacy(h, 2, 'resources/read', {uri: 'test://template/1/2/3'}),
            errorLine(2, -32002, 'Resource not found: test://template/1/2/3', {uri: 'test://template/1/2/3'}),
        );
        await end(h);
    });

    test('a throwing template handler is -32603 with a diagnostic', async () => {
        const h = serve({
            resourceTemplates: [
                {
                    uriTemplate: 'x://{id}',
                    name: 'x',
                    handler: () => {
                        throw new Error('gone');
                    },
                },
            ],
        });
        h.send({jsonrpc: '2.0', id: 1, method: 'resources/read', params: {uri: 'x://1', _meta: META}});
        await h.output.waitForLines(1);
        assert.equal(
            h.output.text,
            `${errorLine(
                1,
                -32603,
                'Internal error in resources/read of resource "x://1" (request id 1): the handler threw; ' +
                    "the server's diagnostics have the details",
            )}\n`,
        );
        assert.match(h.errors.text, /Error: gone/);
        await end(h);
    });
});

describe('the resourceTemplates option at construction', () => {
    const P = 'createMcpStdioServer: ';
    const handler = () => ({contents: []});
    const rejects = (templates: unknown, message: string) =>
        assert.throws(
            () =>
                createMcpStdioServer({
                    serverInfo: SERVER_INFO,
                    resourceTemplates: templates as McpResourceTemplate[],
                }),
            (error: unknown) => error instanceof TypeError && error.message === message,
        );

    test('each wrong shape is a TypeError naming the entry', () => {
        rejects('x', `${P}resourceTemplates must be an array, got the string "x"`);
        rejects([1], `${P}resourceTemplates[0] must be an object, got number 1`);
        rejects(
            [{name: 'n', handler}],
            `${P}resourceTemplates[0] needs a non-empty "uriTemplate" string, got undefined`,
        );
        rejects(
            [{uriTemplate: 'a://{id', name: 'n', handler}],
            `${P}resourceTemplates[0] ("a://{id"): "a://{id" is not a valid RFC 6570 URI template: the "{" at position 4 is never closed`,
        );
        rejects(
            [{uriTemplate: 'a://{id}', handler}],
            `${P}resourceTemplates[0] ("a://{id}") needs a "name" string, got undefined`,
        );
        rejects(
            [{uriTemplate: 'a://{id}', name: 'n'}],
            `${P}resourceTemplates[0] ("a://{id}") needs a "handler" function, got undefined`,
        );
        rejects(
            [
                {uriTemplate: 'a://{id}', name: 'n', handler},
                {uriTemplate: 'a://{id}', name: 'm', handler},
            ],
            `${P}resourceTemplates[1] ("a://{id}") repeats a uriTemplate; each template must be unique`,
        );
        rejects(
            [{uriTemplate: 'a://{id}', name: 'n', complete: {other: () => []}, handler}],
            `${P}resourceTemplates[0] ("a://{id}") has a completer for "other", which is not one of its variables; its variables are id`,
        );
    });
});

describe('without the resourceTemplates option', () => {
    test('resources/templates/list stays empty in both eras', async () => {
        const h = serve({});
        assert.equal(
            await modern(h, 1, 'resources/templates/list'),
            `{"jsonrpc":"2.0","id":1,"result":${HEAD}"resourceTemplates":[]${LIST_TAIL}}`,
        );
        await h.initialize();
        assert.equal(
            await legacy(h, 2, 'resources/templates/list'),
            '{"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[]}}',
        );
        await end(h);
    });
});
