// Makes sure an `nginx` binary is on PATH, for the scale-out suite (test/integration/scale/) and CI:
// when it is missing, installs Debian's `nginx-light` through apt-get (as root, as CI runs), running
// `apt-get update` once first. Only the binary is used: the suite starts its own nginx in the
// foreground with a configuration in a temporary directory, so the package's own service is not
// needed (and not started here).
//
//   node scripts/ensure-nginx.mjs        prints the path of nginx, or exits 1 saying why not
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

/** The absolute path of `nginx` on PATH (or in the sbin folders Debian installs it to), or undefined. */
export function findNginx() {
    const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx /sbin/nginx 2>/dev/null'], {
        encoding: 'utf8',
    });
    const path = found.stdout.split('\n')[0]?.trim();
    return path ? path : undefined;
}

function run(command, args) {
    const result = spawnSync(command, args, {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: {...process.env, DEBIAN_FRONTEND: 'noninteractive'},
    });
    if (result.error) throw new Error(`ensure-nginx: could not run ${command}: ${result.error.message}`);
    if (result.status !== 0)
        throw new Error(`ensure-nginx: ${command} ${args.join(' ')} exited with status ${result.status}`);
}

/** Returns the path of nginx, installing Debian's `nginx-light` first when there is none. */
export function ensureNginx() {
    const present = findNginx();
    if (present !== undefined) return present;
    if (process.getuid?.() !== 0) {
        throw new Error(
            'ensure-nginx: nginx is not installed and installing it needs root: run `apt-get install -y nginx-light` as root (or put nginx on PATH)',
        );
    }
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'nginx-light']);
    const installed = findNginx();
    if (installed === undefined)
        throw new Error('ensure-nginx: nginx-light installed, but no nginx binary was found');
    return installed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    try {
        process.stdout.write(`${ensureNginx()}\n`);
    } catch (error) {
        process.stderr.write(`${error.message}\n`);
        process.exitCode = 1;
    }
}
