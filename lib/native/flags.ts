/**
 * Reads `--name <value>` flags from an argv shaped like `process.argv`: the user arguments start at
 * index 2, for plain Node and for a single-executable build alike. The argv is only read, never
 * changed; everything that is not one of the flags asked for belongs to the application.
 */

/** A flag with a value, and how to explain that value to a person who got it wrong. */
export interface FlagSpec {
    /** The flag itself, with its leading dashes: `--arcane-app-entry`. */
    readonly flag: string;
    /** What the value is, as a noun phrase: `the app-relative module to import`. */
    readonly value: string;
    /** A sample value for the messages: `native/moon-mcp.mjs`. */
    readonly example: string;
}

/** A flag was given without a usable value, or more than once. It is a `TypeError` that names the flag. */
export class FlagError extends TypeError {
    /** The flag at fault, with its leading dashes. */
    readonly flag: string;

    constructor(flag: string, message: string) {
        super(message);
        this.flag = flag;
    }
}

/**
 * Returns the flag's value, or `undefined` when the flag is absent. Both `--flag value` and
 * `--flag=value` are read. Throws a `FlagError` when the value is missing (the flag ends the argv or
 * is followed by another `--` option) or empty, and when the flag is given more than once.
 */
export function readFlag(argv: readonly string[], spec: FlagSpec): string | undefined {
    const {flag} = spec;
    const usage = `give ${spec.value}, as in "${flag} ${spec.example}"`;
    let found: string | undefined;
    for (let index = 2; index < argv.length; index += 1) {
        const arg = argv[index] as string;
        let value: string;
        if (arg === flag) {
            const next = argv[index + 1];
            if (next === undefined) {
                throw new FlagError(flag, `${flag} is missing its value: ${usage}`);
            }
            if (next.startsWith('--')) {
                throw new FlagError(
                    flag,
                    `${flag} is missing its value (the next argument is "${next}"): ${usage}`,
                );
            }
            value = next;
            index += 1;
        } else if (arg.startsWith(`${flag}=`)) {
            value = arg.slice(flag.length + 1);
        } else {
            continue;
        }
        if (value === '') {
            throw new FlagError(flag, `${flag} has an empty value: ${usage}`);
        }
        if (found !== undefined) {
            throw new FlagError(
                flag,
                `${flag} is given more than once ("${found}" and "${value}"): give it once`,
            );
        }
        found = value;
    }
    return found;
}

/** Whether `value` is an array of strings, as an argv must be. */
export function isArgv(value: unknown): value is readonly string[] {
    return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
