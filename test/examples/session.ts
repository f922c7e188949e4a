/**
 * One scripted MCP session with the moon-pantry example (README's "A complete example") and the
 * exact records it must answer: the repository copy, an installed tarball, a git install and the
 * native bundle runtime's copy are all held to it.
 */

const menu = {content: 'Moon soup\nExtra tentacles available.', message: {chef: 'Octopus', open: true}};

/** What a client sends: the handshake, a list, a call and a read. */
export const MOON_PANTRY_SCRIPT: readonly unknown[] = [
    {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'script', version: '1'}},
    },
    {jsonrpc: '2.0', method: 'notifications/initialized'},
    {jsonrpc: '2.0', id: 1, method: 'tools/list'},
    {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'moon.menu', arguments: {}}},
    {jsonrpc: '2.0', id: 3, method: 'resources/read', params: {uri: 'pantry://menu'}},
];

/** The script as the bytes written to the server's stdin. */
export const MOON_PANTRY_INPUT = MOON_PANTRY_SCRIPT.map((message) => `${JSON.stringify(message)}\n`).join('');

/** Every record the server must write for the script, in order. */
export const MOON_PANTRY_ANSWERS: readonly unknown[] = [
    {
        jsonrpc: '2.0',
        id: 0,
        result: {
            protocolVersion: '2025-11-25',
            capabilities: {tools: {}, resources: {}},
            serverInfo: {name: 'moon-pantry', version: '1.0.0'},
            instructions: 'Ask moon.menu for the complete lunar dinner menu.',
        },
    },
    {
        jsonrpc: '2.0',
        id: 1,
        result: {
            tools: [
                {
                    name: 'moon.menu',
                    description: 'Read the complete lunar dinner menu.',
                    inputSchema: {type: 'object'},
                    annotations: {readOnlyHint: true},
                },
            ],
        },
    },
    {
        jsonrpc: '2.0',
        id: 2,
        result: {content: [{type: 'text', text: JSON.stringify(menu)}], structuredContent: menu},
    },
    {
        jsonrpc: '2.0',
        id: 3,
        result: {
            contents: [{uri: 'pantry://menu', mimeType: 'application/json', text: JSON.stringify(menu)}],
        },
    },
];

/** The records of a server's complete stdout: one JSON value per line, each line ended. */
export function recordsOf(stdout: string): unknown[] {
    if (stdout !== '' && !stdout.endsWith('\n')) throw new Error(`stdout does not end a line: ${stdout}`);
    return stdout
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as unknown);
}
