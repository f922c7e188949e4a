/**
 * The validated-tool scenario's tool: one zod schema, served by ours as a Standard Schema
 * `inputSchema` and by the SDK v2 server through its own zod support, so both validate the same
 * schema on every call. Run as a script, it measures that schema's `validate` alone (see below).
 */
import {fileURLToPath} from 'node:url';
import {z} from 'zod';

export const VALIDATED_TOOL = 'checked';

/** A small, typical argument schema: a bounded string, and an integer with a default. */
export const validatedSchema = z.object({
    text: z.string().min(1).max(1000),
    times: z.number().int().min(1).max(10).default(1),
});

/** The same as echo, from the validated value (so the default is applied before it runs). */
export function checked(args) {
    return {content: [{type: 'text', text: args.times === 1 ? args.text : args.text.repeat(args.times)}]};
}

export const VALIDATE_ALONE = fileURLToPath(import.meta.url);

/**
 * `node validated.mjs <count>`: the CPU time of `validate` alone, in µs per call, on arguments
 * parsed from JSON as the servers receive them, after a warm-up of the same length; printed as
 * one number. Run under the servers' node so it is measured by the same engine.
 */
if (process.argv[1] === VALIDATE_ALONE) {
    const count = Number(process.argv[2] ?? 200000);
    const inputs = Array.from({length: 1024}, (_, id) => JSON.parse(`{"text":"hello ${id}"}`));
    const validate = validatedSchema['~standard'].validate;
    let sink = 0;
    const run = () => {
        for (let index = 0; index < count; index += 1) {
            const result = validate(inputs[index & 1023]);
            if (result.issues !== undefined) throw new Error('validate: unexpected issues');
            sink += result.value.times;
        }
    };
    run();
    const before = process.cpuUsage();
    run();
    const used = process.cpuUsage(before);
    if (sink !== 2 * count) throw new Error('validate: unexpected values');
    process.stdout.write(`${(used.user + used.system) / count}\n`);
}
