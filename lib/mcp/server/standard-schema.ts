/**
 * Standard Schema V1, structurally: any schema library's object that validates through
 * `~standard.validate` and, when it also carries `~standard.jsonSchema`, converts itself to JSON
 * Schema. Nothing here imports a schema library.
 */
import {ServerFault} from './fault.js';

/** A key of an issue's path: a bare property key, or an object holding one. */
export type StandardPathSegment = PropertyKey | {readonly key: PropertyKey};

/** One problem a schema found: what is wrong, and where in the value. */
export interface StandardIssue {
    readonly message: string;
    readonly path?: readonly StandardPathSegment[] | undefined;
}

/** What `validate` settles with: the parsed value, or the issues (a non-empty list). */
export type StandardResult<Output> =
    | {readonly value: Output; readonly issues?: undefined}
    | {readonly issues: readonly StandardIssue[]};

/** The converter a schema carries next to `validate` (StandardJSONSchemaV1). */
export interface StandardJsonSchemaConverter {
    /** The JSON Schema of the values `validate` accepts. */
    readonly input: (options: {readonly target: string}) => Record<string, unknown>;
    /** The JSON Schema of the values `validate` produces. */
    readonly output: (options: {readonly target: string}) => Record<string, unknown>;
}

/** A Standard Schema V1: `Input` is what it accepts, `Output` what a successful validation gives. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
    readonly '~standard': {
        readonly version: 1;
        readonly vendor: string;
        readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
        /** Carried for type inference only; never present at run time. */
        readonly types?: {readonly input: Input; readonly output: Output} | undefined;
        readonly jsonSchema?: StandardJsonSchemaConverter | undefined;
    };
}

/** A Standard Schema that also converts itself to JSON Schema: what a tool or prompt schema must be. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input>
    extends StandardSchemaV1<Input, Output> {
    readonly '~standard': StandardSchemaV1<Input, Output>['~standard'] & {
        readonly jsonSchema: StandardJsonSchemaConverter;
    };
}

/** The type a schema accepts. */
export type StandardInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
>['input'];

/** The type a successful validation of the schema gives. */
export type StandardOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
>['output'];

/** The JSON Schema dialect MCP assumes when a schema names none. */
export const JSON_SCHEMA_TARGET = 'draft-2020-12';

/** True for an object or function (arktype's schemas are functions) carrying a V1 `~standard`. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
    const props = (value as {'~standard'?: unknown})['~standard'];
    return (
        typeof props === 'object' &&
        props !== null &&
        (props as {version?: unknown}).version === 1 &&
        typeof (props as {validate?: unknown}).validate === 'function'
    );
}

const CONVERTER_HINT =
    'give a schema that carries the Standard JSON Schema converter (`~standard.jsonSchema`): ' +
    'zod >= 4.2 and arktype have it natively; for valibot wrap the schema with ' +
    "toStandardJsonSchema from '@valibot/to-json-schema'";

/**
 * The schema's JSON Schema (draft 2020-12) for one side, checked to be a JSON object. Throws a
 * `TypeError` starting with `where` when the schema has no converter or converting fails.
 */
export function convertStandardSchema(
    schema: StandardSchemaV1,
    side: 'input' | 'output',
    where: string,
): Record<string, unknown> {
    const props = schema['~standard'];
    const converter = props.jsonSchema;
    const vendor = JSON.stringify(props.vendor);
    if (typeof converter !== 'object' || converter === null || typeof converter[side] !== 'function') {
        throw new TypeError(
            `${where} is a Standard Schema (vendor ${vendor}) without a JSON Schema converter, ` +
                `so its JSON Schema cannot be advertised; ${CONVERTER_HINT}`,
        );
    }
    let converted: unknown;
    try {
        converted = converter[side]({target: JSON_SCHEMA_TARGET});
    } catch (error) {
        throw new TypeError(
            `${where} (a Standard Schema, vendor ${vendor}) could not be converted to JSON Schema ` +
                `${JSON_SCHEMA_TARGET}: ${messageOf(error)}; use only what JSON Schema can express ` +
                `(no transforms on the ${side} side), or give a raw JSON Schema instead`,
            {cause: error},
        );
    }
    if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
        throw new TypeError(
            `${where} (a Standard Schema, vendor ${vendor}) converted to ${typeof converted}, ` +
                `not a JSON Schema object; ${CONVERTER_HINT}`,
        );
    }
    return converted as Record<string, unknown>;
}

function messageOf(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}

/**
 * Validates `value` and hands the result to `next`: at once when `validate` answers synchronously
 * (no promise is made), after it settles when it answers with a promise. A `validate` that throws
 * or rejects throws or rejects here.
 */
export function validateThen<Output, Next>(
    schema: StandardSchemaV1<unknown, Output>,
    value: unknown,
    next: (result: StandardResult<Output>) => Next,
): Next | Promise<Awaited<Next>> {
    const result = schema['~standard'].validate(value);
    if (isThenable(result)) return Promise.resolve(result).then(next) as Promise<Awaited<Next>>;
    return next(result);
}

/**
 * Validates a request's arguments for a handler wrapper and hands the result to `next`, as
 * `validateThen` does: a `validate` that throws or rejects is a `ServerFault` naming `schemaName`
 * ("its inputSchema"), and a request cancelled while an asynchronous validation was pending ends
 * as aborted, its handler never started.
 */
export function validateArguments<Context extends {readonly signal: AbortSignal}, Next>(
    schema: StandardSchemaV1,
    schemaName: string,
    args: unknown,
    context: Context,
    next: (result: StandardResult<unknown>, context: Context) => Next,
): Next | Promise<Awaited<Next>> {
    let result: StandardResult<unknown> | Promise<StandardResult<unknown>>;
    try {
        result = schema['~standard'].validate(args);
    } catch (error) {
        throw new ServerFault(`the validate of ${schemaName} threw`, error);
    }
    if (!isThenable(result)) return next(result, context);
    return Promise.resolve(result).then(
        (settled) => {
            if (context.signal.aborted) throw context.signal.reason;
            return next(settled, context);
        },
        (error: unknown) => {
            throw new ServerFault(`the validate of ${schemaName} rejected`, error);
        },
    ) as Promise<Awaited<Next>>;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
    return (
        typeof value === 'object' && value !== null && typeof (value as {then?: unknown}).then === 'function'
    );
}

/** One line per issue: `- <path>: <message>`, the path as `a.b[0]`, `(root)` for the value itself. */
export function formatIssues(issues: readonly StandardIssue[]): string {
    return issues.map((issue) => `- ${formatPath(issue.path)}: ${issue.message}`).join('\n');
}

/** An issue's path as `items[0].name` (`["a b"]` for a key that is not an identifier). */
export function formatPath(path: readonly StandardPathSegment[] | undefined): string {
    if (path === undefined || path.length === 0) return '(root)';
    let text = '';
    for (const segment of path) {
        const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
        if (typeof key === 'number') text += `[${key}]`;
        else if (typeof key === 'symbol') text += `[${String(key)}]`;
        else if (/^[A-Za-z_$][\w$]*$/.test(key)) text += text === '' ? key : `.${key}`;
        else text += `[${JSON.stringify(key)}]`;
    }
    return text;
}
