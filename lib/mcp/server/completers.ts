/** The `complete` field of a prompt or template: completers by the argument or variable they serve. */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import type {Completer} from './feature-types.js';

/**
 * The completers of one entry, each checked to be a function serving one of `names` (the declared
 * arguments or variables); `what` names them in errors ("argument", "variable").
 */
export function captureCompleters(
    label: string,
    value: unknown,
    names: readonly string[],
    what: string,
): ReadonlyMap<string, Completer> {
    const completers = new Map<string, Completer>();
    if (value === undefined) return completers;
    if (!isObject(value)) {
        throw new TypeError(
            `createMcpStdioServer: ${label} needs "complete" to be an object of completer functions by ${what} name, ` +
                `got ${describe(value)}`,
        );
    }
    for (const [name, completer] of Object.entries(value)) {
        if (!names.includes(name)) {
            const known = names.length === 0 ? `it has no ${what}s` : `its ${what}s are ${names.join(', ')}`;
            throw new TypeError(
                `createMcpStdioServer: ${label} has a completer for ${JSON.stringify(name)}, which is not one of its ${what}s; ${known}`,
            );
        }
        if (typeof completer !== 'function') {
            throw new TypeError(
                `createMcpStdioServer: ${label} needs complete[${JSON.stringify(name)}] to be a function, got ${describe(completer)}`,
            );
        }
        completers.set(name, completer as Completer);
    }
    return completers;
}
