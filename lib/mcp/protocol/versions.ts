/** The MCP protocol revisions this package knows, for the server and the client alike. */

/** The revision the server answers by default, and the one the client proposes. */
export const MCP_PROTOCOL_VERSION = '2025-11-25';

/** The first revision of the modern era: per-request `_meta`, no `initialize`. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The revisions negotiated through `initialize`, newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
    '2025-11-25',
    '2025-06-18',
    '2025-03-26',
    '2024-11-05',
]);

/** Every revision the server can answer, newest first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
    MODERN_PROTOCOL_VERSION,
    ...LEGACY_PROTOCOL_VERSIONS,
]);
