/**
 * Reading a server's output as lines of JSON, for the stdio and in-process transports alike: each
 * line is parsed and handed on; one that is not JSON, is over `maxMessageBytes` or is not UTF-8
 * is skipped and reported as stray (under `strict`, bytes that are not UTF-8 stop the reading,
 * since the session ends with them anyway). Writing to it is one line a message.
 */
import type {RecordSink} from '../../jsonrpc/framing.js';
import {LineReader} from '../../jsonrpc/framing.js';
import type {JsonObject} from '../../jsonrpc/records.js';
import type {RecordWriter} from '../../jsonrpc/writer.js';
import {McpConnectionError, McpProtocolViolationError} from './errors.js';
import type {TransportHandlers} from './transport.js';

export interface LineSettings {
    maxMessageBytes: number;
    strict: boolean;
    /** Where the server writes, as the messages name it: `stdout`, `its output`. */
    channel: string;
    /** A sentence added to the message about a line that is not JSON, or `''`. */
    hint: string;
}

export interface Lines {
    push(chunk: Buffer): void;
    end(): void;
}

export function readLines(handlers: TransportHandlers, settings: LineSettings): Lines {
    const {maxMessageBytes, strict, channel, hint} = settings;
    const line = (text: string): void => {
        let value: unknown;
        try {
            value = JSON.parse(text);
        } catch (error) {
            const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
            handlers.stray({
                kind: 'not-json',
                error: new McpProtocolViolationError(
                    `The MCP server wrote a line to ${channel} that is not JSON: ${JSON.stringify(shown)}.${hint}`,
                    {cause: error},
                ),
                text,
            });
            return;
        }
        handlers.message(value);
    };
    const sink: RecordSink = {
        receive: line,
        oversized: (bytes) =>
            handlers.stray({
                kind: 'oversized',
                error: new McpProtocolViolationError(
                    `The MCP server wrote a line of ${bytes} bytes, over the client's limit of ` +
                        `${maxMessageBytes} bytes (maxMessageBytes); the line was discarded`,
                ),
                text: '',
            }),
    };
    if (!strict) {
        sink.invalid = (text, bytes) =>
            handlers.stray({
                kind: 'not-utf8',
                error: new McpProtocolViolationError(
                    `The MCP server wrote a line of ${bytes} bytes to ${channel} that is not UTF-8; the line was skipped`,
                ),
                text,
            });
    }
    const reader = new LineReader(sink, maxMessageBytes, 'the MCP server');
    const decode = (feed: () => void): void => {
        try {
            feed();
        } catch (error) {
            handlers.stray({
                kind: 'not-utf8',
                error: new McpProtocolViolationError(
                    `The MCP server wrote bytes to ${channel} that are not UTF-8`,
                    {
                        cause: error,
                    },
                ),
                text: '',
            });
        }
    };
    return {push: (chunk) => decode(() => reader.push(chunk)), end: () => decode(() => reader.end())};
}

/**
 * Writes `message` as one line, or rejects with `refusal` when the transport no longer takes input:
 * it is closing (`accepting` false) or its writer failed.
 */
export function sendLine(
    writer: RecordWriter,
    accepting: boolean,
    refusal: string,
    message: JsonObject,
): Promise<void> {
    if (!accepting || writer.failed) return Promise.reject(new McpConnectionError(refusal));
    writer.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
}
