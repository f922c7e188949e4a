/**
 * Our client answering this package's own server when a tool asks (elicitation, then sampling):
 * by server requests in the legacy era and by input rounds in 2026-07-28, the work done once.
 */
import assert from 'node:assert/strict';
import {afterEach, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {VersionNegotiation} from '../../../lib/mcp/client/index.js';
import {connectMcpClient, readToolResult} from '../../../lib/mcp/client/index.js';
import {closeAll, track} from '../../helpers/children.js';
import {GUARD, Wire} from './support.js';

afterEach(closeAll);

const ASKING = fileURLToPath(new URL('./fixtures/asking-server.js', import.meta.url));

for (const [negotiation, era] of [
    ['legacy', 'legacy'],
    ['auto', 'modern'],
] as const) {
    test(`a tool that asks is answered in the ${era} era`, GUARD, async () => {
        const wire = new Wire();
        const asked: string[] = [];
        const client = await connectMcpClient({
            command: process.execPath,
            args: [ASKING],
            stderr: wire.stderr,
            versionNegotiation: negotiation as VersionNegotiation,
            handlers: {
                elicitation: {
                    form: (params) => {
                        asked.push(`elicit ${String(params.message)}`);
                        return {action: 'accept', content: {yes: true}};
                    },
                },
                sampling: () => {
                    asked.push('sample');
                    return {role: 'assistant', content: {type: 'text', text: 'gone'}, model: 'm'};
                },
            },
        }).then(track);
        assert.equal(client.era, era);
        assert.equal(readToolResult(await client.callTool('confirm', {path: '/tmp/x'})), 'deleted; gone');
        assert.deepEqual(asked, ['elicit Delete /tmp/x?', 'sample']);
        await client.close();
        assert.deepEqual(
            wire.lines.filter((line) => line.startsWith('done ')),
            ['done /tmp/x'],
        );
    });
}
