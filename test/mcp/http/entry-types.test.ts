/** The HTTP entry names every catalog type the stdio entry names: one catalog module serves both. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type * as Http from '../../../lib/mcp/http/index.js';
import type * as Stdio from '../../../lib/mcp/stdio/index.js';

/** True only when the two types are the same both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

test('the catalog types of the HTTP entry are those of the stdio entry', () => {
    const same: [
        Same<Http.ToolAnnotations, Stdio.ToolAnnotations>,
        Same<Http.Icon, Stdio.Icon>,
        Same<Http.TextContent, Stdio.TextContent>,
        Same<Http.ResourceLink, Stdio.ResourceLink>,
        Same<Http.ToolDescriptor, Stdio.ToolDescriptor>,
        Same<Http.PromptDescriptor, Stdio.PromptDescriptor>,
        Same<Http.ResourceTemplateDescriptor, Stdio.ResourceTemplateDescriptor>,
        Same<Http.StandardIssue, Stdio.StandardIssue>,
        Same<Http.HandlerMethod, Stdio.HandlerMethod>,
        Same<Http.McpTool, Stdio.McpTool>,
    ] = [true, true, true, true, true, true, true, true, true, true];
    assert.equal(same.length, 10);
});
