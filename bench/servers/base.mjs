/** Like ours.mjs, but the adapter comes from BENCH_BASE (a build of an earlier revision). */
import {handlers, RESOURCE_URI, readNote, tools} from '../handlers.mjs';

const {createMcpStdioServer} = await import(process.env.BENCH_BASE);

const server = createMcpStdioServer({
    serverInfo: {name: 'bench-base', version: '1.0.0'},
    tools: Object.entries(tools).map(([name, descriptor]) => ({
        name,
        ...descriptor,
        handler: handlers[name],
    })),
    resources: [{uri: RESOURCE_URI, name: 'note', mimeType: 'text/plain', handler: readNote}],
});

server.start();
try {
    await server.closed;
} catch {
    process.exitCode = 1;
}
