/** What a method handler is given and may ask of the session: the seam between the two. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import type {Call, CallWire, ClientData} from '../call.js';
import type {Catalog} from '../catalog.js';
import type {Era} from '../era.js';

/** What a method handler can ask of the session. */
export interface Dispatch extends CallWire {
    readonly catalog: Catalog;
    /** Runs a handler for `call`: it counts as running, and its id as in use, until answered. */
    run(call: Call, invoke: () => unknown): void;
    /** A successful `initialize` chose legacy semantics, this revision and this client. */
    initialized(client: ClientData): void;
    /** `initialize` already succeeded. */
    readonly isInitialized: boolean;
    /** The methods this catalog serves in each era. */
    readonly methods: MethodTables;
    /** `logging/setLevel` chose this rank (see `logging.ts`) for the rest of the session. */
    setLogLevel(rank: number): void;
}

export interface MethodTables {
    readonly legacy: ReadonlyMap<string, MethodEntry>;
    readonly modern: ReadonlyMap<string, MethodEntry>;
}

export type MethodHandler = (
    session: Dispatch,
    id: RequestId,
    params: JsonObject | undefined,
    era: Era,
    client: ClientData,
) => void;

export interface MethodEntry {
    readonly handle: MethodHandler;
    /** Served before `initialize` (legacy era only; the modern era has no initialization). */
    readonly open: boolean;
}
