/**
 * Reading a POST body: its media type, its size against `maxMessageBytes` (before and while
 * reading), its UTF-8 and its JSON. Every failure is an HTTP answer, never an exception.
 */
import {ErrorCode} from '../server/errors.js';
import {errorResponse} from './responses.js';

const UTF8 = new TextDecoder('utf-8', {fatal: true});

export type Body = {ok: true; message: unknown} | {ok: false; response: Response};

export async function readBody(request: Request, limit: number): Promise<Body> {
    const type = request.headers.get('content-type');
    if (type === null || mediaType(type) !== 'application/json') {
        return refuse(
            415,
            ErrorCode.InvalidRequest,
            `Unsupported Content-Type ${JSON.stringify(type)}: send the JSON-RPC message as application/json`,
        );
    }
    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > limit) return tooLarge(Number(declared), limit);
    const bytes = await collect(request, limit);
    if (typeof bytes === 'number') return tooLarge(bytes, limit);
    if (bytes === undefined) {
        return refuse(400, ErrorCode.InvalidRequest, 'The request body could not be read');
    }
    let text: string;
    try {
        text = UTF8.decode(bytes);
    } catch {
        return refuse(400, ErrorCode.ParseError, 'Parse error: the request body is not valid UTF-8');
    }
    try {
        return {ok: true, message: JSON.parse(text)};
    } catch (error) {
        return refuse(400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
}

/** The body's bytes; the count read so far once over `limit`; undefined when reading failed. */
async function collect(request: Request, limit: number): Promise<Uint8Array | number | undefined> {
    const stream = request.body;
    if (stream === null) return new Uint8Array(0);
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
        for (;;) {
            const {done, value} = await reader.read();
            if (done) break;
            size += value.byteLength;
            if (size > limit) {
                reader.cancel().catch(() => {});
                return size;
            }
            chunks.push(value);
        }
    } catch {
        return undefined;
    }
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}

function tooLarge(size: number, limit: number): Body {
    return refuse(
        413,
        ErrorCode.InvalidRequest,
        `The request body of ${size} bytes or more exceeds the limit of ${limit} bytes (maxMessageBytes)`,
    );
}

function refuse(status: number, code: number, message: string): Body {
    return {ok: false, response: errorResponse(status, code, message)};
}

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaType(value: string): string {
    return (value.split(';')[0] as string).trim().toLowerCase();
}

/**
 * Whether an Accept header admits `type` (a missing header admits anything). The most specific
 * matching range decides (the exact type, then its major type's wildcard, then the any-type
 * range), and a range with `q=0` refuses: an Accept of any type but `text/event-stream;q=0`
 * admits JSON and not SSE.
 */
export function accepts(accept: string | null, type: string): boolean {
    if (accept === null) return true;
    const [major] = type.split('/');
    let specificity = 0;
    let accepted = false;
    for (const part of accept.split(',')) {
        const range = mediaType(part);
        const rank = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' ? 1 : 0;
        if (rank === 0 || rank < specificity) continue;
        const admits = !refuses(part);
        // Among ranges equally specific, any that admits is enough.
        accepted = rank > specificity ? admits : accepted || admits;
        specificity = rank;
    }
    return accepted;
}

/** The range carries a zero quality (`q=0`, `q=0.0`, up to three decimals). */
function refuses(range: string): boolean {
    for (const parameter of range.split(';').slice(1)) {
        const [name = '', value = ''] = parameter.split('=');
        if (name.trim().toLowerCase() === 'q') return /^0(\.0{0,3})?$/.test(value.trim());
    }
    return false;
}
