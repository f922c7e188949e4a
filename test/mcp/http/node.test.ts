import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {request as httpRequest} from 'node:http';
import {join} from 'node:path';
import {describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {serveNodeHttp, toNodeListener} from '../../../lib/mcp/http/index.js';
import {Gate, META, MODERN, makeHandler} from './support.js';

const HTTP_INDEX = join(fileURLToPath(import.meta.url), '../../../../lib/mcp/http/index.js');

describe('the Node http adapter', () => {
    test('listens on 127.0.0.1 by default and answers only its path', async () => {
        const {handler} = makeHandler();
        const served = await serveNodeHttp(handler);
        try {
            assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
            const other = await fetch(served.url.replace('/mcp', '/other'));
            assert.deepEqual(
                [other.status, await other.text()],
                [404, 'Not Found: the MCP endpoint is /mcp'],
            );
            const get = await fetch(served.url);
            assert.equal(get.status, 405);
        } finally {
            await handler.close();
            await served.close();
        }
    });

    test('a client that disconnects mid-stream aborts the handler; nothing more is written', async () => {
        const gate = new Gate();
        const {handler} = makeHandler(gate);
        const served = await serveNodeHttp(handler, {path: '/rpc'});
        try {
            const body = JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'tools/call',
                params: {name: 'steps', _meta: {...META, progressToken: 1}},
            });
            const url = new URL(served.url);
            const outgoing = httpRequest(url, {
                method: 'POST',
                headers: {
                    'content-type': 'application/json',
                    accept: 'application/json, text/event-stream',
                    'mcp-protocol-version': MODERN,
                    'mcp-method': 'tools/call',
                    'mcp-name': 'steps',
                },
            });
            outgoing.end(body);
            const [response] = await once(outgoing, 'response');
            assert.equal(response.statusCode, 200);
            assert.equal(response.headers['content-type'], 'text/event-stream');
            const [first] = await once(response, 'data');
            assert.match(String(first), /notifications\/progress/);
            await gate.started(1);
            const context = gate.contexts[0] as Gate['contexts'][number];
            const aborted = once(context.signal, 'abort');
            outgoing.destroy();
            await aborted;
            assert.equal(context.signal.reason.name, 'AbortError');
            assert.equal(context.signal.reason.message, 'The client closed the connection');
            await handler.drain();
        } finally {
            await handler.close();
            await served.close();
        }
    });

    test('leaves nothing that keeps the process alive once the handler and server are closed', async () => {
        const script = `
            import {createMcpHttpHandler, serveNodeHttp} from ${JSON.stringify(HTTP_INDEX)};
            const handler = createMcpHttpHandler({serverInfo: {name: 'x', version: '1'}, sessionIdleTimeoutMs: 3600000});
            const served = await serveNodeHttp(handler);
            const init = {jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'c', version: '1'}}};
            const response = await fetch(served.url, {method: 'POST', headers: {'content-type': 'application/json', accept: 'application/json'}, body: JSON.stringify(init)});
            console.log(response.status, response.headers.get('mcp-session-id').length);
            await handler.close();
            await served.close();
        `;
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
            stdio: ['ignore', 'pipe', 'inherit'],
        });
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (text) => {
            output += text;
        });
        const [code] = await once(child, 'exit');
        assert.deepEqual([code, output], [0, '200 43\n']);
    });

    test('a long answer written against backpressure leaves no listener behind on the response', async () => {
        const chunk = new Uint8Array(1024 * 1024);
        let sent = 0;
        const counts: number[] = [];
        let outgoing: import('node:http').ServerResponse | undefined;
        const served = await serveNodeHttp({
            fetch: async () =>
                new Response(
                    new ReadableStream<Uint8Array>({
                        pull(controller) {
                            if (outgoing !== undefined)
                                counts.push(
                                    outgoing.listenerCount('close') + outgoing.listenerCount('drain'),
                                );
                            if (sent++ === 32) controller.close();
                            else controller.enqueue(chunk);
                        },
                    }),
                ),
        });
        served.server.prependListener('request', (_incoming, response) => {
            outgoing = response;
        });
        try {
            const response = await fetch(served.url, {method: 'POST', body: '{}'});
            assert.equal((await response.arrayBuffer()).byteLength, 32 * chunk.byteLength);
            assert.equal(new Set(counts).size, 1, `listener counts while writing: ${counts.join(' ')}`);
        } finally {
            await served.close();
        }
    });

    test('checks its arguments', async () => {
        assert.throws(() => toNodeListener({} as never), {
            name: 'TypeError',
            message: 'toNodeListener(handler) needs an object with a fetch method, got an object',
        });
        const {handler} = makeHandler();
        await assert.rejects(serveNodeHttp(handler, {port: 70000}), {
            name: 'RangeError',
            message: 'serveNodeHttp: port must be an integer from 0 to 65535, got number 70000',
        });
        await assert.rejects(serveNodeHttp(handler, {path: 'mcp'}), {
            name: 'TypeError',
            message: 'serveNodeHttp: host must be a string and path a string starting with "/"',
        });
        await assert.rejects(serveNodeHttp(handler, 1 as never), {
            name: 'TypeError',
            message: 'serveNodeHttp(handler, options) needs an options object, got number 1',
        });
    });

    test('a handler that rejects is answered 500', async () => {
        const listener = toNodeListener({fetch: () => Promise.reject(new Error('boom'))});
        const {createServer} = await import('node:http');
        const server = createServer(listener).listen(0, '127.0.0.1');
        await once(server, 'listening');
        const {port} = server.address() as {port: number};
        const response = await fetch(`http://127.0.0.1:${port}/`);
        assert.deepEqual([response.status, await response.text()], [500, 'Internal Server Error: boom']);
        server.close();
        server.closeAllConnections();
    });

    test('writes each Set-Cookie as a header of its own, and joins nothing else differently', async () => {
        const cookies = ['a=1; Path=/', 'b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly'];
        const served = await serveNodeHttp({
            fetch: async () => {
                const headers = new Headers({'content-type': 'text/plain'});
                for (const cookie of cookies) headers.append('set-cookie', cookie);
                headers.append('x-list', 'one');
                headers.append('x-list', 'two');
                return new Response('ok', {status: 200, headers});
            },
        });
        try {
            const {rawHeaders, body} = await new Promise<{rawHeaders: string[]; body: string}>(
                (resolve, reject) => {
                    httpRequest(served.url, (response) => {
                        let text = '';
                        response.setEncoding('utf8').on('data', (chunk: string) => {
                            text += chunk;
                        });
                        response.on('end', () => resolve({rawHeaders: response.rawHeaders, body: text}));
                    })
                        .on('error', reject)
                        .end();
                },
            );
            assert.equal(body, 'ok');
            const pairs: [string, string][] = [];
            for (let index = 0; index < rawHeaders.length; index += 2) {
                pairs.push([(rawHeaders[index] as string).toLowerCase(), rawHeaders[index + 1] as string]);
            }
            assert.deepEqual(
                pairs.filter(([name]) => name === 'set-cookie' || name === 'x-list'),
                [
                    ['set-cookie', cookies[0]],
                    ['set-cookie', cookies[1]],
                    ['x-list', 'one, two'],
                ],
            );
        } finally {
            await served.close();
        }
    });
});
