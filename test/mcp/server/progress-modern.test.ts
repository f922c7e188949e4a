/**
 * Progress under 2026-07-28: the token rides in the same `params._meta` as the per-request
 * protocol version and client capabilities, and the notifications are byte for byte those of the
 * earlier revisions.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {describe, test} from 'node:test';
import type {HandlerContext, McpTool} from '../../../lib/mcp/stdio/index.js';
import {Gate} from '../../helpers/deferred.js';
import {finish, lines, progressLine, serverInfo} from '../../helpers/progress.js';
import {text, tool} from '../../helpers/session.js';
import type {Harness} from '../../helpers/streams.js';
import {harness} from '../../helpers/streams.js';

const ENVELOPE = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
};

const SERVER_META = `"_meta":{"io.modelcontextprotocol/serverInfo":${JSON.stringify(serverInfo)}}`;

function modernServer(gate: Gate<HandlerContext>): Harness {
    return harness({
        serverInfo,
        protocolVersions: ['2026-07-28', '2025-11-25'],
        tools: [tool('work', gate.handler as McpTool['handler'])],
        resources: [{uri: 'report://r', name: 'r', handler: gate.handler as never}],
    });
}

function modernCall(h: Harness, id: string | number, extra: Record<string, unknown>): void {
    h.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {name: 'work', _meta: {...ENVELOPE, ...extra}},
    });
}

describe('progress under 2026-07-28', () => {
    test('a token beside the envelope gets the same notifications, before the modern result', async () => {
        const gate = new Gate<HandlerContext>();
        const h = modernServer(gate);
        modernCall(h, 1, {progressToken: 'm-1'});
        modernCall(h, 2, {progressToken: 0});
        await gate.started(2);
        const [first, second] = [gate.call(0), gate.call(1)];
        assert.equal(first.context.protocolVersion, '2026-07-28');
        assert.equal(first.context.reportProgress({progress: 1, total: 2, message: 'half'}), true);
        await h.output.waitForLines(1);
        assert.equal(second.context.reportProgress({progress: 0}), true);
        await h.output.waitForLines(2);
        first.done.resolve(text('one'));
        second.done.resolve(text('two'));
        await h.output.waitForLines(4);
        assert.deepEqual(lines(h), [
            '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"m-1","progress":1,"total":2,"message":"half"}}',
            progressLine(0, 0),
            `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",${SERVER_META},"content":[{"type":"text","text":"one"}]}}`,
            `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete",${SERVER_META},"content":[{"type":"text","text":"two"}]}}`,
        ]);
        await finish(h);
    });

    test('no token, or a malformed one, means no notifications; the call is answered as usual', async () => {
        const gate = new Gate<HandlerContext>();
        const h = modernServer(gate);
        modernCall(h, 1, {});
        modernCall(h, 2, {progressToken: 2.5});
        await gate.started(2);
        assert.equal(gate.call(0).context.reportProgress({progress: 1}), false);
        assert.equal(gate.call(1).context.reportProgress({progress: 1}), false);
        gate.call(0).done.resolve(text('one'));
        gate.call(1).done.resolve(text('two'));
        await h.output.waitForLines(2);
        assert.deepEqual(
            lines(h).map((line) => (JSON.parse(line) as {id?: unknown}).id),
            [1, 2],
        );
        assert.equal(
            h.errors.text,
            '[arcane-os/mcp/stdio] Sent no progress for tools/call of tool "work" (request id 2): ' +
                'its params._meta.progressToken is number 2.5, and a progress token must be a string or an integer\n',
        );
        await finish(h);
    });

    test('a resource read reports progress the same way', async () => {
        const gate = new Gate<HandlerContext>();
        const h = modernServer(gate);
        h.send({
            jsonrpc: '2.0',
            id: 'read',
            method: 'resources/read',
            params: {uri: 'report://r', _meta: {...ENVELOPE, progressToken: 'r-1'}},
        });
        await gate.started(1);
        assert.equal(gate.call(0).context.reportProgress({progress: 3, total: 4}), true);
        gate.call(0).done.resolve({contents: [{uri: 'report://r', text: 'ok'}]});
        await h.output.waitForLines(2);
        assert.deepEqual(lines(h), [
            progressLine('r-1', 3, 4),
            `{"jsonrpc":"2.0","id":"read","result":{"resultType":"complete",${SERVER_META},` +
                '"contents":[{"uri":"report://r","text":"ok"}],"ttlMs":0,"cacheScope":"private"}}',
        ]);
        await finish(h);
    });

    test('a cancel withdraws the waiting notification and ends progress', async () => {
        const gate = new Gate<HandlerContext>();
        const h = modernServer(gate);
        modernCall(h, 1, {progressToken: 'c'});
        await gate.started(1);
        const {reportProgress, signal} = gate.call(0).context;
        h.output.hold = true;
        reportProgress({progress: 1});
        reportProgress({progress: 2});
        const aborted = once(signal, 'abort');
        h.send({jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 1}});
        await aborted;
        assert.equal(reportProgress({progress: 3}), false);
        h.output.hold = false;
        h.output.release();
        gate.call(0).done.reject(signal.reason);
        await h.server.drain();
        assert.deepEqual(lines(h), [progressLine('c', 1)]);
        await finish(h);
    });
});
