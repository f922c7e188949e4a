// The stdio server that `scripts/conformance-server.mjs` puts behind an HTTP bridge for the official
// conformance suite's server scenarios: the catalog of `./fixture.mjs`, served on this process's
// stdin and stdout.
import {createMcpStdioServer} from 'arcane-os/mcp/stdio';
import {fixture} from './fixture.mjs';

const server = createMcpStdioServer(fixture);
server.start();
try {
    await server.closed;
} catch {
    // The adapter has already written the failure to stderr.
    process.exitCode = 1;
}
