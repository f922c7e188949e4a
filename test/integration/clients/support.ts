/**
 * Shared pieces of the real-client tests: the fixture servers of this folder, a recorder of the
 * JSON-RPC traffic a client transport carries, and a connect that wires an SDK client to both.
 * Nothing here sleeps: every wait is for an event.
 */
import assert from 'node:assert/strict';
import type {ChildProcess} from 'node:child_process';
import type {Readable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import type {JsonRecord as Wire} from '../../helpers/children.js';
import {LineReader, track} from '../../helpers/children.js';

/** A compiled fixture server of this folder, by its base name. */
export function fixturePath(name: string): string {
    return fileURLToPath(new URL(`./fixtures/${name}.js`, import.meta.url));
}

/** The structural part of both SDKs' client transports that the recorder hooks. */
interface HookableTransport {
    onmessage?: ((message: never, extra?: never) => void) | undefined;
    onerror?: ((error: Error) => void) | undefined;
    send(message: never, options?: never): Promise<void>;
}

/**
 * Records every message a client transport sends and receives, and every transport error.
 * Install it before `connect`: both SDKs chain handlers that were set before they connect.
 */
export class WireRecorder {
    readonly sent: Wire[] = [];
    readonly received: Wire[] = [];
    readonly errors: Error[] = [];

    constructor(transport: HookableTransport) {
        const send = transport.send.bind(transport) as (message: Wire, options?: unknown) => Promise<void>;
        const hooked = transport as unknown as {
            onmessage: (message: Wire) => void;
            onerror: (error: Error) => void;
            send: (message: Wire, options?: unknown) => Promise<void>;
        };
        hooked.send = (message, options) => {
            this.sent.push(message);
            return send(message, options);
        };
        hooked.onmessage = (message) => {
            this.received.push(message);
        };
        hooked.onerror = (error) => {
            this.errors.push(error);
        };
    }

    /** The first sent request of `method`. */
    request(method: string): Wire {
        const found = this.sent.find((message) => message.method === method && 'id' in message);
        if (found === undefined) throw new Error(`No ${method} request was sent`);
        return found;
    }

    /** Every received message answering `id`. */
    answersTo(id: unknown): Wire[] {
        return this.received.filter((message) => message.id === id);
    }
}

/**
 * The child process a stdio client transport spawned. Neither SDK exposes it publicly; the tests
 * read it to observe how the process exits.
 */
export function childOf(transport: object): ChildProcess {
    const child: unknown = Reflect.get(transport, '_process');
    if (child === undefined || child === null)
        throw new Error('The transport has no child process; start it first');
    return child as ChildProcess;
}

/** The id of the last tools/call of `name` the client sent. */
export function lastCallId(wire: WireRecorder, name: string): number {
    const calls = wire.sent.filter(
        (message) => message.method === 'tools/call' && (message.params as {name?: unknown}).name === name,
    );
    const id = calls.at(-1)?.id;
    assert.equal(typeof id, 'number');
    return id as number;
}

/** What both SDKs' clients offer that `connectSdk` uses. */
interface SdkClient<Transport> {
    onerror?: ((error: Error) => void) | undefined;
    connect(transport: Transport): Promise<void>;
    close(): Promise<void>;
}

/** A connected SDK client, its transport, what crossed the wire and what the server wrote to stderr. */
export interface SdkSession<Client, Transport> {
    client: Client;
    transport: Transport;
    wire: WireRecorder;
    stderr: LineReader;
    /** Errors the client reported through `onerror`. */
    clientErrors: Error[];
}

/**
 * Connects `client` through `transport` (a stdio transport whose stderr is piped), recording the
 * traffic and the server's stderr lines; `closeAll` closes the client.
 */
export async function connectSdk<
    Transport extends HookableTransport & {readonly stderr: unknown},
    Client extends SdkClient<Transport>,
>(client: Client, transport: Transport): Promise<SdkSession<Client, Transport>> {
    const stderr = new LineReader(transport.stderr as Readable);
    const wire = new WireRecorder(transport);
    track(client);
    const clientErrors: Error[] = [];
    client.onerror = (error) => clientErrors.push(error);
    await client.connect(transport);
    return {client, transport, wire, stderr, clientErrors};
}
