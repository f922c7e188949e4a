/**
 * From a handler's outcome to the wire: a result, an `isError` tool result, the error a handler
 * chose with `McpProtocolError`, or `-32603` with the detail in a diagnostic. A cancelled call is
 * never answered. Nothing here throws: a fault while answering is itself answered `-32603`.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {errorRecord, isObject, resultRecord} from '../../jsonrpc/records.js';
import {messageOf} from '../../util/message.js';
import {InputRequired} from './asking/input-required.js';
import type {Call} from './call.js';
import {formatDiagnostic, inspectComplete} from './diagnostics.js';
import {ResultProblem} from './era.js';
import {McpProtocolError} from './errors.js';
import {failInternal} from './failures.js';
import {ServerFault} from './fault.js';
import type {SessionOutput} from './output.js';
import {featureResult} from './results.js';

/** Answers a handler's outcome. From here on the call sends no progress. */
export function answer(output: SessionOutput, call: Call, fulfilled: boolean, value: unknown): void {
    call.end();
    try {
        if (fulfilled) returned(output, call, value);
        else threw(output, call, value);
    } catch (fault) {
        if (call.cancelled) {
            output.diagnose(formatDiagnostic(`The cancelled ${call.describe()} could not be settled`, fault));
        } else {
            failInternal(output, call, 'its outcome could not be processed', fault);
        }
    }
}

function returned(output: SessionOutput, call: Call, result: unknown): void {
    if (call.cancelled) return;
    if (result instanceof InputRequired) {
        output.send(resultRecord(call.requestId, result.json));
        return;
    }
    const method = call.method;
    if (method === 'prompts/get' || method === 'completion/complete') {
        encoded(output, call, featureResult(method, result));
        return;
    }
    const container = call.method === 'tools/call' ? 'content' : 'contents';
    let shaped: boolean;
    try {
        shaped = isObject(result) && Array.isArray(result[container]);
    } catch (error) {
        // A proxy or getter that throws on reading the container fails as serialization would.
        failInternal(output, call, 'the result could not be serialized as JSON', error);
        return;
    }
    if (!shaped) {
        const shape = call.method === 'tools/call' ? 'CallToolResult' : 'ReadResourceResult';
        failInternal(
            output,
            call,
            `the handler returned an invalid ${shape}: it must be an object with a "${container}" array`,
            result,
        );
        return;
    }
    const json = call.era.encode(result as JsonObject, call.method);
    if (json instanceof ResultProblem) {
        failInternal(output, call, json.problem, json.detail);
        return;
    }
    output.send(resultRecord(call.requestId, json));
}

/** Answers a result already checked, or the problem found with it. */
function encoded(output: SessionOutput, call: Call, result: JsonObject | ResultProblem): void {
    const json = result instanceof ResultProblem ? result : call.era.encode(result, call.method);
    if (json instanceof ResultProblem) failInternal(output, call, json.problem, json.detail);
    else output.send(resultRecord(call.requestId, json));
}

function threw(output: SessionOutput, call: Call, thrown: unknown): void {
    if (call.cancelled) {
        if (!call.isAbortOutcome(thrown)) {
            output.diagnose(
                formatDiagnostic(`The cancelled ${call.describe()} failed; no response is sent`, thrown),
            );
        }
        return;
    }
    if (thrown instanceof McpProtocolError) {
        protocolError(output, call, thrown);
        return;
    }
    if (thrown instanceof ServerFault) {
        failInternal(output, call, thrown.problem, thrown.detail);
        return;
    }
    if (call.method !== 'tools/call') {
        failInternal(output, call, 'the handler threw', thrown);
        return;
    }
    const text = toolErrorText(thrown);
    output.diagnose(formatDiagnostic(`The ${call.describe()} threw; answered as an isError result`, thrown));
    const json = call.era.encode({content: [{type: 'text', text}], isError: true}, call.method);
    output.send(resultRecord(call.requestId, json as string));
}

function protocolError(output: SessionOutput, call: Call, error: McpProtocolError): void {
    let record: string;
    try {
        record = errorRecord(call.requestId, error.code, error.message, error.data);
    } catch (cause) {
        failInternal(
            output,
            call,
            'the McpProtocolError it threw has data that cannot be serialized as JSON',
            cause,
        );
        return;
    }
    output.send(record);
}

/** The text of an `isError` tool result: the complete message the thrown value carries. */
function toolErrorText(thrown: unknown): string {
    return messageOf(
        thrown,
        (value) => `The tool handler threw a value that is not an Error: ${inspectComplete(value)}`,
    );
}
