// The conformance suite's server fixture (`./fixture.mjs`) on this process's stdin and stdout, as
// `scripts/conformance-server.mjs` puts it behind an HTTP bridge; with `--http`, the same catalog
// served directly over Streamable HTTP in both eras (`./serve-http.mjs`), its URL printed first.
import {createMcpStdioServer} from 'arcane-os/mcp/stdio';
import {fixture} from './fixture.mjs';

if (process.argv.includes('--http')) {
    const {serveHttp} = await import('./serve-http.mjs');
    await serveHttp(fixture);
} else {
    const server = createMcpStdioServer(fixture);
    server.start();
    try {
        await server.closed;
    } catch {
        // The adapter has already written the failure to stderr.
        process.exitCode = 1;
    }
}
