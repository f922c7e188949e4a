/**
 * The process-group helpers of the stdio transport: a group is alive while a member lives and is
 * not a zombie, and signalling a group that is gone says so instead of throwing.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {test} from 'node:test';
import {groupAlive, OWN_GROUP, signalGroup} from '../../../lib/mcp/client/group.js';
import {GUARD} from './support.js';

test('a group lives until its last member is killed; then signalling it reports false', {
    ...GUARD,
    skip: OWN_GROUP ? false : 'process groups are POSIX',
}, async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], {
        detached: true,
        stdio: 'ignore',
    });
    await once(child, 'spawn');
    const group = child.pid as number;
    assert.equal(await groupAlive(group), true);
    const exited = once(child, 'exit');
    assert.equal(signalGroup(group, 'SIGKILL'), true);
    assert.deepEqual(await exited, [null, 'SIGKILL']);
    assert.equal(await groupAlive(group), false);
    assert.equal(signalGroup(group, 'SIGTERM'), false);
});
