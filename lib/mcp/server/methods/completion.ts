/**
 * `completion/complete`, in both eras, served only when some prompt or template has a completer:
 * the completer of a prompt argument (`ref/prompt`) or a template variable (`ref/resource`).
 */
import {isObject} from '../../../jsonrpc/records.js';
import {Call} from '../call.js';
import {ErrorCode} from '../errors.js';
import {fail} from '../failures.js';
import type {Completer} from '../feature-types.js';
import type {Dispatch, MethodHandler} from './dispatch.js';

interface Target {
    /** The argument or variable names of the ref. */
    readonly names: readonly string[];
    readonly complete: ReadonlyMap<string, Completer>;
    /** `prompt "name"` or `template "uri"`. */
    readonly label: string;
    readonly what: 'argument' | 'variable';
}

export const complete: MethodHandler = (session, id, params, era, client) => {
    const refused = (message: string): void => fail(session.output, id, ErrorCode.InvalidParams, message);
    const ref = params?.ref;
    const argument = params?.argument;
    if (
        params === undefined ||
        !isObject(argument) ||
        typeof argument.name !== 'string' ||
        typeof argument.value !== 'string'
    ) {
        refused('completion/complete needs "params.argument" with "name" and "value" strings');
        return;
    }
    const target = targetOf(session, ref);
    if (typeof target === 'string') {
        refused(target);
        return;
    }
    const name = argument.name;
    if (!target.names.includes(name)) {
        refused(`completion/complete: ${target.label} has no ${target.what} ${JSON.stringify(name)}`);
        return;
    }
    const chosen = isObject(params.context) ? params.context.arguments : undefined;
    if (
        chosen !== undefined &&
        !(isObject(chosen) && Object.values(chosen).every((v) => typeof v === 'string'))
    ) {
        refused('completion/complete "params.context.arguments" must be an object of string values');
        return;
    }
    const completer = target.complete.get(name);
    const value = argument.value;
    const described = `${target.what} ${JSON.stringify(name)} of ${target.label}`;
    const call = new Call(id, 'completion/complete', params, described, era, client, session.calls, {
        arguments: Object.freeze({...(chosen as Record<string, string> | undefined)}),
    });
    // A declared argument without a completer has no suggestions: an empty list, not an error.
    session.calls.run(call, completer ?? noSuggestions, value);
};

const noSuggestions = (): string[] => [];

/** The prompt or template a ref names, or why it names none. */
function targetOf(session: Dispatch, ref: unknown): Target | string {
    if (isObject(ref) && ref.type === 'ref/prompt' && typeof ref.name === 'string') {
        const prompt = session.catalog.prompts.get(ref.name);
        if (prompt === undefined) return `completion/complete: unknown prompt ${JSON.stringify(ref.name)}`;
        const label = `prompt ${JSON.stringify(ref.name)}`;
        return {names: prompt.arguments, complete: prompt.complete, label, what: 'argument'};
    }
    if (isObject(ref) && ref.type === 'ref/resource' && typeof ref.uri === 'string') {
        const uri = ref.uri;
        const entry = session.catalog.templates.find((candidate) => candidate.template.template === uri);
        if (entry === undefined) {
            return `completion/complete: no resource template has the uriTemplate ${JSON.stringify(uri)}`;
        }
        const label = `template ${JSON.stringify(uri)}`;
        return {names: entry.template.variables, complete: entry.complete, label, what: 'variable'};
    }
    return (
        'completion/complete needs "params.ref" to be {"type": "ref/prompt", "name"} or ' +
        '{"type": "ref/resource", "uri"} with string values'
    );
}
