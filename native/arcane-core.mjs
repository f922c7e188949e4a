// The runtime a bundle ships as runtime/arcane-core.mjs (written there by `arcane-os pack`).
//
//     node <bundle>/runtime/arcane-core.mjs --arcane-app-entry <module relative to <bundle>/app/> [app args]
//
// It imports the named module from the bundle's app/ folder, found from this file's own location
// rather than from the working directory. The logic lives, typed and tested, in arcane-os/native/runtime.
import {runArcaneRuntimeMain} from 'arcane-os/native/runtime';

const status = await runArcaneRuntimeMain({
    argv: process.argv,
    appRoot: new URL('../app/', import.meta.url),
    stderr: process.stderr,
});
if (status !== undefined) process.exitCode = status;
