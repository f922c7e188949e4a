/**
 * Where each expression of a template lies in a uri, in time linear in the uri: a uri is untrusted
 * input, and a backtracking regular expression over adjacent expressions (`{a}{b}{c}`) is
 * polynomial in it.
 */
import type {Expression, Operator} from './uri-template-syntax.js';

/**
 * Each expression's text, as the anchored regular expression of the parts would capture it
 * (greedy, `+` and `#` lazy, leftmost first), or undefined when the uri is no expansion. An
 * expression's possible ends from a position form a range, so one backward pass marks where the
 * rest of the template can still match, and one forward pass takes the preferred end at each
 * expression among those: linear in the uri for each part.
 */
export function splitUri(parts: readonly (string | Expression)[], uri: string): string[] | undefined {
    const length = uri.length;
    // Most uris are told apart by the scheme and host before anything is allocated.
    const head = parts[0];
    if (typeof head === 'string' && !uri.startsWith(head)) return undefined;
    // rest[k][p]: parts k onwards match uri from position p to its end.
    const rest: Uint8Array[] = new Array(parts.length + 1);
    const stopsOf: Int32Array[] = new Array(parts.length);
    let after = new Uint8Array(length + 1);
    after[length] = 1;
    rest[parts.length] = after;
    for (let k = parts.length - 1; k >= 0; k--) {
        const part = parts[k] as string | Expression;
        const here = new Uint8Array(length + 1);
        if (typeof part === 'string') {
            for (let p = 0; p + part.length <= length; p++) {
                if (after[p + part.length] === 1 && uri.startsWith(part, p)) here[p] = 1;
            }
        } else {
            // Scanning down, `next` is the first position at or after p where the rest matches.
            const stops = stopsFrom(part.operator, uri);
            stopsOf[k] = stops;
            let next = Number.POSITIVE_INFINITY;
            for (let p = length; p >= 0; p--) {
                if (after[p] === 1) next = p;
                const [low, high] = ends(part.operator, uri, p, stops);
                here[p] = next === p || (low <= high && next >= low && next <= high) ? 1 : 0;
            }
        }
        rest[k] = here;
        after = here;
    }
    if ((rest[0] as Uint8Array)[0] !== 1) return undefined;
    const texts: string[] = [];
    let at = 0;
    for (const [k, part] of parts.entries()) {
        if (typeof part === 'string') {
            at += part.length;
            continue;
        }
        const next = rest[k + 1] as Uint8Array;
        const end = preferredEnd(part.operator, uri, at, stopsOf[k] as Int32Array, next);
        texts.push(uri.slice(at, end));
        at = end;
    }
    return texts;
}

/** The first stop of `operator` at or after each position: an expansion from p cannot pass it. */
function stopsFrom(operator: Operator, uri: string): Int32Array {
    const stops = new Int32Array(uri.length + 1);
    let stop = uri.length;
    stops[uri.length] = stop;
    for (let p = uri.length - 1; p >= 0; p--) {
        if (operator.stops.includes(uri[p] as string)) stop = p;
        stops[p] = stop;
    }
    return stops;
}

/** The range of ends of a non-empty expansion starting at p (low > high: none); empty is always one. */
function ends(operator: Operator, uri: string, p: number, stops: Int32Array): [number, number] {
    if (operator.first === '') return [p + 1, stops[p] as number];
    if (uri[p] !== operator.first) return [1, 0];
    return [p + 1, stops[p + 1] ?? p + 1];
}

/** The end a regular expression would take: the longest possible, or the shortest for `+` and `#`. */
function preferredEnd(
    operator: Operator,
    uri: string,
    at: number,
    stops: Int32Array,
    rest: Uint8Array,
): number {
    const [low, high] = ends(operator, uri, at, stops);
    if (operator.lazy) {
        // `+` may be empty first; `#` tries its non-empty forms before the empty one.
        if (operator.first === '' && rest[at] === 1) return at;
        for (let end = low; end <= high; end++) if (rest[end] === 1) return end;
        return at;
    }
    for (let end = high; end >= low; end--) if (rest[end] === 1) return end;
    return at;
}
