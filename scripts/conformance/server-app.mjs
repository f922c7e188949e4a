// The stdio server that `scripts/conformance-server.mjs` puts behind an HTTP bridge for the official
// conformance suite's server scenarios; with `--http`, the same catalog served directly over
// Streamable HTTP (`./serve-http.mjs`, which prints its URL first). It implements the tool those
// scenarios call:
//
//   test_tool_with_progress  reports 0, 50 and 100 of 100, about 50 ms apart, then returns
//
// A last 50 ms pause keeps the final notification out of the read that carries the response: the
// official SDK clients (the bridge is one) handle a notification a microtask after a response
// read with it, and then report it as being for an unknown request (typescript-sdk issue 2580).
import {setTimeout as delay} from 'node:timers/promises';
import {createMcpStdioServer} from 'arcane-os/mcp/stdio';

const STEP_MS = 50;

const catalog = {
    serverInfo: {name: 'arcane-os-conformance', version: '1.0.0'},
    tools: [
        {
            name: 'test_tool_with_progress',
            description: 'Reports progress 0, 50 and 100 of 100, then returns.',
            inputSchema: {type: 'object', properties: {}},
            handler: async (_args, {signal, reportProgress}) => {
                for (const progress of [0, 50, 100]) {
                    if (progress > 0) await delay(STEP_MS, undefined, {signal});
                    reportProgress({progress, total: 100, message: `${progress}% done`});
                }
                await delay(STEP_MS, undefined, {signal});
                return {content: [{type: 'text', text: 'Reported progress 0, 50 and 100 of 100.'}]};
            },
        },
    ],
};

if (process.argv.includes('--http')) {
    const {serveHttp} = await import('./serve-http.mjs');
    await serveHttp(catalog);
} else {
    const server = createMcpStdioServer(catalog);
    server.start();
    try {
        await server.closed;
    } catch {
        // The adapter has already written the failure to stderr.
        process.exitCode = 1;
    }
}
