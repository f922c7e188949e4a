/**
 * `connectMcpClient(options)`: checks the options, chooses the transport (`command` is stdio, `url`
 * is Streamable HTTP), and runs the handshake.
 */
import {isObject} from '../../jsonrpc/records.js';
import {describe} from '../../util/describe.js';
import {checkKeys} from '../../util/options.js';
import type {McpClient} from './client-types.js';
import type {McpClientOptions, McpHttpClientOptions, McpStdioClientOptions} from './connect-types.js';
import {HttpTransport} from './http.js';
import {HTTP_OPTION_NAMES} from './http-options.js';
import {openSession} from './session.js';
import {COMMON_OPTION_NAMES, sessionSettings} from './settings.js';
import {StdioTransport} from './stdio.js';
import {STDIO_OPTION_NAMES, stdioSettings} from './stdio-options.js';

const WHERE = 'connectMcpClient';

/** Connects to an MCP server and completes the handshake. See `McpClientOptions`. */
export function connectMcpClient(options: McpClientOptions): Promise<McpClient> {
    if (!isObject(options)) {
        throw new TypeError(`${WHERE}(options) needs an options object, got ${describe(options)}`);
    }
    const hasCommand = options.command !== undefined;
    const hasUrl = options.url !== undefined;
    if (hasCommand === hasUrl) {
        throw new TypeError(
            hasCommand
                ? `${WHERE}: give either command (stdio) or url (Streamable HTTP), not both`
                : `${WHERE}: give command (to spawn a server over stdio) or url (to reach one over Streamable HTTP)`,
        );
    }
    if (hasUrl) {
        const http = options as McpHttpClientOptions;
        checkKeys(WHERE, http, [...HTTP_OPTION_NAMES, ...COMMON_OPTION_NAMES]);
        const settings = sessionSettings(http);
        const {url, headers, listen, reconnect, maxMessageBytes, closeTimeoutMs} = http;
        const own = {url, headers, listen, reconnect, maxMessageBytes, closeTimeoutMs};
        return openSession(new HttpTransport(own, WHERE), settings);
    }
    const stdio = options as McpStdioClientOptions;
    checkKeys(WHERE, stdio, [...STDIO_OPTION_NAMES, ...COMMON_OPTION_NAMES]);
    const settings = sessionSettings(stdio);
    return openSession(new StdioTransport(stdioSettings(stdio, settings.strict)), settings);
}
