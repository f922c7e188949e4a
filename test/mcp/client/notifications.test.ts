/**
 * The server's notifications reach the caller: every one through `onNotification`, log messages,
 * list changes and resource updates through their own typed callbacks; malformed ones only through
 * `onNotification`; and a callback that throws or rejects never breaks the session.
 */
import assert from 'node:assert/strict';
import {after, test} from 'node:test';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import type {Action} from './fixtures/fake-server.js';
import {closeAll, connectFake, FAKE_SERVER, GUARD} from './support.js';

after(closeAll);

const note = (method: string, params?: object) =>
    params === undefined ? {jsonrpc: '2.0', method} : {jsonrpc: '2.0', method, params};

const SENT = [
    note('notifications/message', {level: 'warning', logger: 'db', data: {slow: true}}),
    note('notifications/message', {level: 'loud', data: 'x'}),
    note('notifications/message', {level: 'info'}),
    note('notifications/tools/list_changed'),
    note('notifications/resources/list_changed', {}),
    note('notifications/prompts/list_changed'),
    note('notifications/resources/updated', {uri: 'mem://a', title: 'A'}),
    note('notifications/resources/updated', {}),
    note('notifications/custom', {x: 1}),
];

function sending(messages: object[]): Action {
    return {send: messages, andThen: {result: {content: []}}};
}

test(
    'each notification reaches onNotification as sent, and the typed callbacks get the well-formed ones',
    GUARD,
    async () => {
        const seen: unknown[] = [];
        const {client} = await connectFake(
            {
                script: {
                    'tools/call': [
                        sending([note('notifications/progress', {progressToken: 99, progress: 1}), ...SENT]),
                    ],
                },
            },
            {
                onNotification: (notification) => seen.push(['any', notification]),
                onLog: (message) => seen.push(['log', message]),
                onListChanged: (list) => seen.push(['list', list]),
                onResourceUpdated: (update) => seen.push(['updated', update]),
            },
        );
        // The answer follows the notifications on the same pipe, so every callback has run by now.
        await client.callTool('t');
        assert.deepEqual(seen, [
            [
                'any',
                {
                    method: 'notifications/message',
                    params: {level: 'warning', logger: 'db', data: {slow: true}},
                },
            ],
            ['log', {level: 'warning', logger: 'db', data: {slow: true}}],
            ['any', {method: 'notifications/message', params: {level: 'loud', data: 'x'}}],
            ['any', {method: 'notifications/message', params: {level: 'info'}}],
            ['any', {method: 'notifications/tools/list_changed'}],
            ['list', 'tools'],
            ['any', {method: 'notifications/resources/list_changed', params: {}}],
            ['list', 'resources'],
            ['any', {method: 'notifications/prompts/list_changed'}],
            ['list', 'prompts'],
            ['any', {method: 'notifications/resources/updated', params: {uri: 'mem://a', title: 'A'}}],
            ['updated', {uri: 'mem://a', title: 'A'}],
            ['any', {method: 'notifications/resources/updated', params: {}}],
            ['any', {method: 'notifications/custom', params: {x: 1}}],
        ]);
    },
);

test('a typed callback alone gets its kind, and nothing else is asked of the others', GUARD, async () => {
    const logs: unknown[] = [];
    const {client} = await connectFake(
        {script: {'tools/call': [sending(SENT)]}},
        {onLog: (message) => logs.push(message)},
    );
    await client.callTool('t');
    assert.deepEqual(logs, [{level: 'warning', logger: 'db', data: {slow: true}}]);
});

test('a callback that throws or returns a rejected promise leaves the session working', GUARD, async () => {
    let told = 0;
    const {client} = await connectFake(
        {script: {'tools/call': [sending(SENT), {result: {content: [{type: 'text', text: 'still here'}]}}]}},
        {
            onNotification: () => {
                told += 1;
                throw new Error('callback bug');
            },
            onListChanged: () => Promise.reject(new Error('async callback bug')) as never,
            onLog: () => {
                throw 'not even an error';
            },
        },
    );
    await client.callTool('t');
    assert.equal(told, SENT.length);
    assert.deepEqual(await client.callTool('t'), {content: [{type: 'text', text: 'still here'}]});
    assert.deepEqual(await client.listTools(), []);
});

test('a notification callback that is not a function is refused when connecting', GUARD, () => {
    for (const name of ['onNotification', 'onLog', 'onListChanged', 'onResourceUpdated']) {
        assert.throws(
            () => connectMcpClient({command: process.execPath, args: [FAKE_SERVER], [name]: 'yes'}),
            {
                name: 'TypeError',
                message: `connectMcpClient: ${name} must be a function, got the string "yes"`,
            },
        );
    }
});
