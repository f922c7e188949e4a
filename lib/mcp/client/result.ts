/**
 * `readToolResult`: the value a `CallToolResult` carries, for callers that want data or text rather
 * than content blocks.
 *
 * - `isError: true` is a failure: it throws `McpToolError` (with the result attached), so a failed
 *   tool can never pass for an empty success.
 * - Otherwise `structuredContent`, when the result has an object there, is the value.
 * - Otherwise the text: one text block gives its string; any other number of text blocks gives
 *   their strings in order (an empty list when the tool returned no content).
 * - A result with neither structured content nor only text blocks (an image, audio, a resource)
 *   is not text: it throws a `TypeError` that names the block; read `result.content` for those.
 *
 * The value is the server's data, untrusted: show it or parse it, never run it.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {CallToolResult, JsonObject} from '../protocol/types.js';
import {McpToolError} from './errors.js';

/** What `readToolResult` returns. */
export type ToolValue = JsonObject | string | string[];

const SHOWN_CHARS = 500;

export function readToolResult(result: CallToolResult): ToolValue {
    if (!isObject(result) || !Array.isArray(result.content)) {
        throw new TypeError(
            `readToolResult(result) needs a CallToolResult with a "content" array, got ${describe(result)}`,
        );
    }
    const texts = result.content.map((block, index) => {
        if (isObject(block) && block.type === 'text' && typeof block.text === 'string') return block.text;
        if (result.isError === true || isObject(result.structuredContent)) return undefined;
        const what =
            isObject(block) && typeof block.type === 'string'
                ? `has type ${JSON.stringify(block.type)}`
                : `is not a content block (${describe(block)})`;
        throw new TypeError(
            `readToolResult: content[${index}] ${what} and the result has no structuredContent; ` +
                'this helper reads structured content or text only, so read result.content for other blocks',
        );
    });
    if (result.isError === true) {
        const said = texts.filter((text) => text !== undefined).join('\n');
        const shown = said.length > SHOWN_CHARS ? `${said.slice(0, SHOWN_CHARS)}…` : said;
        throw new McpToolError(
            shown === ''
                ? 'The tool reported an error without a message'
                : `The tool reported an error: ${shown}`,
            result,
        );
    }
    if (isObject(result.structuredContent)) return result.structuredContent;
    const strings = texts as string[];
    return strings.length === 1 ? (strings[0] as string) : strings;
}
