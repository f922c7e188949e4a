/**
 * The star-atlas example answers a scripted session in each era, record for record: its typed tool
 * (a default reaching the handler, a refused argument as isError), its prompt, its template, and
 * completion of both, then exits 0 when its stdin ends.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {REPO_ROOT} from '../helpers/paths.js';
import {runNode} from '../helpers/process.js';
import {recordsOf} from './session.js';
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
} from './star-atlas-session.js';

type Message = {[key: string]: unknown};

async function session(script: readonly Message[]): Promise<unknown[]> {
    const input = script.map((message) => `${JSON.stringify(message)}\n`).join('');
    const {code, signal, stdout, stderr} = await runNode([STAR_ATLAS], {cwd: REPO_ROOT, input});
    assert.equal(stderr, '');
    assert.deepEqual({code, signal}, {code: 0, signal: null});
    return recordsOf(stdout);
}

const request = (id: number, method: string, params?: Message): Message => ({
    jsonrpc: '2.0',
    id,
    method,
    ...(params === undefined ? {} : {params}),
});
const result = (id: number, value: unknown) => ({jsonrpc: '2.0', id, result: value});
const error = (id: number, code: number, message: string, data?: unknown) => ({
    jsonrpc: '2.0',
    id,
    error: data === undefined ? {code, message} : {code, message, data},
});
const PROMPT_REF = {type: 'ref/prompt', name: 'observe'};
const TEMPLATE_REF = {type: 'ref/resource', uri: 'atlas://objects/{id}'};

describe('the star-atlas example, scripted', () => {
    test('2025-11-25: tool, prompt, template and completion, each answered exactly', async () => {
        const records = await session([
            request(0, 'initialize', {
                protocolVersion: '2025-11-25',
                capabilities: {},
                clientInfo: {name: 'script', version: '1'},
            }),
            {jsonrpc: '2.0', method: 'notifications/initialized'},
            request(1, 'tools/list'),
            request(2, 'tools/call', {name: 'atlas.distance', arguments: {id: 'm42'}}),
            request(3, 'tools/call', {name: 'atlas.distance', arguments: {id: 'm99', unit: 'pc'}}),
            request(4, 'prompts/list'),
            request(5, 'completion/complete', {ref: PROMPT_REF, argument: {name: 'object', value: 'm4'}}),
            request(6, 'prompts/get', {name: 'observe', arguments: {object: 'm42'}}),
            request(7, 'prompts/get', {name: 'observe', arguments: {instrument: 'eyes'}}),
            request(8, 'prompts/get', {name: 'observe', arguments: {object: 'm99'}}),
            request(9, 'resources/templates/list'),
            request(10, 'completion/complete', {ref: TEMPLATE_REF, argument: {name: 'id', value: 'm1'}}),
            request(11, 'resources/read', {uri: 'atlas://objects/m45'}),
            request(12, 'resources/read', {uri: 'atlas://objects/m99'}),
            request(13, 'completion/complete', {ref: TEMPLATE_REF, argument: {name: 'uri', value: ''}}),
        ]);
        assert.deepEqual(records, [
            result(0, {
                protocolVersion: '2025-11-25',
                capabilities: ATLAS_CAPABILITIES,
                serverInfo: ATLAS_INFO,
            }),
            result(1, {tools: [ATLAS_DISTANCE]}),
            result(2, M42_LIGHT_YEARS),
            result(3, UNKNOWN_ID_RESULT),
            result(4, {prompts: [OBSERVE_PROMPT]}),
            result(5, {completion: {values: ['m42', 'm45']}}),
            result(6, observeResult('m42')),
            error(7, -32602, 'prompts/get of prompt "observe" is missing the required argument "object"'),
            error(8, -32602, 'No catalogued object is called "m99"; try one of m13, m31, m42, m45, m57.'),
            result(9, {resourceTemplates: [OBJECT_TEMPLATE]}),
            result(10, {completion: {values: ['m13']}}),
            result(11, {contents: [objectContents('m45')]}),
            error(12, -32002, 'Resource not found: atlas://objects/m99', {uri: 'atlas://objects/m99'}),
            error(13, -32602, 'completion/complete: template "atlas://objects/{id}" has no variable "uri"'),
        ]);
    });

    test('2026-07-28: the same surface with the envelope, the server identity and the caching hints', async () => {
        const META = {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': {name: 'script', version: '1'},
            'io.modelcontextprotocol/clientCapabilities': {},
        };
        const modern = (id: number, method: string, params: Message = {}) =>
            request(id, method, {...params, _meta: META});
        const records = await session([
            modern(1, 'server/discover'),
            modern(2, 'prompts/list'),
            modern(3, 'completion/complete', {
                ref: PROMPT_REF,
                argument: {name: 'instrument', value: ''},
                context: {arguments: {object: 'm42'}},
            }),
            modern(4, 'prompts/get', {name: 'observe', arguments: {object: 'm31', instrument: 'eyes'}}),
            modern(5, 'resources/templates/list'),
            modern(6, 'resources/read', {uri: 'atlas://objects/m13'}),
            modern(7, 'resources/read', {uri: 'atlas://objects/m99'}),
            modern(8, 'tools/call', {name: 'atlas.distance', arguments: {id: 'm42', unit: 'pc'}}),
        ]);
        const head = {resultType: 'complete', _meta: {'io.modelcontextprotocol/serverInfo': ATLAS_INFO}};
        const list = {ttlMs: 300000, cacheScope: 'public'};
        assert.deepEqual(records, [
            result(1, {
                ...head,
                supportedVersions: ['2026-07-28', '2025-11-25'],
                capabilities: ATLAS_CAPABILITIES,
                ...list,
            }),
            result(2, {...head, prompts: [OBSERVE_PROMPT], ...list}),
            result(3, {...head, completion: {values: ['binoculars', 'eyes', 'telescope']}}),
            result(4, {...head, ...observeResult('m31', 'eyes')}),
            result(5, {...head, resourceTemplates: [OBJECT_TEMPLATE], ...list}),
            result(6, {...head, contents: [objectContents('m13')], ttlMs: 0, cacheScope: 'private'}),
            error(7, -32602, 'Resource not found: atlas://objects/m99', {uri: 'atlas://objects/m99'}),
            result(8, {
                ...head,
                content: [{type: 'text', text: 'Orion Nebula is 412.1 pc away.'}],
                structuredContent: {id: 'm42', name: 'Orion Nebula', distance: 412.1, unit: 'pc'},
            }),
        ]);
    });
});
