/** arcane-os/mcp/stdio serving the bench catalog. */
import * as adapter from 'arcane-os/mcp/stdio';
import {serve} from './serve.mjs';

await serve(adapter, 'bench-ours');
