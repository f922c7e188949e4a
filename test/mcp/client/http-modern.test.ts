/** The modern request headers, as pure functions: value encoding, annotation rules, extraction. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
    headerParams,
    headerValue,
    paramHeaders,
    standardHeaders,
} from '../../../lib/mcp/client/http-modern.js';

test('headerValue: plain visible ASCII as it is, everything else in the Base64 sentinel form', () => {
    for (const [value, header] of [
        ['us-west1', 'us-west1'],
        ['us west 1', 'us west 1'],
        ['', ''],
        ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
        [' padded ', '=?base64?IHBhZGRlZCA=?='],
        ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
        ['\tindented', '=?base64?CWluZGVudGVk?='],
        ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ]) {
        assert.equal(headerValue(value as string), header, JSON.stringify(value));
    }
});

test('standardHeaders: Mcp-Method always, Mcp-Name for the named methods', () => {
    assert.deepEqual(standardHeaders('tools/list', {}), {'mcp-method': 'tools/list'});
    assert.deepEqual(standardHeaders('tools/call', {name: 'ä'}), {
        'mcp-method': 'tools/call',
        'mcp-name': '=?base64?w6Q=?=',
    });
    assert.deepEqual(standardHeaders('prompts/get', {name: 'p'}), {
        'mcp-method': 'prompts/get',
        'mcp-name': 'p',
    });
    assert.deepEqual(standardHeaders('resources/read', {uri: 'a://b'}), {
        'mcp-method': 'resources/read',
        'mcp-name': 'a://b',
    });
    assert.deepEqual(standardHeaders('resources/read', {uri: 3}), {'mcp-method': 'resources/read'});
});

test('headerParams: the annotated primitive properties reached through properties alone', () => {
    assert.deepEqual(
        headerParams({
            type: 'object',
            properties: {
                a: {type: 'string', 'x-mcp-header': 'A', default: {'x-mcp-header': 'not an annotation'}},
                nested: {type: 'object', properties: {b: {type: 'boolean', 'x-mcp-header': 'B'}}},
                plain: {type: 'string'},
            },
        }),
        [
            {name: 'A', path: ['a']},
            {name: 'B', path: ['nested', 'b']},
        ],
    );
    assert.deepEqual(headerParams(undefined), []);
    assert.deepEqual(headerParams({type: 'object'}), []);
});

test('headerParams: every broken rule is named', () => {
    const cases: [unknown, string][] = [
        [{'x-mcp-header': 'Root', type: 'object'}, 'x-mcp-header is at the root'],
        [
            {properties: {a: {anyOf: [{type: 'string', 'x-mcp-header': 'A'}]}}},
            'x-mcp-header is outside a chain of "properties"',
        ],
        [
            {$defs: {a: {type: 'string', 'x-mcp-header': 'A'}}},
            'x-mcp-header is outside a chain of "properties"',
        ],
        [
            {properties: {a: {type: 'string', 'x-mcp-header': ''}}},
            'x-mcp-header at a is not an HTTP token: ""',
        ],
        [
            {properties: {a: {type: 'string', 'x-mcp-header': 'a b'}}},
            'x-mcp-header at a is not an HTTP token: "a b"',
        ],
        [{properties: {a: {type: 'string', 'x-mcp-header': 7}}}, 'x-mcp-header at a is not an HTTP token: 7'],
        [
            {properties: {a: {type: 'number', 'x-mcp-header': 'A'}}},
            'x-mcp-header "A" is on a property whose type is not string, integer or boolean',
        ],
        [
            {properties: {a: {'x-mcp-header': 'A'}}},
            'x-mcp-header "A" is on a property whose type is not string, integer or boolean',
        ],
        [
            {
                properties: {
                    a: {type: 'string', 'x-mcp-header': 'Dup'},
                    b: {type: 'string', 'x-mcp-header': 'dup'},
                },
            },
            'x-mcp-header "dup" is given more than once',
        ],
    ];
    for (const [schema, problem] of cases)
        assert.equal(headerParams(schema), problem, JSON.stringify(schema));
});

test('paramHeaders: values present and not null, converted and encoded', () => {
    const params = [
        {name: 'S', path: ['s']},
        {name: 'I', path: ['i']},
        {name: 'T', path: ['t']},
        {name: 'F', path: ['f']},
        {name: 'N', path: ['n']},
        {name: 'Deep', path: ['o', 'd']},
        {name: 'Gone', path: ['missing', 'x']},
        {name: 'Obj', path: ['obj']},
    ];
    assert.deepEqual(
        paramHeaders(params, {s: 'x y', i: -7, t: true, f: false, n: null, o: {d: 'é'}, obj: {}}),
        {
            'mcp-param-s': 'x y',
            'mcp-param-i': '-7',
            'mcp-param-t': 'true',
            'mcp-param-f': 'false',
            'mcp-param-deep': '=?base64?w6k=?=',
        },
    );
    assert.deepEqual(paramHeaders(params, undefined), {});
});
