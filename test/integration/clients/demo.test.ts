/**
 * `npm run demo` (`node scripts/demo.mjs`) is the README's first command: it must run to the end,
 * exit 0 and print its transcript.
 */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {test} from 'node:test';
import {REPO_ROOT} from '../../helpers/paths.js';
import {runNode} from '../../helpers/process.js';

test('the demo drives the observatory (a destructive tool confirmed by the user included), then the star atlas, with the SDK client, prints its transcript and exits 0', {
    timeout: 60_000,
}, async () => {
    const {code, stdout, stderr} = await runNode([join(REPO_ROOT, 'scripts/demo.mjs')], {cwd: REPO_ROOT});
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const lines = stdout.split('\n');
    const expected = [
        'arcane-os/mcp/stdio demo: the official MCP SDK client runs "node examples/observatory.mjs"',
        '← observatory 1.0.0, protocol revision 2025-11-25',
        '  offers: resources, tools',
        '  sky.tonight      What can be seen from the observatory tonight. [outputSchema, icon]',
        "  journal.delete   Delete one night's entry from the observing journal, once the user confirms.",
        '  observatory://plates/m31.png  image/png  Photographic plate of M31',
        '← text: La Palma: Moon, Jupiter, Saturn visible; seeing 4/5.',
        '  structuredContent (the client checked it against outputSchema): ' +
            '{"site":"La Palma","moonPhase":"waxing gibbous","visible":["Moon","Jupiter","Saturn"],"seeing":4}',
        '← image: image/png, 88 bytes',
        '← audio: audio/wav, 364 bytes',
        '← resource_link: observatory://catalog',
        '← resource: observatory://notes/tonight "Clear skies, light wind."',
        '  isError: true (a domain failure, reported as a result)',
        '← application/json: Moon, Jupiter, Saturn, Andromeda Galaxy',
        '  server stderr: observatory: survey 7 started: 20 sectors',
        '  [####################] 20/20 Scanned sector 20 of 20',
        '← text: Surveyed 20 sectors.',
        '  server stderr: observatory: survey 7 finished',
        '  server stderr: observatory: survey 8 started: 10000 sectors',
        '→ notifications/cancelled  (the client aborted its AbortSignal with "the user pressed stop")',
        "  callTool rejected with the client's own local error (the server sent nothing): MCP error -32001: the user pressed stop",
        '→ ping  ← answered, and still no response to request 8: a cancelled request is never answered',
        'journal.delete is destructive: its handler asks the user to confirm before it deletes anything.',
        ...[
            [
                '  → the user answers decline',
                'Nothing was deleted: the user chose "decline". The journal keeps 2 entries: 2026-11-28, 2026-11-29.',
            ],
            [
                '  → the user answers accept {"confirm":true}',
                'Deleted the entry of 2026-11-28. The journal keeps 1 entry: 2026-11-29.',
            ],
        ].flatMap(([answer, result]) => [
            '→ tools/call journal.delete {"date":"2026-11-28"}',
            '  ← elicitation/create: Delete the journal entry of 2026-11-28 ("Jupiter: the Great Red Spot crossed the meridian at 23:10.")? This cannot be undone.',
            '    form field confirm: boolean "Delete the entry", default false',
            answer as string,
            `← text: ${result}`,
        ]),
        "→ close: the client ends the server's stdin, and the server drains and exits",
        'arcane-os/mcp/stdio demo, part two: the SDK client runs "node examples/star-atlas.mjs"',
        '← star-atlas 1.0.0',
        '  offers: completions, prompts, resources, tools',
        '  atlas.distance  id* m13|m31|m42|m45|m57; unit ly|pc (default "ly")',
        '→ tools/call atlas.distance {"id":"m42","unit":"pc"}',
        '← text: Orion Nebula is 412.1 pc away.',
        '  structuredContent: {"id":"m42","name":"Orion Nebula","distance":412.1,"unit":"pc"}',
        '→ tools/call atlas.distance {"id":"m42"}',
        '← text: Orion Nebula is 1344 ly away.',
        '  structuredContent: {"id":"m42","name":"Orion Nebula","distance":1344,"unit":"ly"}',
        "  (no unit given: the schema's default reached the handler)",
        '→ tools/call atlas.distance {"id":"m99"}',
        '← text: Invalid arguments for tool "atlas.distance":',
        '- id: Invalid option: expected one of "m13"|"m31"|"m42"|"m45"|"m57"',
        '  isError: true (the schema refused the arguments; the handler never ran)',
        '  observe(object*, instrument)  Asks for an observing plan for one catalogued object.',
        '→ completion/complete observe object="m4"',
        '← m42, m45',
        '→ prompts/get observe {"object":"m42"}',
        '← user: resource atlas://objects/m42',
        "← user: Plan tonight's observation of the Orion Nebula (m42); instrument: telescope.",
        '  atlas://objects/{id}  application/json  Catalogued object',
        '→ completion/complete atlas://objects/{id} id="m1"',
        '← m13',
        '→ resources/read atlas://objects/m45',
        '← application/json: {"id":"m45","name":"Pleiades","kind":"open cluster","lightYears":444}',
        "→ close: the client ends the server's stdin, and the server drains and exits",
    ];
    // Each expected line appears, in this order.
    let from = 0;
    for (const line of expected) {
        const at = lines.indexOf(line, from);
        assert.notEqual(at, -1, `missing, or out of order: ${JSON.stringify(line)}\n${stdout}`);
        from = at + 1;
    }
    // The cancelled call stops mid-way, after the progress the demo waited for.
    const stoppedAt =
        /\n {2}\[\.{20}\] (\d+)\/10000 Scanned sector \1 of 10000\n→ notifications\/cancelled/.exec(stdout);
    assert.ok(stoppedAt !== null, stdout);
    assert.ok(Number(stoppedAt[1]) >= 3, stdout);
    assert.match(
        stdout,
        /\n {2}server stderr: observatory: survey 8 stopped after \d+ sectors: the user pressed stop\n/,
    );
});
