/**
 * Shared pieces of the reliability suite: a watch on process-level escapes, a handler
 * that waits for its abort, and a check that output holds nothing but complete JSON-RPC records.
 * Nothing here sleeps; every wait is for an event or a promise.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import type {Readable} from 'node:stream';
import {Writable} from 'node:stream';
import type {CallToolResult, HandlerContext, McpStdioServerOptions} from '../../lib/mcp/stdio/index.js';
import {MCP_PROTOCOL_VERSION} from '../../lib/mcp/stdio/index.js';
import {deferred} from '../helpers/deferred.js';
import {text} from '../helpers/tools.js';

export {deferred};

/**
 * Records every unhandled rejection and uncaught exception from now until `stop()`. Installing a
 * listener also keeps such an escape from ending the test process, so the test can report it.
 */
export function watchEscapes(): {stop(): unknown[]} {
    const escaped: unknown[] = [];
    const onRejection = (reason: unknown) => escaped.push(reason);
    const onException = (error: unknown) => escaped.push(error);
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
    return {
        stop() {
            process.off('unhandledRejection', onRejection);
            process.off('uncaughtException', onException);
            return escaped;
        },
    };
}

/** Resolves once a destroyed stream has emitted `close` (its `error`, if any, comes before). */
export async function closedStream(stream: Readable | Writable): Promise<void> {
    if (stream.closed) return;
    await once(stream, 'close');
}

export const initializeRecord = `${JSON.stringify({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: {
        protocolVersion: MCP_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: {name: 'reliability', version: '1.0.0'},
    },
})}\n${JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'})}\n`;

export function callRecord(id: string | number, name: string, args?: unknown): string {
    const params = args === undefined ? {name} : {name, arguments: args};
    return `${JSON.stringify({jsonrpc: '2.0', id, method: 'tools/call', params})}\n`;
}

export {text};

/**
 * A tool whose calls wait until their signal aborts, then reject with its reason. `started` has
 * one deferred per expected call, resolved with the call's context when it begins.
 */
export function waitingTool(name = 'wait'): {
    tool: NonNullable<McpStdioServerOptions['tools']>[number];
    started: Promise<HandlerContext<'tools/call'>>;
    reasons: unknown[];
} {
    const start = deferred<HandlerContext<'tools/call'>>();
    const reasons: unknown[] = [];
    return {
        started: start.promise,
        reasons,
        tool: {
            name,
            inputSchema: {type: 'object'},
            handler: (_args, context) =>
                new Promise<CallToolResult>((_resolve, reject) => {
                    const {signal} = context;
                    signal.addEventListener('abort', () => {
                        reasons.push(signal.reason);
                        reject(signal.reason);
                    });
                    start.resolve(context);
                }),
        },
    };
}

export interface ResponseRecord {
    jsonrpc: '2.0';
    id?: string | number;
    result?: unknown;
    error?: {code: number; message: string; data?: unknown};
}

/**
 * Asserts `written` is nothing but complete JSON-RPC response records, one per line, each with
 * exactly the members a response may have, and returns them parsed.
 */
export function responses(written: string): ResponseRecord[] {
    if (written === '') return [];
    assert.equal(written.at(-1), '\n', 'the output ends in the middle of a record');
    return written
        .slice(0, -1)
        .split('\n')
        .map((line) => {
            const record = JSON.parse(line) as Record<string, unknown>;
            assert.equal(record.jsonrpc, '2.0');
            const keys = Object.keys(record).sort();
            const hasId = Object.hasOwn(record, 'id');
            const expected = hasId ? ['error', 'id', 'jsonrpc'] : ['error', 'jsonrpc'];
            if (Object.hasOwn(record, 'result')) {
                assert.ok(hasId, `a result without an id: ${line}`);
                assert.deepEqual(keys, ['id', 'jsonrpc', 'result']);
            } else {
                assert.deepEqual(keys, expected, `not a JSON-RPC response: ${line}`);
                const error = record.error as Record<string, unknown>;
                assert.ok(Number.isInteger(error.code), `an error without an integer code: ${line}`);
                assert.equal(typeof error.message, 'string');
            }
            if (hasId) {
                const id = record.id;
                assert.ok(typeof id === 'string' || Number.isInteger(id), `an invalid id: ${line}`);
            }
            return record as unknown as ResponseRecord;
        });
}

/** Marks the record whose write a `Relay` fails. */
export const MARK = 'fail-this-write';

/** How a `Relay` fails the write of the record that holds MARK. */
export type Fault = 'callback' | 'error' | 'close' | 'finish';

/**
 * Passes each write on to `target`, except that of a record holding MARK: that one it holds, and a
 * turn later fails through its callback with `message`, or emits `error` (with `message`), `close`
 * or `finish` without ever calling the callback.
 */
export class Relay extends Writable {
    readonly #target: Writable;
    readonly #fault: Fault;
    readonly #message: string;

    constructor(target: Writable, fault: Fault, message = '') {
        super({decodeStrings: false});
        this.#target = target;
        this.#fault = fault;
        this.#message = message;
        // The stream is its owner's: once the session is over its errors are the owner's to handle.
        this.on('error', () => {});
    }

    override _write(chunk: string, _encoding: BufferEncoding, callback: (error?: Error) => void): void {
        if (!chunk.includes(MARK)) {
            this.#target.write(chunk, (error) => callback(error ?? undefined));
            return;
        }
        setImmediate(() => {
            if (this.#fault === 'callback') callback(new Error(this.#message));
            else if (this.#fault === 'error') this.destroy(new Error(this.#message));
            else if (this.#fault === 'close') this.destroy();
            else this.emit('finish');
        });
    }
}

/** A handler's promise that rejects with its signal's reason once the signal aborts. */
export function waitForAbort(signal: AbortSignal): Promise<never> {
    return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason));
    });
}
