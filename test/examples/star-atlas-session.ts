/**
 * What the star-atlas example (examples/star-atlas.mjs) serves, exactly: its tool as zod's schema
 * converts to JSON Schema, its prompt and its template as listed, and the results the scripted
 * sessions and the real-client tests ask for.
 */
import {examplePath} from '../helpers/paths.js';

export const STAR_ATLAS = examplePath('star-atlas.mjs');

export const ATLAS_INFO = {name: 'star-atlas', version: '1.0.0'};

export const ATLAS_CAPABILITIES = {tools: {}, resources: {}, prompts: {}, completions: {}};

/** `atlas.distance` as `tools/list` shows it. */
export const ATLAS_DISTANCE = {
    name: 'atlas.distance',
    title: 'Distance to an object',
    description: 'How far a catalogued object is, in light years or parsecs.',
    inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
            id: {
                type: 'string',
                enum: ['m13', 'm31', 'm42', 'm45', 'm57'],
                description: 'A catalogue id such as "m42".',
            },
            unit: {
                default: 'ly',
                description: 'Light years (the default) or parsecs.',
                type: 'string',
                enum: ['ly', 'pc'],
            },
        },
        required: ['id'],
    },
    outputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
            id: {type: 'string'},
            name: {type: 'string'},
            distance: {type: 'number'},
            unit: {type: 'string', enum: ['ly', 'pc']},
        },
        required: ['id', 'name', 'distance', 'unit'],
        additionalProperties: false,
    },
    annotations: {readOnlyHint: true},
};

/** The prompt as `prompts/list` shows it. */
export const OBSERVE_PROMPT = {
    name: 'observe',
    title: 'Plan an observation',
    description: 'Asks for an observing plan for one catalogued object.',
    arguments: [
        {name: 'object', description: 'A catalogue id such as "m42".', required: true},
        {name: 'instrument', description: 'eyes, binoculars or telescope (the default).'},
    ],
};

/** The template as `resources/templates/list` shows it. */
export const OBJECT_TEMPLATE = {
    uriTemplate: 'atlas://objects/{id}',
    name: 'object',
    title: 'Catalogued object',
    description: 'One object of the atlas, as JSON.',
    mimeType: 'application/json',
};

const OBJECTS = {
    m13: {name: 'Hercules Globular Cluster', kind: 'globular cluster', lightYears: 22200},
    m31: {name: 'Andromeda Galaxy', kind: 'galaxy', lightYears: 2537000},
    m42: {name: 'Orion Nebula', kind: 'nebula', lightYears: 1344},
    m45: {name: 'Pleiades', kind: 'open cluster', lightYears: 444},
    m57: {name: 'Ring Nebula', kind: 'planetary nebula', lightYears: 2570},
};

export type AtlasId = keyof typeof OBJECTS;

/** The resource contents of one object, as the template (and the prompt) give them. */
export function objectContents(id: AtlasId) {
    return {
        uri: `atlas://objects/${id}`,
        mimeType: 'application/json',
        text: JSON.stringify({id, ...OBJECTS[id]}),
    };
}

/** The `prompts/get` result of `observe` for `object`, with `instrument` or its default. */
export function observeResult(object: AtlasId, instrument = 'telescope') {
    const {name} = OBJECTS[object];
    return {
        description: `Observing the ${name}`,
        messages: [
            {role: 'user', content: {type: 'resource', resource: objectContents(object)}},
            {
                role: 'user',
                content: {
                    type: 'text',
                    text: `Plan tonight's observation of the ${name} (${object}); instrument: ${instrument}.`,
                },
            },
        ],
    };
}

/** The isError result of `atlas.distance` for an id the schema does not know. */
export const UNKNOWN_ID_RESULT = {
    content: [
        {
            type: 'text',
            text: 'Invalid arguments for tool "atlas.distance":\n- id: Invalid option: expected one of "m13"|"m31"|"m42"|"m45"|"m57"',
        },
    ],
    isError: true,
};

/** `atlas.distance {id: 'm42'}`: the schema's default unit reached the handler. */
export const M42_LIGHT_YEARS = {
    content: [{type: 'text', text: 'Orion Nebula is 1344 ly away.'}],
    structuredContent: {id: 'm42', name: 'Orion Nebula', distance: 1344, unit: 'ly'},
};
