/**
 * The official `@modelcontextprotocol/client` 2.x spawns the star-atlas example and uses its whole
 * surface in both eras: the zod-typed tool, the prompt, the resource template, and completion of a
 * prompt argument and of a template variable. By default it speaks 2025-11-25 with `initialize`;
 * pinned to 2026-07-28 it probes `server/discover` on a sibling process (see
 * modern-sdk-v2.test.ts) and then sends the envelope on every request.
 */
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {Client, ProtocolError, ResourceNotFoundError} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {
    ATLAS_CAPABILITIES,
    ATLAS_DISTANCE,
    ATLAS_INFO,
    M42_LIGHT_YEARS,
    OBJECT_TEMPLATE,
    OBSERVE_PROMPT,
    objectContents,
    observeResult,
    STAR_ATLAS,
    UNKNOWN_ID_RESULT,
} from '../../examples/star-atlas-session.js';
import {closeAll, track} from '../../helpers/children.js';
import type {ProcessTap} from './modern-support.js';
import {answerLine, lastRequestId, MODERN, SERVER_INFO_KEY} from './modern-support.js';
import type {Connected} from './sdk-v2-support.js';
import {connect, META} from './sdk-v2-support.js';
import {WireRecorder} from './support.js';

after(closeAll);

const GUARD = {timeout: 60_000};

const PROMPT_REF = {type: 'ref/prompt', name: 'observe'} as const;
const TEMPLATE_REF = {type: 'ref/resource', uri: 'atlas://objects/{id}'} as const;

function atlasTransport(): StdioClientTransport {
    return new StdioClientTransport({command: process.execPath, args: [STAR_ATLAS], stderr: 'pipe'});
}

describe('the client 2.x with the star-atlas example, 2025-11-25', GUARD, () => {
    let client: Client;
    let wire: WireRecorder;
    const clientErrors: Error[] = [];

    before(async () => {
        const transport = atlasTransport();
        wire = new WireRecorder(transport);
        client = track(new Client({name: 'atlas-client-v2', version: '2.0.0'}));
        client.onerror = (error) => clientErrors.push(error);
        await client.connect(transport);
    });

    after(async () => {
        await client.close();
        assert.deepEqual(clientErrors, []);
        assert.deepEqual(wire.errors, []);
    });

    test('initializes at 2025-11-25 and sees prompts, resources and completions offered', () => {
        assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
        assert.deepEqual(client.getServerVersion(), ATLAS_INFO);
        assert.deepEqual(client.getServerCapabilities(), ATLAS_CAPABILITIES);
    });

    test('the typed tool: its advertised schema, a default reaching the handler, a refused argument', async () => {
        assert.deepEqual(await client.listTools(), {tools: [ATLAS_DISTANCE]});
        assert.deepEqual(
            await client.callTool({name: 'atlas.distance', arguments: {id: 'm42'}}),
            M42_LIGHT_YEARS,
        );
        assert.deepEqual(
            await client.callTool({name: 'atlas.distance', arguments: {id: 'm99'}}),
            UNKNOWN_ID_RESULT,
        );
    });

    test('lists and gets the prompt; a missing required argument is -32602', async () => {
        assert.deepEqual(await client.listPrompts(), {prompts: [OBSERVE_PROMPT]});
        assert.deepEqual(
            await client.getPrompt({name: 'observe', arguments: {object: 'm31', instrument: 'eyes'}}),
            observeResult('m31', 'eyes'),
        );
        await assert.rejects(client.getPrompt({name: 'observe', arguments: {}}), (error: unknown) => {
            assert.ok(error instanceof ProtocolError);
            assert.equal(error.code, -32602);
            assert.equal(
                error.message,
                'prompts/get of prompt "observe" is missing the required argument "object"',
            );
            return true;
        });
    });

    test('completes a prompt argument and a template variable', async () => {
        assert.deepEqual(await client.complete({ref: PROMPT_REF, argument: {name: 'object', value: 'm5'}}), {
            completion: {values: ['m57']},
        });
        assert.deepEqual(await client.complete({ref: TEMPLATE_REF, argument: {name: 'id', value: ''}}), {
            completion: {values: ['m13', 'm31', 'm42', 'm45', 'm57']},
        });
    });

    test('lists the template and reads through it; an unknown id is -32002 on the wire, with the uri', async () => {
        assert.deepEqual(await client.listResourceTemplates(), {resourceTemplates: [OBJECT_TEMPLATE]});
        assert.deepEqual(await client.readResource({uri: 'atlas://objects/m13'}), {
            contents: [objectContents('m13')],
        });
        await assert.rejects(client.readResource({uri: 'atlas://objects/m99'}), (error: unknown) => {
            // This client files -32002 under its own ResourceNotFoundError, whose code it sets to -32602.
            assert.ok(error instanceof ResourceNotFoundError);
            assert.equal(error.uri, 'atlas://objects/m99');
            assert.equal(error.message, 'Resource not found: atlas://objects/m99');
            return true;
        });
        const request = wire.sent.filter((message) => message.method === 'resources/read').at(-1);
        assert.deepEqual(wire.answersTo(request?.id), [
            {
                jsonrpc: '2.0',
                id: request?.id,
                error: {
                    code: -32002,
                    message: 'Resource not found: atlas://objects/m99',
                    data: {uri: 'atlas://objects/m99'},
                },
            },
        ]);
    });
});

describe('the client 2.x pinned to 2026-07-28 with the star-atlas example', GUARD, () => {
    let connected: Connected;
    let server: ProcessTap;
    const identity = {_meta: {[SERVER_INFO_KEY]: ATLAS_INFO}};
    const listHints = {ttlMs: 300000, cacheScope: 'public'};

    before(async () => {
        connected = await connect({pin: MODERN}, atlasTransport());
        assert.equal(connected.processes.length, 2);
        server = connected.processes[1] as ProcessTap;
    });

    after(async () => {
        await connected.client.close();
        assert.deepEqual(connected.clientErrors, []);
    });

    /** The exact line the server wrote for the last request of `method`. */
    function lastAnswer(method: string): unknown {
        return JSON.parse(answerLine(server.output, lastRequestId(server.sent, method)));
    }

    test('serves the session without initialize; discovery named every capability', () => {
        const {client} = connected;
        assert.equal(server.input.includes('"initialize"'), false);
        assert.equal(client.getProtocolEra(), 'modern');
        assert.deepEqual(client.getServerVersion(), ATLAS_INFO);
        assert.deepEqual(client.getServerCapabilities(), ATLAS_CAPABILITIES);
    });

    test('the typed tool in this era: schema, default, refused argument', async () => {
        const {client} = connected;
        assert.deepEqual(await client.listTools(), {...identity, ...listHints, tools: [ATLAS_DISTANCE]});
        assert.deepEqual(await client.callTool({name: 'atlas.distance', arguments: {id: 'm42'}}), {
            ...identity,
            ...M42_LIGHT_YEARS,
        });
        assert.deepEqual(await client.callTool({name: 'atlas.distance', arguments: {id: 'm99'}}), {
            ...identity,
            ...UNKNOWN_ID_RESULT,
        });
    });

    test('lists and gets the prompt, with the envelope on each request and resultType on each answer', async () => {
        const {client} = connected;
        assert.deepEqual(await client.listPrompts(), {...identity, ...listHints, prompts: [OBSERVE_PROMPT]});
        assert.deepEqual(lastAnswer('prompts/list'), {
            jsonrpc: '2.0',
            id: lastRequestId(server.sent, 'prompts/list'),
            result: {resultType: 'complete', ...identity, prompts: [OBSERVE_PROMPT], ...listHints},
        });
        assert.deepEqual(await client.getPrompt({name: 'observe', arguments: {object: 'm45'}}), {
            ...identity,
            ...observeResult('m45'),
        });
        const sent = server.sent.filter((message) => message.method === 'prompts/get').at(-1);
        assert.deepEqual(sent?.params, {name: 'observe', arguments: {object: 'm45'}, _meta: META});
    });

    test('completes with the envelope: a prompt argument with context, a template variable', async () => {
        const {client} = connected;
        assert.deepEqual(
            await client.complete({
                ref: PROMPT_REF,
                argument: {name: 'instrument', value: 'e'},
                context: {arguments: {object: 'm31'}},
            }),
            {...identity, completion: {values: ['eyes']}},
        );
        assert.deepEqual(await client.complete({ref: TEMPLATE_REF, argument: {name: 'id', value: 'm3'}}), {
            ...identity,
            completion: {values: ['m31']},
        });
        assert.deepEqual(lastAnswer('completion/complete'), {
            jsonrpc: '2.0',
            id: lastRequestId(server.sent, 'completion/complete'),
            result: {resultType: 'complete', ...identity, completion: {values: ['m31']}},
        });
    });

    test('lists the template and reads through it; an unknown id is -32602 with the uri', async () => {
        const {client} = connected;
        assert.deepEqual(await client.listResourceTemplates(), {
            ...identity,
            ...listHints,
            resourceTemplates: [OBJECT_TEMPLATE],
        });
        assert.deepEqual(await client.readResource({uri: 'atlas://objects/m57'}), {
            ...identity,
            contents: [objectContents('m57')],
            ttlMs: 0,
            cacheScope: 'private',
        });
        await assert.rejects(client.readResource({uri: 'atlas://objects/m99'}), (error: unknown) => {
            assert.ok(error instanceof ResourceNotFoundError);
            assert.equal(error.code, -32602);
            assert.equal(error.message, 'Resource not found: atlas://objects/m99');
            assert.deepEqual(error.data, {uri: 'atlas://objects/m99'});
            return true;
        });
    });
});
