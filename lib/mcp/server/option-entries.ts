/**
 * What every catalog option checks first of each entry: that it is an object, that its key (a
 * tool's `name`, a resource's `uri`, a prompt's `name`, a template's `uriTemplate`) is a non-empty
 * string, and later that its `handler` is a function. The label the first checks make names the
 * entry in every later message: `tools[0] ("search")`.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {entries} from './settings.js';

export interface KeyedEntry<Entry> {
    readonly entry: Entry;
    readonly key: string;
    readonly label: string;
}

/** The entries of `option`, in order, each checked only as it is reached. */
export function* keyedEntries<Entry extends object>(
    option: string,
    value: unknown,
    keyName: keyof Entry & string,
): Generator<KeyedEntry<Entry>> {
    for (const [index, entry] of entries<Entry>(option, value)) {
        const at = `${option}[${index}]`;
        if (!isObject(entry))
            throw new TypeError(`createMcpStdioServer: ${at} must be an object, got ${describe(entry)}`);
        const key = entry[keyName];
        if (typeof key !== 'string' || key === '') {
            throw new TypeError(
                `createMcpStdioServer: ${at} needs a non-empty "${keyName}" string, got ${describe(key)}`,
            );
        }
        yield {entry, key, label: `${at} (${JSON.stringify(key)})`};
    }
}

export function checkHandler<Handler>(label: string, handler: unknown): asserts handler is Handler {
    if (typeof handler !== 'function') {
        throw new TypeError(
            `createMcpStdioServer: ${label} needs a "handler" function, got ${describe(handler)}`,
        );
    }
}
