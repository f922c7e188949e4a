/**
 * The server's answer to `initialize`, checked for everything the session relies on: a revision
 * this client speaks, capabilities, an identity, and instructions when there are any.
 */
import {isObject} from '../../jsonrpc/records.js';
import type {Implementation, JsonObject} from '../protocol/types.js';
import {LEGACY_PROTOCOL_VERSIONS} from '../protocol/versions.js';
import {McpProtocolViolationError} from './errors.js';

/** The revisions this client accepts from a server, newest first: those negotiated by `initialize`. */
export const MCP_CLIENT_PROTOCOL_VERSIONS: readonly string[] = LEGACY_PROTOCOL_VERSIONS;

export interface Handshake {
    protocolVersion: string;
    capabilities: JsonObject;
    serverInfo: Implementation;
    instructions: string | undefined;
}

export function checkHandshake(result: unknown): Handshake {
    const where = "The MCP server's initialize result";
    if (!isObject(result)) throw new McpProtocolViolationError(`${where} is not an object`);
    const {protocolVersion, capabilities, serverInfo, instructions} = result;
    if (typeof protocolVersion !== 'string' || protocolVersion === '') {
        throw new McpProtocolViolationError(`${where} has no "protocolVersion" string`);
    }
    if (!MCP_CLIENT_PROTOCOL_VERSIONS.includes(protocolVersion)) {
        throw new McpProtocolViolationError(
            `The MCP server chose protocol revision ${JSON.stringify(protocolVersion.slice(0, 40))}, which this ` +
                `client does not speak; it speaks ${MCP_CLIENT_PROTOCOL_VERSIONS.join(', ')}`,
        );
    }
    if (!isObject(capabilities)) throw new McpProtocolViolationError(`${where} has no "capabilities" object`);
    if (
        !isObject(serverInfo) ||
        typeof serverInfo.name !== 'string' ||
        typeof serverInfo.version !== 'string'
    ) {
        throw new McpProtocolViolationError(`${where} has no "serverInfo" with "name" and "version" strings`);
    }
    if (instructions !== undefined && typeof instructions !== 'string') {
        throw new McpProtocolViolationError(`${where} has "instructions" that are not a string`);
    }
    return {protocolVersion, capabilities, serverInfo: serverInfo as Implementation, instructions};
}
