/**
 * A raw newline-delimited JSON-RPC connection to a server child process: no SDK client, so no
 * server is favoured. Also reads the child's CPU time and memory from /proc (Linux).
 */
import {spawn} from 'node:child_process';
import {readdirSync, readFileSync} from 'node:fs';
import {performance} from 'node:perf_hooks';

export const PROTOCOL_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

/**
 * The per-request `_meta` of 2026-07-28 that every modern request carries, as JSON text: the
 * version, the (required) capabilities, and the client's identity, which the SDK v2 client and
 * `@ai-sdk/mcp` send on every request although the revision makes it optional.
 */
export const MODERN_META = `{"io.modelcontextprotocol/protocolVersion":"${MODERN_VERSION}","io.modelcontextprotocol/clientInfo":{"name":"bench-driver","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}`;

export class Connection {
    /**
     * Spawns `<node> <nodeArgs> <file> <args>` with `env` added to this process's environment;
     * `startedAt` is taken just before the spawn. `onMessage` receives every parsed record from the
     * child's stdout.
     */
    constructor({file, args = [], env = {}, node = process.execPath, nodeArgs = []}) {
        this.onMessage = () => {};
        this.stderr = '';
        this.startedAt = performance.now();
        this.child = spawn(node, [...nodeArgs, file, ...args], {
            stdio: ['pipe', 'pipe', 'pipe'],
            env: {...process.env, ...env},
        });
        this.pid = this.child.pid;
        this.exited = new Promise((resolve) => {
            this.child.once('exit', (code, signal) => resolve({code, signal, at: performance.now()}));
        });
        this.child.stdin.on('error', () => {});
        this.child.stderr.setEncoding('utf8');
        this.child.stderr.on('data', (text) => {
            if (this.stderr.length < 65536) this.stderr += text;
        });
        const parts = [];
        this.child.stdout.setEncoding('utf8');
        this.child.stdout.on('data', (chunk) => {
            let start = 0;
            let lf = chunk.indexOf('\n');
            while (lf !== -1) {
                let line = chunk.slice(start, lf);
                if (parts.length > 0) {
                    parts.push(line);
                    line = parts.join('');
                    parts.length = 0;
                }
                this.onMessage(JSON.parse(line));
                start = lf + 1;
                lf = chunk.indexOf('\n', start);
            }
            if (start < chunk.length) parts.push(start === 0 ? chunk : chunk.slice(start));
            this.afterChunk?.();
        });
    }

    write(text) {
        this.child.stdin.write(text);
    }

    /** Sends initialize, waits for its result and sends notifications/initialized. Returns ms since spawn. */
    initialize() {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(
                () => reject(new Error(`no initialize result; stderr: ${this.stderr}`)),
                20000,
            );
            this.onMessage = (message) => {
                if (message.id !== 0) return;
                const at = performance.now();
                clearTimeout(timer);
                this.onMessage = () => {};
                if (message.result?.protocolVersion === undefined) {
                    reject(new Error(`initialize failed: ${JSON.stringify(message)}`));
                    return;
                }
                this.write(`${JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'})}\n`);
                resolve(at - this.startedAt);
            };
            this.write(
                `${JSON.stringify({
                    jsonrpc: '2.0',
                    id: 0,
                    method: 'initialize',
                    params: {
                        protocolVersion: PROTOCOL_VERSION,
                        capabilities: {},
                        clientInfo: {name: 'bench-driver', version: '1.0.0'},
                    },
                })}\n`,
            );
        });
    }

    /**
     * The 2026-07-28 opening: a `server/discover` probe with the per-request `_meta`, no
     * `initialize`. Resolves with `{startup, supported}`: ms since spawn, and whether the server
     * answered with a result (a build without the modern era answers -32601).
     */
    async discover() {
        let timer;
        const timeout = new Promise((_, reject) => {
            timer = setTimeout(
                () => reject(new Error(`no server/discover answer; stderr: ${this.stderr}`)),
                20000,
            );
        });
        const probe = this.request(0, 'server/discover', {_meta: JSON.parse(MODERN_META)});
        const answer = await Promise.race([probe, timeout]).finally(() => clearTimeout(timer));
        const startup = performance.now() - this.startedAt;
        if (Array.isArray(answer.result?.supportedVersions)) {
            if (!answer.result.supportedVersions.includes(MODERN_VERSION)) {
                throw new Error(`server/discover without ${MODERN_VERSION}: ${JSON.stringify(answer)}`);
            }
            return {startup, supported: true};
        }
        if (answer.error === undefined) throw new Error(`server/discover: ${JSON.stringify(answer)}`);
        return {startup, supported: false, error: answer.error};
    }

    /** One request, answered: resolves with the response record. */
    request(id, method, params) {
        return new Promise((resolve) => {
            const previous = this.onMessage;
            this.onMessage = (message) => {
                if (message.id !== id) return previous(message);
                this.onMessage = previous;
                resolve(message);
            };
            this.write(`${JSON.stringify({jsonrpc: '2.0', id, method, params})}\n`);
        });
    }

    /** Closes the child's stdin and waits for it to exit (killed after `timeoutMs`). */
    async close(timeoutMs = 15000) {
        this.child.stdin.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
        const exit = await this.exited;
        clearTimeout(timer);
        return exit;
    }

    /** CPU time of every thread of the child, in microseconds (Linux schedstat, ns resolution). */
    cpuMicros() {
        let ns = 0;
        for (const task of readdirSync(`/proc/${this.pid}/task`)) {
            try {
                const stat = readFileSync(`/proc/${this.pid}/task/${task}/schedstat`, 'utf8');
                ns += Number(stat.slice(0, stat.indexOf(' ')));
            } catch {
                // The thread exited between the listing and the read.
            }
        }
        return ns / 1000;
    }

    /** {rss, hwm} of the child in MiB (VmRSS now, VmHWM peak since start). */
    memory() {
        const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
        const field = (name) =>
            Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
        return {rss: field('VmRSS'), hwm: field('VmHWM')};
    }
}

export function toolCall(id, name, args) {
    return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${JSON.stringify(args)}}}\n`;
}

/** A 2026-07-28 `tools/call`: the same request with the per-request `_meta`. */
export function modernToolCall(id, name, args) {
    return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${JSON.stringify(args)},"_meta":${MODERN_META}}}\n`;
}

export function cancelled(id) {
    return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"bench"}}\n`;
}

export function delay(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
