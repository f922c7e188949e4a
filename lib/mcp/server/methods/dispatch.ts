/** What a method handler is given and may ask of the session: the seam between the two. */
import type {JsonObject, RequestId} from '../../../jsonrpc/records.js';
import type {ClientData} from '../call.js';
import type {Calls} from '../calls.js';
import type {Catalog} from '../catalog.js';
import type {Era} from '../era.js';
import type {SessionOutput} from '../output.js';
import type {Subscriptions} from '../subscriptions.js';

/** What a method handler can ask of the session. */
export interface Dispatch {
    readonly catalog: Catalog;
    /** Where the method's answer goes (`fail` in `failures.ts` for an error). */
    readonly output: SessionOutput;
    /** Runs a handler: `new Call(…, calls)`, then `calls.run(call, invoke)`. */
    readonly calls: Calls;
    /** A successful `initialize` chose legacy semantics, this revision and this client. */
    initialized(client: ClientData): void;
    /** `initialize` already succeeded. */
    readonly isInitialized: boolean;
    /** The resource subscriptions of this session. */
    readonly subscriptions: Subscriptions;
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
