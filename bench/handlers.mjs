/**
 * The one catalog every bench server serves. The handlers are shared verbatim, so the servers differ
 * only in the adapter around them. Each handler takes `(args, context)` and reads only
 * `context.signal`, which all three servers provide.
 */

export const RESOURCE_URI = 'bench://note';
export const RESOURCE_TEXT = 'A static note served by every bench server.';

export const tools = {
    echo: {
        description: 'Returns its text.',
        inputSchema: {
            type: 'object',
            properties: {text: {type: 'string'}},
            required: ['text'],
        },
    },
    sleep: {
        description: 'Waits ms milliseconds; stops early when the request is cancelled.',
        inputSchema: {
            type: 'object',
            properties: {ms: {type: 'integer', minimum: 0}},
            required: ['ms'],
        },
    },
    big: {
        description: 'Returns a text of the given number of characters.',
        inputSchema: {
            type: 'object',
            properties: {bytes: {type: 'integer', minimum: 0}},
            required: ['bytes'],
        },
    },
};

export function echo(args) {
    return {content: [{type: 'text', text: args.text}]};
}

/** One plain timer plus one abort listener: the cheapest signal-aware wait. */
export function sleep(args, context) {
    const signal = context.signal;
    return new Promise((resolve, reject) => {
        if (signal.aborted) {
            reject(signal.reason);
            return;
        }
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason);
        };
        const timer = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve({content: [{type: 'text', text: 'slept'}]});
        }, args.ms);
        signal.addEventListener('abort', onAbort, {once: true});
    });
}

export function big(args) {
    return {content: [{type: 'text', text: 'x'.repeat(args.bytes)}]};
}

export function readNote(params) {
    return {contents: [{uri: params.uri, mimeType: 'text/plain', text: RESOURCE_TEXT}]};
}

export const handlers = {echo, sleep, big};
