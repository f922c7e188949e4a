// The star-atlas example: a typed tool, a prompt and a resource template, with completion.
//
//   atlas.distance         a tool whose arguments a zod schema types and validates (defineTool):
//                          a wrong argument comes back as an isError result naming it, and the
//                          schema's default reaches the handler
//   observe                a prompt of two arguments, both completed as the user types; its
//                          message embeds the object's resource
//   atlas://objects/{id}   a resource template: one JSON resource per catalogued object, its id
//                          completed as the user types
//
// It serves both protocol eras, 2026-07-28 and 2025-11-25. Run it as an MCP client's subprocess:
// `node examples/star-atlas.mjs`.
import {createMcpStdioServer, defineTool, ErrorCode, McpProtocolError} from 'arcane-os/mcp/stdio';
import {z} from 'zod';

/** @type {Record<string, {name: string, kind: string, lightYears: number}>} */
const OBJECTS = {
    m13: {name: 'Hercules Globular Cluster', kind: 'globular cluster', lightYears: 22200},
    m31: {name: 'Andromeda Galaxy', kind: 'galaxy', lightYears: 2537000},
    m42: {name: 'Orion Nebula', kind: 'nebula', lightYears: 1344},
    m45: {name: 'Pleiades', kind: 'open cluster', lightYears: 444},
    m57: {name: 'Ring Nebula', kind: 'planetary nebula', lightYears: 2570},
};
const INSTRUMENTS = ['binoculars', 'eyes', 'telescope'];
const LIGHT_YEARS_PER_PARSEC = 3.2616;

/** @param {readonly string[]} values */
const startingWith = (values) => (/** @type {string} */ typed) =>
    values.filter((value) => value.startsWith(typed));

/** The object of catalogue id `id`, or undefined. @param {string} id */
const objectOf = (id) => (Object.hasOwn(OBJECTS, id) ? OBJECTS[id] : undefined);

/** @param {string} id @param {{name: string, kind: string, lightYears: number}} entry */
const objectContents = (id, entry) => ({
    uri: `atlas://objects/${id}`,
    mimeType: 'application/json',
    text: JSON.stringify({id, ...entry}),
});

const distance = defineTool({
    name: 'atlas.distance',
    title: 'Distance to an object',
    description: 'How far a catalogued object is, in light years or parsecs.',
    inputSchema: z.object({
        id: z.enum(['m13', 'm31', 'm42', 'm45', 'm57']).describe('A catalogue id such as "m42".'),
        unit: z.enum(['ly', 'pc']).default('ly').describe('Light years (the default) or parsecs.'),
    }),
    outputSchema: z.object({
        id: z.string(),
        name: z.string(),
        distance: z.number(),
        unit: z.enum(['ly', 'pc']),
    }),
    annotations: {readOnlyHint: true},
    // `id` and `unit` are typed from the schema, and `unit` is 'ly' when the client left it out.
    handler: ({id, unit}) => {
        const {name, lightYears} = OBJECTS[id] ?? {name: id, lightYears: 0};
        const far = unit === 'ly' ? lightYears : Math.round((lightYears / LIGHT_YEARS_PER_PARSEC) * 10) / 10;
        return {
            content: [{type: 'text', text: `${name} is ${far} ${unit} away.`}],
            structuredContent: {id, name, distance: far, unit},
        };
    },
});

const server = createMcpStdioServer({
    serverInfo: {name: 'star-atlas', version: '1.0.0'},
    protocolVersions: ['2026-07-28', '2025-11-25'],
    tools: [distance],
    prompts: [
        {
            name: 'observe',
            title: 'Plan an observation',
            description: 'Asks for an observing plan for one catalogued object.',
            arguments: [
                {name: 'object', description: 'A catalogue id such as "m42".', required: true},
                {name: 'instrument', description: 'eyes, binoculars or telescope (the default).'},
            ],
            complete: {object: startingWith(Object.keys(OBJECTS)), instrument: startingWith(INSTRUMENTS)},
            handler: ({object = '', instrument = 'telescope'}) => {
                const entry = objectOf(object);
                if (entry === undefined) {
                    throw new McpProtocolError(
                        ErrorCode.InvalidParams,
                        `No catalogued object is called ${JSON.stringify(object)}; try one of ${Object.keys(OBJECTS).join(', ')}.`,
                    );
                }
                return {
                    description: `Observing the ${entry.name}`,
                    messages: [
                        {role: 'user', content: {type: 'resource', resource: objectContents(object, entry)}},
                        {
                            role: 'user',
                            content: {
                                type: 'text',
                                text: `Plan tonight's observation of the ${entry.name} (${object}); instrument: ${instrument}.`,
                            },
                        },
                    ],
                };
            },
        },
    ],
    resourceTemplates: [
        {
            uriTemplate: 'atlas://objects/{id}',
            name: 'object',
            title: 'Catalogued object',
            description: 'One object of the atlas, as JSON.',
            mimeType: 'application/json',
            complete: {id: startingWith(Object.keys(OBJECTS))},
            handler: ({uri}, {variables, protocolVersion}) => {
                const id = String(variables.id);
                const entry = objectOf(id);
                if (entry === undefined) {
                    // Not found is -32002 before 2026-07-28 and -32602 since, with the uri as data.
                    const code =
                        protocolVersion < '2026-07-28' ? ErrorCode.ResourceNotFound : ErrorCode.InvalidParams;
                    throw new McpProtocolError(code, `Resource not found: ${uri}`, {uri});
                }
                return {contents: [objectContents(id, entry)]};
            },
        },
    ],
});

server.start();
try {
    await server.closed;
} catch {
    // The adapter has already written the failure to stderr.
    process.exitCode = 1;
}
