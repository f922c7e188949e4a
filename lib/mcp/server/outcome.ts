/**
 * From a handler's outcome to the wire: a result, an `isError` tool result, the error a handler
 * chose with `McpProtocolError`, or `-32603` with the detail in a diagnostic. A cancelled call is
 * never answered. Nothing here throws: a fault while answering is itself answered `-32603`.
 */
import type {JsonObject, RequestId} from '../../jsonrpc/records.js';
import {errorRecord, isObject, resultRecord} from '../../jsonrpc/records.js';
import type {QueueSlot} from '../../jsonrpc/writer.js';
import type {Call} from './call.js';
import {formatDiagnostic, inspectComplete} from './diagnostics.js';
import {ResultProblem} from './era.js';
import {ErrorCode, McpProtocolError} from './errors.js';
import {ServerFault} from './fault.js';

/** Where answers, notifications and diagnostics go. */
export interface Wire {
    /** Sends one whole JSON-RPC record, line feed included. */
    send(record: string): void;
    /** Sends one whole record in `slot`, over the one still waiting there (`RecordWriter#writeLatest`). */
    sendLatest(record: string, slot: QueueSlot): void;
    /** Drops the record still waiting in `slot`, if any (`RecordWriter#withdraw`). */
    withdraw(slot: QueueSlot): void;
    /** Reports one diagnostic record. */
    diagnose(text: string): void;
}

/** Answers a handler's outcome. From here on the call sends no progress. */
export function answer(wire: Wire, call: Call, fulfilled: boolean, value: unknown): void {
    call.end();
    try {
        if (fulfilled) returned(wire, call, value);
        else threw(wire, call, value);
    } catch (fault) {
        if (call.cancelled) {
            wire.diagnose(formatDiagnostic(`The cancelled ${call.describe()} could not be settled`, fault));
        } else {
            internal(wire, call, 'its outcome could not be processed', fault);
        }
    }
}

function returned(wire: Wire, call: Call, result: unknown): void {
    if (call.cancelled) return;
    const container = call.method === 'tools/call' ? 'content' : 'contents';
    let shaped: boolean;
    try {
        shaped = isObject(result) && Array.isArray(result[container]);
    } catch (error) {
        // A proxy or getter that throws on reading the container fails as serialization would.
        internal(wire, call, 'the result could not be serialized as JSON', error);
        return;
    }
    if (!shaped) {
        const shape = call.method === 'tools/call' ? 'CallToolResult' : 'ReadResourceResult';
        internal(
            wire,
            call,
            `the handler returned an invalid ${shape}: it must be an object with a "${container}" array`,
            result,
        );
        return;
    }
    const json = call.era.encode(result as JsonObject, call.method);
    if (json instanceof ResultProblem) {
        internal(wire, call, json.problem, json.detail);
        return;
    }
    wire.send(resultRecord(call.requestId, json));
}

function threw(wire: Wire, call: Call, thrown: unknown): void {
    if (call.cancelled) {
        if (!call.isAbortOutcome(thrown)) {
            wire.diagnose(
                formatDiagnostic(`The cancelled ${call.describe()} failed; no response is sent`, thrown),
            );
        }
        return;
    }
    if (thrown instanceof McpProtocolError) {
        protocolError(wire, call, thrown);
        return;
    }
    if (thrown instanceof ServerFault) {
        internal(wire, call, thrown.problem, thrown.detail);
        return;
    }
    if (call.method === 'resources/read') {
        internal(wire, call, 'the handler threw', thrown);
        return;
    }
    const text = messageOf(thrown);
    wire.diagnose(formatDiagnostic(`The ${call.describe()} threw; answered as an isError result`, thrown));
    const json = call.era.encode({content: [{type: 'text', text}], isError: true}, call.method);
    wire.send(resultRecord(call.requestId, json as string));
}

function protocolError(wire: Wire, call: Call, error: McpProtocolError): void {
    let record: string;
    try {
        record = errorRecord(call.requestId, error.code, error.message, error.data);
    } catch (cause) {
        internal(
            wire,
            call,
            'the McpProtocolError it threw has data that cannot be serialized as JSON',
            cause,
        );
        return;
    }
    wire.send(record);
}

/** Answers -32603 and reports the detail. */
function internal(wire: Wire, call: Call, problem: string, detail: unknown): void {
    wire.diagnose(formatDiagnostic(`The ${call.describe()} failed: ${problem}; answered -32603`, detail));
    fail(
        wire,
        call.requestId,
        ErrorCode.InternalError,
        `Internal error in ${call.describe()}: ${problem}; the server's diagnostics have the details`,
    );
}

export function fail(wire: Wire, id: RequestId, code: number, message: string, data?: unknown): void {
    wire.send(errorRecord(id, code, message, data));
}

/** The complete message a thrown value carries, for an `isError` tool result. */
export function messageOf(thrown: unknown): string {
    if (typeof thrown === 'string') return thrown;
    try {
        if (typeof thrown === 'object' && thrown !== null) {
            const message = (thrown as {message?: unknown}).message;
            if (typeof message === 'string' && message !== '') return message;
            if (thrown instanceof Error) return String(thrown);
        }
    } catch {
        // A throwing `message` getter: describe the value instead, below.
    }
    return `The tool handler threw a value that is not an Error: ${inspectComplete(thrown)}`;
}
