/**
 * RFC 6570 URI templates read backwards: whether a uri is one a template expands to, and with
 * which variables. Every operator of level 3 is understood (`{id}`, `{+path}`, `{#frag}`, `{.ext}`,
 * `{/seg}`, `{;p}`, `{?q,lang}`, `{&more}`), with the prefix (`{id:3}`) and explode (`{/path*}`)
 * modifiers of level 4; an exploded variable matches a list of values.
 *
 * Matching is a single anchored regular expression: each expression captures its whole text, which
 * is then split into its variables. A variable left undefined at expansion is absent from the
 * result (a query variable not present, say); a value that is not valid percent-encoding, or longer
 * than its prefix allows, is no match.
 */

/** How one operator expands, after RFC 6570 section 3.2.1's table. */
interface Operator {
    /** What the expansion starts with when it is not empty. */
    readonly first: string;
    readonly separator: string;
    /** `name=value` pairs (`;`, `?`, `&`). */
    readonly named: boolean;
    /** The capture for this operator's whole expansion. */
    readonly pattern: string;
}

const OPERATORS: {readonly [operator: string]: Operator} = {
    '': {first: '', separator: ',', named: false, pattern: '([^/?#]*)'},
    '+': {first: '', separator: ',', named: false, pattern: '(.*?)'},
    '#': {first: '#', separator: ',', named: false, pattern: '((?:#.*?)?)'},
    '.': {first: '.', separator: '.', named: false, pattern: '((?:\\.[^/?#.]*)*)'},
    '/': {first: '/', separator: '/', named: false, pattern: '((?:/[^/?#]*)*)'},
    ';': {first: ';', separator: ';', named: true, pattern: '((?:;[^/?#;]*)*)'},
    '?': {first: '?', separator: '&', named: true, pattern: '((?:\\?[^#]*)?)'},
    '&': {first: '&', separator: '&', named: true, pattern: '((?:&[^#]*)?)'},
};

const RESERVED_OPERATORS = '=,!@|';
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;
/** Characters RFC 6570 does not allow in a literal (`%` only as a percent-encoded triplet). */
const BAD_LITERAL = /[\s"'<>\\^`|]|%(?![0-9A-Fa-f]{2})/;

interface Variable {
    readonly name: string;
    readonly explode: boolean;
    /** The `:n` prefix length, or 0 for none. */
    readonly prefix: number;
}

interface Expression {
    readonly operator: Operator;
    readonly variables: readonly Variable[];
}

export type TemplateVariables = Record<string, string | readonly string[]>;

export class UriTemplate {
    readonly template: string;
    /** The variable names, in the order the template names them. */
    readonly variables: readonly string[];
    readonly #expressions: readonly Expression[];
    readonly #regex: RegExp;

    /** Throws a `TypeError` saying what is wrong with an invalid template. */
    constructor(template: string) {
        this.template = template;
        const expressions: Expression[] = [];
        const names: string[] = [];
        let source = '^';
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
            source += escapeRegExp(literal);
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
            source += expression.operator.pattern;
            at = end + 1;
        }
        this.variables = Object.freeze(names);
        this.#expressions = expressions;
        this.#regex = new RegExp(`${source}$`, 's');
    }

    /** The decoded variables when `uri` is an expansion of this template, else `undefined`. */
    match(uri: string): TemplateVariables | undefined {
        const found = this.#regex.exec(uri);
        if (found === null) return undefined;
        const values: [string, string | readonly string[]][] = [];
        for (const [index, expression] of this.#expressions.entries()) {
            if (!readExpression(expression, found[index + 1] as string, values)) return undefined;
        }
        // fromEntries defines own properties, so a variable named `__proto__` stays a variable.
        return Object.fromEntries(values);
    }
}

function invalid(template: string, why: string): never {
    throw new TypeError(`${JSON.stringify(template)} is not a valid RFC 6570 URI template: ${why}`);
}

function escapeRegExp(text: string): string {
    return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function parseExpression(template: string, body: string): Expression {
    if (body === '') invalid(template, 'it has an empty expression "{}"');
    let operatorChar = body[0] as string;
    if (RESERVED_OPERATORS.includes(operatorChar)) {
        invalid(
            template,
            `the operator "${operatorChar}" in "{${body}}" is reserved by RFC 6570 for future use`,
        );
    }
    let operator = OPERATORS[operatorChar];
    if (operator === undefined) {
        operatorChar = '';
        operator = OPERATORS[''] as Operator;
    }
    const variables = body
        .slice(operatorChar.length)
        .split(',')
        .map((spec): Variable => {
            let name = spec;
            let explode = false;
            let prefix = 0;
            if (spec.endsWith('*')) {
                explode = true;
                name = spec.slice(0, -1);
            } else {
                const colon = spec.indexOf(':');
                if (colon !== -1) {
                    const length = spec.slice(colon + 1);
                    if (!PREFIX.test(length)) {
                        invalid(
                            template,
                            `the prefix ":${length}" in "{${body}}" must be a length from 1 to 9999`,
                        );
                    }
                    name = spec.slice(0, colon);
                    prefix = Number(length);
                }
            }
            if (!VARNAME.test(name)) {
                invalid(
                    template,
                    `${JSON.stringify(name)} in "{${body}}" is not a variable name (letters, digits, "_", ` +
                        'percent-encoded triplets, and "." between them)',
                );
            }
            return {name, explode, prefix};
        });
    return {operator, variables};
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
