/** A stream double for the record writer's tests, and a writer on it that records its events. */
import assert from 'node:assert/strict';
import {EventEmitter} from 'node:events';
import type {Writable} from 'node:stream';
import {RecordWriter} from '../../lib/jsonrpc/writer.js';

type Callback = (error?: Error | null) => void;

/** A stream double: every `write` is recorded and its callback kept for the test to call. */
export class FakeStream extends EventEmitter {
    readonly writes: {chunk: string; callback: Callback}[] = [];
    /** When set, `write` throws this value instead of recording the write. */
    throwOnWrite: unknown;
    /** When set, `write` calls its callback before returning. */
    syncCallback = false;

    write(chunk: string, callback: Callback): boolean {
        if (this.throwOnWrite !== undefined) throw this.throwOnWrite;
        this.writes.push({chunk, callback});
        if (this.syncCallback) callback();
        return true;
    }

    get chunks(): string[] {
        return this.writes.map((write) => write.chunk);
    }

    /** Calls the callback of write number `index`. */
    complete(index: number, error?: Error): void {
        const write = this.writes[index];
        assert.ok(write, `write ${index} was made`);
        write.callback(error);
    }
}

export interface Recorded {
    writer: RecordWriter;
    stream: FakeStream;
    failures: Error[];
    settled: number;
}

export function writer(label = 'output'): Recorded {
    const stream = new FakeStream();
    const recorded: Recorded = {
        writer: undefined as unknown as RecordWriter,
        stream,
        failures: [],
        settled: 0,
    };
    recorded.writer = new RecordWriter(stream as unknown as Writable, label, {
        onFailure: (error) => recorded.failures.push(error),
        onSettled: () => {
            recorded.settled += 1;
        },
    });
    return recorded;
}
