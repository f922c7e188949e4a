/** arcane-os/mcp/stdio serving the bench catalog. */
import {createMcpStdioServer} from 'arcane-os/mcp/stdio';
import {serve} from './serve.mjs';

await serve(createMcpStdioServer, 'bench-ours');
