/**
 * The `resourceTemplates` option, captured once: each template parsed, its handler and completers,
 * and its descriptor serialized exactly as authored less `handler` and `complete`.
 */
import {describe} from '../../util/describe.js';
import {captureCompleters} from './completers.js';
import type {Completer, McpResourceTemplate, TemplateHandler} from './feature-types.js';
import {checkHandler, keyedEntries} from './option-entries.js';
import {toJson} from './settings.js';
import {UriTemplate} from './uri-template.js';

export interface TemplateEntry {
    readonly template: UriTemplate;
    readonly handler: TemplateHandler;
    readonly complete: ReadonlyMap<string, Completer>;
}

export interface CapturedTemplates {
    /** In catalog order: the order `resources/read` tries them. */
    readonly entries: readonly TemplateEntry[];
    /** The `resources/templates/list` array. */
    readonly json: string;
    /** Some template has a completer. */
    readonly completes: boolean;
}

export function captureTemplates(templates: unknown): CapturedTemplates {
    const captured: TemplateEntry[] = [];
    const descriptors: string[] = [];
    let completes = false;
    for (const {entry, key: source, label} of keyedEntries<McpResourceTemplate>(
        'resourceTemplates',
        templates,
        'uriTemplate',
    )) {
        const {handler, complete, ...descriptor} = entry;
        let template: UriTemplate;
        try {
            template = new UriTemplate(source);
        } catch (error) {
            throw new TypeError(`createMcpStdioServer: ${label}: ${(error as Error).message}`, {
                cause: error,
            });
        }
        if (typeof descriptor.name !== 'string') {
            throw new TypeError(
                `createMcpStdioServer: ${label} needs a "name" string, got ${describe(descriptor.name)}`,
            );
        }
        checkHandler<TemplateHandler>(label, handler);
        if (captured.some((other) => other.template.template === source)) {
            throw new TypeError(
                `createMcpStdioServer: ${label} repeats a uriTemplate; each template must be unique`,
            );
        }
        const completers = captureCompleters(label, complete, template.variables, 'variable');
        if (completers.size > 0) completes = true;
        captured.push({template, handler, complete: completers});
        descriptors.push(toJson(descriptor, label));
    }
    return {entries: captured, json: `[${descriptors.join(',')}]`, completes};
}
