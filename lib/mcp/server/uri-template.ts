/**
 * RFC 6570 URI templates read backwards: whether a uri is one a template expands to, and with
 * which variables. Every operator of level 3 is understood (`{id}`, `{+path}`, `{#frag}`, `{.ext}`,
 * `{/seg}`, `{;p}`, `{?q,lang}`, `{&more}`), with the prefix (`{id:3}`) and explode (`{/path*}`)
 * modifiers of level 4; an exploded variable matches a list of values.
 *
 * Matching takes time linear in the uri, whatever the template: a uri is untrusted input, and a
 * backtracking regular expression over adjacent expressions (`{a}{b}{c}`) is polynomial in it.
 * Each expression's whole text is found first, as a leftmost regular-expression match would find
 * it (see `uri-template-split.ts`), then split into its variables. A variable left undefined at expansion is
 * absent from the result (a query variable not present, say); a value that is not valid
 * percent-encoding, or longer than its prefix allows, is no match.
 */
import {splitUri} from './uri-template-split.js';
import type {Expression, Variable} from './uri-template-syntax.js';
import {BAD_LITERAL, invalid, parseExpression} from './uri-template-syntax.js';

export type TemplateVariables = Record<string, string | readonly string[]>;

export class UriTemplate {
    readonly template: string;
    /** The variable names, in the order the template names them. */
    readonly variables: readonly string[];
    readonly #expressions: readonly Expression[];
    /** Literal text and expressions, in template order. */
    readonly #parts: readonly (string | Expression)[];

    /** Throws a `TypeError` saying what is wrong with an invalid template. */
    constructor(template: string) {
        this.template = template;
        const expressions: Expression[] = [];
        const names: string[] = [];
        const parts: (string | Expression)[] = [];
        let at = 0;
        while (at < template.length) {
            const open = template.indexOf('{', at);
            const literal = template.slice(at, open === -1 ? undefined : open);
            const close = literal.indexOf('}');
            if (close !== -1) invalid(template, `a "}" at position ${at + close} closes no "{"`);
            const bad = BAD_LITERAL.exec(literal);
            if (bad !== null) {
                invalid(
                    template,
                    `${JSON.stringify(bad[0])} at position ${at + bad.index} is not allowed outside an expression`,
                );
            }
            if (literal !== '') parts.push(literal);
            if (open === -1) break;
            const end = template.indexOf('}', open);
            if (end === -1) invalid(template, `the "{" at position ${open} is never closed`);
            const expression = parseExpression(template, template.slice(open + 1, end));
            for (const variable of expression.variables) {
                if (names.includes(variable.name)) {
                    invalid(
                        template,
                        `the variable "${variable.name}" appears twice; each variable must have one value`,
                    );
                }
                names.push(variable.name);
            }
            expressions.push(expression);
            parts.push(expression);
            at = end + 1;
        }
        this.variables = Object.freeze(names);
        this.#expressions = expressions;
        this.#parts = parts;
    }

    /** The decoded variables when `uri` is an expansion of this template, else `undefined`. */
    match(uri: string): TemplateVariables | undefined {
        const found = splitUri(this.#parts, uri);
        if (found === undefined) return undefined;
        const values: [string, string | readonly string[]][] = [];
        for (const [index, expression] of this.#expressions.entries()) {
            if (!readExpression(expression, found[index] as string, values)) return undefined;
        }
        // fromEntries defines own properties, so a variable named `__proto__` stays a variable.
        return Object.fromEntries(values);
    }
}

/** Splits one expression's matched text into `values`; false when it cannot be this expression's. */
function readExpression(
    expression: Expression,
    text: string,
    values: [string, string | readonly string[]][],
): boolean {
    const {operator, variables} = expression;
    if (operator.named) return readNamed(expression, text, values);
    if (text === '') {
        // An empty simple or reserved expansion: the first variable was empty (or undefined).
        if (operator.first === '') values.push([(variables[0] as Variable).name, '']);
        return true;
    }
    const parts = text.slice(operator.first.length).split(operator.separator);
    for (const [index, variable] of variables.entries()) {
        if (index >= parts.length) break;
        const last = index === variables.length - 1;
        if (variable.explode && last) {
            const list = decodeAll(parts.slice(index));
            if (list === undefined) return false;
            values.push([variable.name, Object.freeze(list)]);
            return true;
        }
        // A single non-exploded variable takes the whole text: a client may have left its separator unencoded.
        const raw = variables.length === 1 ? text.slice(operator.first.length) : (parts[index] as string);
        const value = decode(raw, variable);
        if (value === undefined) return false;
        values.push([variable.name, variable.explode ? Object.freeze([value]) : value]);
        if (variables.length === 1) return true;
    }
    return parts.length <= variables.length;
}

/** `;a=1;b`, `?a=1&b=2`, `&a=1`: pairs by name, each a declared variable. */
function readNamed(
    expression: Expression,
    text: string,
    values: [string, string | readonly string[]][],
): boolean {
    if (text === '') return true;
    const found = new Map<string, string[]>();
    for (const pair of text.slice(1).split(expression.operator.separator)) {
        const equals = pair.indexOf('=');
        const name = equals === -1 ? pair : pair.slice(0, equals);
        const variable = expression.variables.find((candidate) => candidate.name === name);
        if (variable === undefined) return false;
        const value = decode(equals === -1 ? '' : pair.slice(equals + 1), variable);
        if (value === undefined) return false;
        const seen = found.get(name);
        if (seen === undefined) found.set(name, [value]);
        else if (variable.explode) seen.push(value);
        else return false;
    }
    for (const variable of expression.variables) {
        const list = found.get(variable.name);
        if (list !== undefined) {
            values.push([variable.name, variable.explode ? Object.freeze(list) : (list[0] as string)]);
        }
    }
    return true;
}

function decode(raw: string, variable: Variable): string | undefined {
    let value: string;
    try {
        value = decodeURIComponent(raw);
    } catch {
        return undefined;
    }
    if (variable.prefix > 0 && [...value].length > variable.prefix) return undefined;
    return value;
}

function decodeAll(raws: string[]): string[] | undefined {
    const list: string[] = [];
    for (const raw of raws) {
        try {
            list.push(decodeURIComponent(raw));
        } catch {
            return undefined;
        }
    }
    return list;
}
