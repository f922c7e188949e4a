/**
 * Input that is not valid UTF-8. `chunks` are the complete input chunks of the record that failed
 * (byte input only) and `pendingText` is what had been decoded of that record before them. The
 * message names the peer that sent it (`sender`, default "the MCP client", the server's view).
 */
export class Utf8DecodeError extends Error {
    override name = 'Utf8DecodeError';
    readonly chunks: readonly Buffer[];
    readonly pendingText: string;

    constructor(chunks: readonly Buffer[], pendingText: string, cause: unknown, sender = 'the MCP client') {
        super(
            `The input is not valid UTF-8: ${sender} must send UTF-8 encoded JSON-RPC records, ` +
                'one per line. The transport was closed.',
            {cause},
        );
        this.chunks = chunks;
        this.pendingText = pendingText;
    }
}
