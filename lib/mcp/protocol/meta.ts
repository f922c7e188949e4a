/** The reserved `_meta` keys of 2026-07-28 requests and results, for the server and the client. */

/** A request's protocol revision: its presence marks a modern request. */
export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** A request's client capabilities (required on a modern request, `{}` for none). */
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** A request's client identity (optional). */
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
/** A result's server identity. */
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
