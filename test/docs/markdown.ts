/**
 * What the docs tests read in a markdown page: its fenced code blocks (with the marks of their info
 * string), its headings as GitHub anchors, and its links. A small reader of the subset of markdown
 * these pages use, not a general parser.
 */
import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The pages the docs tests cover, relative to the repository root. */
export async function docPages(root = REPO_ROOT): Promise<string[]> {
    const inFolder = async (folder: string): Promise<string[]> =>
        (await readdir(join(root, folder)))
            .filter((name) => name.endsWith('.md'))
            .sort()
            .map((name) => `${folder}/${name}`);
    return ['README.md', 'CHANGELOG.md', ...(await inFolder('docs')), ...(await inFolder('bench'))];
}

export function readPage(page: string, root = REPO_ROOT): Promise<string> {
    return readFile(join(root, page), 'utf8');
}

export interface CodeBlock {
    /** The first word of the info string: `js`, `ts`, `sh`, `json`..., or '' when there is none. */
    lang: string;
    /** The other words: `run`, `no-check`, `file=<name>`. */
    marks: string[];
    /** The 1-based line of the opening fence. */
    line: number;
    /** The content, with the fence's indentation removed, ending with a line feed. */
    body: string;
}

/** A fence: three or more backticks, indented by at most three spaces (deeper inside list items). */
const FENCE = /^( *)(`{3,})(.*)$/;

/** Every fenced code block of `text`, in order. */
export function codeBlocks(text: string): CodeBlock[] {
    const blocks: CodeBlock[] = [];
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
        const open = FENCE.exec(lines[i] as string);
        if (open === null) continue;
        const [, indent = '', ticks = '', info = ''] = open;
        const [lang = '', ...marks] = info.trim().split(/\s+/).filter(Boolean);
        const body: string[] = [];
        let j = i + 1;
        for (; j < lines.length; j++) {
            const line = lines[j] as string;
            const close = /^ *(`{3,}) *$/.exec(line);
            if (close !== null && (close[1] as string).length >= ticks.length) break;
            body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
        }
        blocks.push({lang, marks, line: i + 1, body: body.length === 0 ? '' : `${body.join('\n')}\n`});
        i = j;
    }
    return blocks;
}

/** `text` with its fenced code blocks blanked (line count kept) and its inline code spans removed. */
function prose(text: string): string[] {
    const lines = text.split('\n');
    for (const block of codeBlocks(text)) {
        const end = block.line + block.body.split('\n').length - 1;
        for (let k = block.line - 1; k < end && k < lines.length; k++) lines[k] = '';
    }
    return lines.map((line) => line.replace(/(`+)[^`]*?\1/g, ''));
}

/** The anchor GitHub gives a heading's text: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
    return heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
        .replace(/ /g, '-');
}

/** The anchors of every heading of `text`; a repeated heading gets `-1`, `-2`... as on GitHub. */
export function anchors(text: string): Set<string> {
    const seen = new Map<string, number>();
    const found = new Set<string>();
    const lines = text.split('\n');
    const blanked = prose(text);
    for (const [k, line] of lines.entries()) {
        if (blanked[k] === '' && line !== '') continue;
        const heading = /^#{1,6} +(.+?) *#* *$/.exec(line);
        if (heading === null) continue;
        const base = slug((heading[1] as string).replace(/`/g, ''));
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        found.add(count === 0 ? base : `${base}-${count}`);
    }
    return found;
}

export interface Link {
    target: string;
    line: number;
}

/** Every inline link `[text](target)` of `text` outside code, with its line. */
export function links(text: string): Link[] {
    const found: Link[] = [];
    for (const [k, line] of prose(text).entries()) {
        for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
            found.push({target: match[1] as string, line: k + 1});
        }
    }
    return found;
}

/** Whether a link leaves the repository: a scheme (`https:`, `mailto:`) or a protocol-relative URL. */
export function isExternal(target: string): boolean {
    return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}
