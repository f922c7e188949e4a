/**
 * Diagnostics load `node:util` on first use: through `process.getBuiltinModule` where Node has it,
 * and through a `require` on a Node 20 older than 20.16 or a Node 22 older than 22.3.
 */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {inspect} from 'node:util';
import {formatDiagnostic, inspectComplete, loadInspect} from '../../../lib/mcp/server/diagnostics.js';

describe('diagnostics', () => {
    test('load inspect through the getBuiltinModule they are given', () => {
        const asked: string[] = [];
        const marker = () => 'inspected';
        const loaded = loadInspect((id) => {
            asked.push(id);
            return {inspect: marker};
        });
        assert.equal(loaded, marker);
        assert.deepEqual(asked, ['node:util']);
    });

    test('load the real inspect through a require when Node has no getBuiltinModule', () => {
        assert.equal(loadInspect(undefined), inspect);
    });

    test('write a summary alone, or with the complete detail on the lines after it', () => {
        assert.equal(formatDiagnostic('Nothing to add'), '[arcane-os/mcp/stdio] Nothing to add\n');
        // Nothing shortened: a string past util.inspect's default 10,000 characters, an array past
        // its 100 items, an object past its depth of 2.
        const detail = {
            long: 'x'.repeat(20_000),
            many: Array.from({length: 150}, (_, i) => i),
            deep: {a: {b: {c: {d: 1}}}},
        };
        const complete = inspect(detail, {
            depth: Number.POSITIVE_INFINITY,
            maxArrayLength: Number.POSITIVE_INFINITY,
            maxStringLength: Number.POSITIVE_INFINITY,
            breakLength: 120,
            colors: false,
        });
        assert.ok(
            complete.includes('x'.repeat(20_000)) && complete.includes('149') && complete.includes('d: 1'),
        );
        assert.equal(formatDiagnostic('A detail', detail), `[arcane-os/mcp/stdio] A detail\n${complete}\n`);
        assert.equal(inspectComplete([1, 2]), '[ 1, 2 ]');
    });
});
