/** RFC 6570 template syntax: the operators, and one expression parsed or refused with a `TypeError`. */

/** How one operator expands, after RFC 6570 section 3.2.1's table. */
export interface Operator {
    /** What the expansion starts with when it is not empty. */
    readonly first: string;
    readonly separator: string;
    /** `name=value` pairs (`;`, `?`, `&`). */
    readonly named: boolean;
    /** Characters the expansion cannot hold after its first one (they end it). */
    readonly stops: string;
    /** The shortest expansion is preferred to the longest (`+` and `#` reach across anything). */
    readonly lazy: boolean;
}

export const OPERATORS: {readonly [operator: string]: Operator} = {
    '': {first: '', separator: ',', named: false, stops: '/?#', lazy: false},
    '+': {first: '', separator: ',', named: false, stops: '', lazy: true},
    '#': {first: '#', separator: ',', named: false, stops: '', lazy: true},
    '.': {first: '.', separator: '.', named: false, stops: '/?#', lazy: false},
    '/': {first: '/', separator: '/', named: false, stops: '?#', lazy: false},
    ';': {first: ';', separator: ';', named: true, stops: '/?#', lazy: false},
    '?': {first: '?', separator: '&', named: true, stops: '#', lazy: false},
    '&': {first: '&', separator: '&', named: true, stops: '#', lazy: false},
};

const RESERVED_OPERATORS = '=,!@|';
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;
/** Characters RFC 6570 does not allow in a literal (`%` only as a percent-encoded triplet). */
export const BAD_LITERAL = /[\s"'<>\\^`|]|%(?![0-9A-Fa-f]{2})/;

export interface Variable {
    readonly name: string;
    readonly explode: boolean;
    /** The `:n` prefix length, or 0 for none. */
    readonly prefix: number;
}

export interface Expression {
    readonly operator: Operator;
    readonly variables: readonly Variable[];
}

export function invalid(template: string, why: string): never {
    throw new TypeError(`${JSON.stringify(template)} is not a valid RFC 6570 URI template: ${why}`);
}

export function parseExpression(template: string, body: string): Expression {
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
