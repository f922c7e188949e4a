/**
 * Over Streamable HTTP, the surface beyond tools takes the same path as over stdio: a prompt got
 * with a JSON answer, and notifications that precede an answer on its SSE stream reaching their
 * callbacks, in order, before the answer.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {LoggingMessage} from '../../../lib/mcp/client/index.js';
import {connectMcpClient} from '../../../lib/mcp/client/index.js';
import type {Route} from './http-fixture.js';
import {event, json, result, servedPerTest, sse, status} from './http-fixture.js';
import {GUARD} from './support.js';

const serve = servedPerTest();

const PROMPT = {messages: [{role: 'user', content: {type: 'text', text: 'Hi'}}]};

const route: Route = (seen, res) => {
    if (seen.method !== 'POST') return status(res, seen.method === 'DELETE' ? 204 : 405);
    const message = seen.json as {id?: number; method: string};
    if (message.id === undefined) return status(res, 202);
    if (message.method === 'initialize') {
        return json(
            res,
            result(seen, {
                protocolVersion: '2025-11-25',
                capabilities: {prompts: {}, logging: {}},
                serverInfo: {name: 'h', version: '1'},
            }),
        );
    }
    if (message.method === 'prompts/get') return json(res, result(seen, PROMPT));
    sse(res);
    event(res, {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: {level: 'error', data: 'disk full'},
    });
    event(res, {jsonrpc: '2.0', method: 'notifications/prompts/list_changed'});
    event(res, result(seen, {}));
    res.end();
};

test('getPrompt, setLoggingLevel and notifications over Streamable HTTP', GUARD, async () => {
    const fixture = await serve(route);
    const logs: LoggingMessage[] = [];
    const lists: string[] = [];
    const client = await connectMcpClient({
        url: fixture.url(),
        onLog: (message) => logs.push(message),
        onListChanged: (list) => lists.push(list),
    });
    assert.deepEqual(await client.getPrompt('p'), PROMPT);
    await client.setLoggingLevel('error');
    assert.deepEqual(logs, [{level: 'error', data: 'disk full'}]);
    assert.deepEqual(lists, ['prompts']);
    assert.deepEqual(fixture.summary(), [
        'POST initialize',
        'POST notifications/initialized',
        'POST prompts/get',
        'POST logging/setLevel',
    ]);
    await client.close();
});
