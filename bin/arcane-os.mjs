#!/usr/bin/env node
// The arcane-os command line: `arcane-os pack <app-dir> --out <bundle-dir>` (see --help).
import {runArcaneOsCli} from '../dist/bundle/native/cli.js';

process.exitCode = await runArcaneOsCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
});
