/**
 * Error classes a check recognizes across copies of this package. `instanceof` sees only the
 * classes of its own copy (two versions in `node_modules`, or a bundle beside the installed
 * package), so each branded class carries a brand on its prototype under a `Symbol.for(…)` key,
 * which every copy in the process shares, and its static `is` reads that brand.
 */

/** Where a class keeps the key of its brand (this copy's own symbol: only this copy reads it). */
const BRAND_KEY = Symbol('brand key');

/** The base of every branded error: `SomeError.is(value)` is the cross-copy `instanceof`. */
export class BrandedError extends Error {
    /**
     * True for an instance of this class or of one of its subclasses, from any copy of this
     * package, where `instanceof` sees only this copy's.
     */
    static is<T>(this: {prototype: T}, value: unknown): value is T {
        // biome-ignore lint/complexity/noThisInStatic: `this` is the class asked, a subclass included
        const key = (this as unknown as {[BRAND_KEY]?: symbol})[BRAND_KEY];
        return (
            key !== undefined &&
            typeof value === 'object' &&
            value !== null &&
            (value as {[key: symbol]: unknown})[key] === true
        );
    }
}

/**
 * Names and brands `errorClass`: its instances' `name` is `name` (on the prototype, as `Error`'s
 * own is, so a stack trace's first line has it from the start), and they and those of its
 * subclasses answer `errorClass.is` from any copy. `scope` (`'arcane-os/mcp/client'`) keeps the
 * brands of one part of the package apart from another's.
 */
export function brand(errorClass: {readonly prototype: BrandedError}, scope: string, name: string): void {
    const key = Symbol.for(`${scope}.${name}`);
    Object.defineProperty(errorClass.prototype, 'name', {value: name, writable: true, configurable: true});
    Object.defineProperty(errorClass.prototype, key, {value: true});
    Object.defineProperty(errorClass, BRAND_KEY, {value: key});
}
