/**
 * What the observatory example serves, as its clients see it: its instructions, catalogue, tools and
 * resources, and a matcher for the lines its survey tool writes to stderr.
 */

/** The 8x8 PNG the observatory serves, base64-encoded. */
export const PLATE_PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAH0lEQVR4nGPgEjDAihiIlfj//wGJOtAl4CaQbjkcAQA1+RepgbCOIwAAAABJRU5ErkJggg==';

export const OBSERVATORY_INSTRUCTIONS =
    'Call sky.tonight for what is visible, telescope.point to aim at a catalogued object, ' +
    'and read observatory://catalog for the objects it knows.';

export const OBSERVATORY_CATALOG = {
    moon: {name: 'Moon', kind: 'satellite', magnitude: -12.7},
    jupiter: {name: 'Jupiter', kind: 'planet', magnitude: -2.5},
    saturn: {name: 'Saturn', kind: 'planet', magnitude: 0.6},
    m31: {name: 'Andromeda Galaxy', kind: 'galaxy', magnitude: 3.4},
};

const ICON_SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">' +
    '<circle cx="8" cy="8" r="6" fill="#0a1030"/><circle cx="10" cy="6" r="1" fill="#ffe"/></svg>';

/** `sky.tonight` exactly as the observatory authors it, handler left out. */
export const SKY_TONIGHT = {
    name: 'sky.tonight',
    title: "Tonight's sky",
    description: 'What can be seen from the observatory tonight.',
    inputSchema: {
        type: 'object',
        properties: {site: {type: 'string', description: 'Observing site name.'}},
        additionalProperties: false,
    },
    outputSchema: {
        type: 'object',
        properties: {
            site: {type: 'string'},
            moonPhase: {type: 'string'},
            visible: {type: 'array', items: {type: 'string'}},
            seeing: {type: 'integer', minimum: 1, maximum: 5},
        },
        required: ['site', 'moonPhase', 'visible', 'seeing'],
        additionalProperties: false,
    },
    annotations: {readOnlyHint: true, openWorldHint: false},
    icons: [
        {
            src: `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString('base64')}`,
            mimeType: 'image/svg+xml',
            sizes: ['any'],
        },
    ],
};

export const OBSERVATORY_TOOL_NAMES = [
    'sky.tonight',
    'sky.gallery',
    'telescope.point',
    'sky.survey',
    'journal.delete',
];

export const OBSERVATORY_RESOURCES = [
    {
        uri: 'observatory://catalog',
        name: 'catalog',
        title: 'Object catalogue',
        description: 'Every object the telescope can point at.',
        mimeType: 'application/json',
    },
    {
        uri: 'observatory://plates/m31.png',
        name: 'm31-plate',
        title: 'Photographic plate of M31',
        mimeType: 'image/png',
        size: Buffer.from(PLATE_PNG, 'base64').length,
    },
];

/** Matches the observatory's stderr line about survey `id`: exactly `what`, or matching it. */
export function survey(id: number, what: RegExp | string): (line: string) => boolean {
    const prefix = `observatory: survey ${id} `;
    return (line) =>
        line.startsWith(prefix) &&
        (typeof what === 'string'
            ? line.slice(prefix.length) === what
            : what.test(line.slice(prefix.length)));
}
