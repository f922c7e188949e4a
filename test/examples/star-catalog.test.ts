import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {createInterface} from 'node:readline';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {connectMcpClient} from '../../lib/mcp/client/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const example = fileURLToPath(new URL('../../../examples/star-catalog.mjs', import.meta.url));
const ANSWER = [{type: 'text', text: 'vega: Lyra, magnitude 0.03'}];

test('the star-catalog example serves its catalog over stdio', async () => {
    const client = await connectMcpClient({command: process.execPath, args: [example], cwd: root});
    try {
        assert.deepEqual((await client.callTool('look_up_star', {star: 'vega'})).content, ANSWER);
    } finally {
        await client.close();
    }
});

test('the star-catalog example serves the same catalog over HTTP, both eras, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [example, '--http'], {
        cwd: root,
        env: {...process.env, PORT: '0'},
        stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const [url] = (await once(createInterface({input: child.stdout}), 'line')) as [string];
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connectMcpClient({url});
    try {
        assert.deepEqual((await client.callTool('look_up_star', {star: 'vega'})).content, ANSWER);
    } finally {
        await client.close();
    }
    const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
    };
    const response = await fetch(url, {
        method: 'POST',
        headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'look_up_star',
            'mcp-param-star': 'vega',
        },
        body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {name: 'look_up_star', arguments: {star: 'vega'}, _meta: meta},
        }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(((await response.json()) as {result: {content: unknown}}).result.content, ANSWER);
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null]);
});
