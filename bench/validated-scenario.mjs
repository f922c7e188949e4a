/**
 * The validated-tool scenario: pipelined calls of a tool whose arguments a zod schema validates
 * (bench/validated.mjs), beside plain echo calls in the same process, and that schema's `validate`
 * measured alone under the same node. Ours serves the schema as a Standard Schema `inputSchema`,
 * the SDK v2 server through its own zod support; a server without the tool reports nothing.
 */
import {spawnSync} from 'node:child_process';
import {basename} from 'node:path';
import {performance} from 'node:perf_hooks';
import {Connection, toolCall} from './client.mjs';
import {counts, finish, latencyFigures, pipeline} from './scenarios.mjs';
import {VALIDATE_ALONE, VALIDATED_TOOL} from './validated.mjs';

/** Servers whose `echo` does not validate: their echo CPU plus `validate` alone is the budget. */
const UNVALIDATED_ECHO = new Set(['ours.mjs', 'base.mjs']);

export async function validated(server) {
    const connection = new Connection({...server, env: {...server.env, BENCH_VALIDATED: '1'}});
    const startup = await connection.initialize();
    const list = await connection.request(1, 'tools/list', {});
    if (!list.result?.tools?.some((tool) => tool.name === VALIDATED_TOOL)) return finish(connection, {});
    await check(connection);
    const checkedCall = (id) => toolCall(id, VALIDATED_TOOL, {text: `hello ${id}`});
    const echoCall = (id) => toolCall(id, 'echo', {text: `hello ${id}`});
    await pipeline(connection, 10, counts.pipelinedWarm, counts.window, checkedCall);
    await pipeline(connection, 10, counts.pipelinedWarm, counts.window, echoCall);
    // Four blocks, validated and plain alternating (A B B A), so drift lands on both alike.
    const half = counts.pipelined / 2;
    const spent = {checked: 0, echo: 0};
    const latencies = [];
    let wall = 0;
    let id = 1e6;
    for (const kind of ['checked', 'echo', 'echo', 'checked']) {
        const cpu0 = connection.cpuMicros();
        const t0 = performance.now();
        const block = await pipeline(
            connection,
            id,
            half,
            counts.window,
            kind === 'checked' ? checkedCall : echoCall,
        );
        if (kind === 'checked') {
            wall += performance.now() - t0;
            latencies.push(...block);
        }
        spent[kind] += connection.cpuMicros() - cpu0;
        id += half;
    }
    const figures = latencyFigures(latencies, wall);
    const result = {
        startup,
        validRps: figures.rps,
        validP50: figures.p50,
        validP99: figures.p99,
        validCpuPerCall: spent.checked / counts.pipelined,
        validEchoCpuPerCall: spent.echo / counts.pipelined,
    };
    if (UNVALIDATED_ECHO.has(basename(server.file))) {
        result.validateAlone = validateAlone(server.node);
        result.validBudget = result.validEchoCpuPerCall + result.validateAlone;
    }
    return finish(connection, result);
}

/** The tool validates: a default applied, an invalid argument answered as an isError result. */
async function check(connection) {
    const twice = await connection.request(2, 'tools/call', {
        name: VALIDATED_TOOL,
        arguments: {text: 'ab', times: 2},
    });
    const once = await connection.request(3, 'tools/call', {name: VALIDATED_TOOL, arguments: {text: 'ab'}});
    const invalid = await connection.request(4, 'tools/call', {name: VALIDATED_TOOL, arguments: {text: ''}});
    if (
        twice.result?.content?.[0]?.text !== 'abab' ||
        once.result?.content?.[0]?.text !== 'ab' ||
        invalid.result?.isError !== true
    ) {
        throw new Error(`validated tool: ${JSON.stringify([twice, once, invalid]).slice(0, 600)}`);
    }
}

/** µs of CPU per `validate` of the scenario's schema, measured in a fresh process under `node`. */
function validateAlone(node) {
    const run = spawnSync(node, [VALIDATE_ALONE, String(counts.pipelined * 5)], {encoding: 'utf8'});
    const value = Number(run.stdout.trim());
    if (run.status !== 0 || !Number.isFinite(value)) {
        throw new Error(`validate alone: exit ${run.status}; ${run.stderr}`);
    }
    return value;
}
