/**
 * Every relative link of README.md, CHANGELOG.md, docs/*.md and bench/*.md resolves: the file or
 * folder exists, and a `#anchor` (also one within the same page) names a heading of the target
 * page as GitHub anchors it. Links inside code are not links; external URLs are not followed.
 */
import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rm, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join, relative} from 'node:path';
import {test} from 'node:test';
import {anchors, docPages, isExternal, links, REPO_ROOT, readPage, slug} from './markdown.js';

/** What is wrong with each relative link of `page` (relative to `root`), one sentence each. */
async function brokenLinks(page: string, root: string): Promise<string[]> {
    const problems: string[] = [];
    for (const {target, line} of links(await readPage(page, root))) {
        if (isExternal(target)) continue;
        const hash = target.indexOf('#');
        const path = hash === -1 ? target : target.slice(0, hash);
        const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
        const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
        const where = `${page}:${line}: ${target}`;
        const found = await stat(file).catch(() => undefined);
        if (found === undefined) {
            problems.push(`${where}: ${relative(root, file)} does not exist`);
            continue;
        }
        if (anchor === undefined) continue;
        if (!found.isFile() || !file.endsWith('.md')) {
            problems.push(
                `${where}: an anchor needs a markdown page, and ${relative(root, file)} is not one`,
            );
        } else if (!anchors(await readPage(relative(root, file), root)).has(anchor)) {
            problems.push(`${where}: ${relative(root, file)} has no heading whose anchor is "${anchor}"`);
        }
    }
    return problems;
}

test('every relative link of the docs resolves, anchors included', async () => {
    const pages = await docPages();
    assert.ok(pages.includes('docs/server.md') && pages.includes('bench/LOG.md'), pages.join(', '));
    const problems = (await Promise.all(pages.map((page) => brokenLinks(page, REPO_ROOT)))).flat();
    assert.deepEqual(problems, []);
});

test('the link check reports a missing file, a missing anchor and an anchor into a folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'arcane-os-links-'));
    try {
        await mkdir(join(root, 'docs'));
        await writeFile(
            join(root, 'docs', 'a.md'),
            [
                '# Page A',
                '## `server.close({cancelPending})` and more',
                '## Repeated',
                '## Repeated',
                '[ok](b.md#b-heading) [ok](#serverclosecancelpending-and-more) [ok](#repeated-1) [ok](../docs/)',
                '[ok](https://example.com/x.md) `[not a link](missing.md)`',
                '```md',
                '[not a link either](missing.md)',
                '```',
                '[gone](missing.md) [no anchor](b.md#nowhere) [folder](../docs/#x) [self](#repeated-2)',
            ].join('\n'),
        );
        await writeFile(join(root, 'docs', 'b.md'), '# B heading\n');
        assert.deepEqual(await brokenLinks('docs/a.md', root), [
            'docs/a.md:10: missing.md: docs/missing.md does not exist',
            'docs/a.md:10: b.md#nowhere: docs/b.md has no heading whose anchor is "nowhere"',
            'docs/a.md:10: ../docs/#x: an anchor needs a markdown page, and docs is not one',
            'docs/a.md:10: #repeated-2: docs/a.md has no heading whose anchor is "repeated-2"',
        ]);
    } finally {
        await rm(root, {recursive: true, force: true});
    }
});

test('anchors are GitHub slugs: lower case, punctuation dropped, spaces as hyphens', () => {
    assert.equal(
        slug('Protocol eras: 2026-07-28 beside 2025-11-25'),
        'protocol-eras-2026-07-28-beside-2025-11-25',
    );
    assert.equal(slug('createMcpStdioServer(options)'), 'createmcpstdioserveroptions');
    assert.equal(slug('Desktop assistants: mcpServers JSON'), 'desktop-assistants-mcpservers-json');
});
