/**
 * `requestState` is sealed with `node:crypto`, which is loaded when the first state is sealed or
 * opened: through `process.getBuiltinModule` where Node has it, through a `require` otherwise. A
 * server that never seals one, any legacy-era server, never loads it.
 */
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import {join} from 'node:path';
import {describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {loadCrypto} from '../../../lib/mcp/server/asking/state.js';
import {REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';

describe('the crypto of requestState', () => {
    test('load through the getBuiltinModule they are given', () => {
        const asked: string[] = [];
        const marker = {createHmac: () => 'sealed'};
        const loaded = loadCrypto((id) => {
            asked.push(id);
            return marker;
        });
        assert.equal(loaded, marker);
        assert.deepEqual(asked, ['node:crypto']);
    });

    test('load the real node:crypto through a require when Node has no getBuiltinModule', () => {
        assert.equal(loadCrypto(undefined).createHmac, crypto.createHmac);
    });

    test('stay unloaded by a stdio server that answers calls in both eras without asking', async () => {
        const entry = pathToFileURL(join(REPO_ROOT, 'dist/bundle/mcp/stdio.js')).href;
        const program = `
            import {PassThrough} from 'node:stream';
            const {createMcpStdioServer} = await import(${JSON.stringify(entry)});
            const input = new PassThrough();
            const output = new PassThrough();
            const error = new PassThrough();
            error.resume();
            let answers = '';
            output.setEncoding('utf8').on('data', (text) => { answers += text; });
            const server = createMcpStdioServer({
                serverInfo: {name: 'lazy', version: '1.0.0'},
                protocolVersions: ['2026-07-28', '2025-11-25'],
                tools: [{name: 'echo', inputSchema: {type: 'object'}, handler: () => ({content: []})}],
            }).start({input, output, error});
            const meta = {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
            };
            input.end(
                JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'echo', _meta: meta}}) + '\\n' +
                JSON.stringify({jsonrpc: '2.0', id: 2, method: 'initialize', params: {
                    protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'c', version: '1'}}}) + '\\n' +
                JSON.stringify({jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'echo'}}) + '\\n',
            );
            await server.closed;
            console.log(JSON.stringify({
                answers: answers.trim().split('\\n').map((line) => JSON.parse(line).id),
                crypto: process.moduleLoadList.filter((name) => /crypto/.test(name)),
            }));
        `;
        const finished = await runNode(['--input-type=module', '-e', program], {cwd: REPO_ROOT});
        assert.equal(finished.stderr, '');
        assert.deepEqual(JSON.parse(finished.stdout), {answers: [1, 2, 3], crypto: []});
    });
});
