/** Short descriptions of values for the messages of programmer errors. */

/** A short, human description of a value, for error messages. */
export function describe(value: unknown): string {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'an array';
    switch (typeof value) {
        case 'string':
            return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
        case 'number':
        case 'bigint':
        case 'boolean':
            return `${typeof value} ${String(value)}`;
        case 'undefined':
            return 'undefined';
        case 'function':
            return 'a function';
        case 'symbol':
            return 'a symbol';
        default:
            return 'an object';
    }
}
