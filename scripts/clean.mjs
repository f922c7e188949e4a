// Removes the previous build so deleted sources never linger in dist/.
import {rm} from 'node:fs/promises';

await rm(new URL('../dist/', import.meta.url), {recursive: true, force: true});
