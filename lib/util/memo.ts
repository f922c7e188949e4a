/** One value per object, built on first use and dropped with the object. */

/**
 * `build` wrapped so that each key gets its value built once: later calls with the same key return
 * the same value, and nothing keeps a key alive.
 */
export function memoByObject<K extends object, V>(build: (key: K) => V): (key: K) => V {
    const built = new WeakMap<K, V>();
    return (key) => {
        if (built.has(key)) return built.get(key) as V;
        const value = build(key);
        built.set(key, value);
        return value;
    };
}
