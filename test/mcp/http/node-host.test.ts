import assert from 'node:assert/strict';
import {request} from 'node:http';
import {test} from 'node:test';
import {serveNodeHttp} from '../../../lib/mcp/http/index.js';
import {makeHandler} from './support.js';

/** The status and body of a POST whose Host header is `host`. */
function postWithHost(url: string, host: string): Promise<[number | undefined, string, string | undefined]> {
    return new Promise((resolve, reject) => {
        const outgoing = request(url, {
            method: 'POST',
            headers: {host, 'content-type': 'application/json'},
            agent: false,
        });
        outgoing.on('error', reject);
        outgoing.on('response', (incoming) => {
            let body = '';
            incoming.setEncoding('utf8');
            incoming.on('data', (chunk: string) => {
                body += chunk;
            });
            incoming.on('end', () => resolve([incoming.statusCode, body, incoming.headers['content-type']]));
        });
        outgoing.end('{}');
    });
}

test('the Node adapter answers 400 to a Host header that forms no URL, and the handler never sees it', async () => {
    const {handler, diagnostics} = makeHandler();
    const served = await serveNodeHttp(handler);
    try {
        for (const host of ['a b', 'q@w', '[::1']) {
            assert.deepEqual(await postWithHost(served.url, host), [
                400,
                `Bad Request: the Host header ${JSON.stringify(host)} does not form a valid URL`,
                'text/plain',
            ]);
        }
        assert.deepEqual(diagnostics, []);
    } finally {
        await handler.close();
        await served.close();
    }
});
