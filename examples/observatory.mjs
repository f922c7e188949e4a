// The observatory example: every kind of result an arcane-os/mcp/stdio server can give.
//
//   sky.tonight      text plus structuredContent that matches its declared outputSchema
//   sky.gallery      one block of each content type: text, image, audio, resource_link, resource
//   telescope.point  a domain failure answered as an isError result
//   sky.survey       a slow tool that reports its progress and stops as soon as it is cancelled
//   journal.delete   a destructive tool: it asks the user to confirm (a form) before it deletes
//   observatory://catalog        a text resource
//   observatory://plates/m31.png a blob resource
//
// It also opts in to every protocol revision the adapter knows, so clients of 2024-11-05,
// 2025-03-26 and 2025-06-18 are served in their own revision.
//
// Run it as an MCP client's subprocess: `node examples/observatory.mjs`. Its progress notes go
// to stderr; stdout carries only protocol records.
import {setTimeout as delay} from 'node:timers/promises';
import {createMcpStdioServer, MCP_PROTOCOL_VERSIONS, McpAskError} from 'arcane-os/mcp/stdio';

/** @typedef {import('arcane-os/mcp/stdio').ContentBlock} ContentBlock */

/** @type {Record<string, {name: string, kind: string, magnitude: number}>} */
const CATALOG = {
    moon: {name: 'Moon', kind: 'satellite', magnitude: -12.7},
    jupiter: {name: 'Jupiter', kind: 'planet', magnitude: -2.5},
    saturn: {name: 'Saturn', kind: 'planet', magnitude: 0.6},
    m31: {name: 'Andromeda Galaxy', kind: 'galaxy', magnitude: 3.4},
};

// An 8x8 PNG: two pale stars on a night-blue field.
const PLATE_PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAH0lEQVR4nGPgEjDAihiIlfj//wGJOtAl4CaQbjkcAQA1+RepgbCOIwAAAABJRU5ErkJggg==';

const ICON_SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">' +
    '<circle cx="8" cy="8" r="6" fill="#0a1030"/><circle cx="10" cy="6" r="1" fill="#ffe"/></svg>';

/** @type {import('arcane-os/mcp/stdio').Icon[]} */
const ICONS = [
    {
        src: `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString('base64')}`,
        mimeType: 'image/svg+xml',
        sizes: ['any'],
    },
];

/** The observing journal, by night: what `journal.delete` removes once the user confirms. */
const JOURNAL = new Map([
    ['2026-11-28', 'Jupiter: the Great Red Spot crossed the meridian at 23:10.'],
    ['2026-11-29', 'Andromeda Galaxy: both dust lanes visible at 120x.'],
]);

const SURVEY_SECTOR_MS = 50;
/** The survey says on stderr how far it got after every so many sectors. */
const SURVEY_NOTE_EVERY = 5;

const server = createMcpStdioServer({
    serverInfo: {name: 'observatory', version: '1.0.0', title: 'Observatory'},
    instructions:
        'Call sky.tonight for what is visible, telescope.point to aim at a catalogued object, ' +
        'and read observatory://catalog for the objects it knows.',
    protocolVersions: MCP_PROTOCOL_VERSIONS,
    tools: [
        {
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
            icons: ICONS,
            handler: tonight,
        },
        {
            name: 'sky.gallery',
            title: 'Gallery',
            description:
                'One content block of every type: text, image, audio, a resource link and an embedded resource.',
            inputSchema: {type: 'object'},
            annotations: {readOnlyHint: true},
            handler: gallery,
        },
        {
            name: 'telescope.point',
            title: 'Point the telescope',
            description: 'Aim the telescope at a catalogued object.',
            inputSchema: {
                type: 'object',
                properties: {target: {type: 'string', description: 'A catalogue key such as "m31".'}},
                required: ['target'],
            },
            annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true},
            handler: point,
        },
        {
            name: 'sky.survey',
            title: 'Survey the sky',
            description: 'Scan the sky sector by sector; slow on purpose, and stops when cancelled.',
            inputSchema: {
                type: 'object',
                properties: {sectors: {type: 'integer', minimum: 1, maximum: 10000, default: 20}},
            },
            annotations: {readOnlyHint: true},
            handler: survey,
        },
        {
            name: 'journal.delete',
            title: 'Delete a journal entry',
            description: "Delete one night's entry from the observing journal, once the user confirms.",
            inputSchema: {
                type: 'object',
                properties: {
                    date: {type: 'string', format: 'date', description: 'The night, such as "2026-11-28".'},
                },
                required: ['date'],
            },
            annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: true},
            handler: deleteEntry,
        },
    ],
    resources: [
        {
            uri: 'observatory://catalog',
            name: 'catalog',
            title: 'Object catalogue',
            description: 'Every object the telescope can point at.',
            mimeType: 'application/json',
            handler: readCatalog,
        },
        {
            uri: 'observatory://plates/m31.png',
            name: 'm31-plate',
            title: 'Photographic plate of M31',
            mimeType: 'image/png',
            size: Buffer.from(PLATE_PNG, 'base64').length,
            handler: readPlate,
        },
    ],
});

/** @type {import('arcane-os/mcp/stdio').ToolHandler} */
function tonight(args) {
    const site = typeof args.site === 'string' ? args.site : 'Mauna Kea';
    const report = {site, moonPhase: 'waxing gibbous', visible: ['Moon', 'Jupiter', 'Saturn'], seeing: 4};
    return {
        content: [
            {type: 'text', text: `${site}: ${report.visible.join(', ')} visible; seeing ${report.seeing}/5.`},
        ],
        structuredContent: report,
    };
}

/**
 * Every content block type. Audio came with 2025-03-26 and resource links with 2025-06-18, so a
 * client of an older revision gets only the blocks its revision defines.
 * @type {import('arcane-os/mcp/stdio').ToolHandler}
 */
function gallery(_args, {protocolVersion}) {
    /** @type {[string, ContentBlock][]} */
    const blocks = [
        ['2024-11-05', {type: 'text', text: 'Tonight from the observatory:'}],
        ['2024-11-05', {type: 'image', data: PLATE_PNG, mimeType: 'image/png'}],
        ['2025-03-26', {type: 'audio', data: chime(), mimeType: 'audio/wav'}],
        [
            '2025-06-18',
            {
                type: 'resource_link',
                uri: 'observatory://catalog',
                name: 'catalog',
                mimeType: 'application/json',
            },
        ],
        [
            '2024-11-05',
            {
                type: 'resource',
                resource: {
                    uri: 'observatory://notes/tonight',
                    mimeType: 'text/plain',
                    text: 'Clear skies, light wind.',
                },
            },
        ],
    ];
    // Revisions are ISO dates, so they compare as strings.
    return {content: blocks.filter(([since]) => since <= protocolVersion).map(([, block]) => block)};
}

/** @type {import('arcane-os/mcp/stdio').ToolHandler} */
function point(args) {
    const target = String(args.target);
    const entry = Object.hasOwn(CATALOG, target) ? CATALOG[target] : undefined;
    if (entry === undefined) {
        return {
            content: [
                {
                    type: 'text',
                    text: `No catalogued object is called ${JSON.stringify(target)}; try one of ${Object.keys(CATALOG).join(', ')}.`,
                },
            ],
            isError: true,
        };
    }
    return {content: [{type: 'text', text: `The telescope is pointing at ${entry.name}.`}]};
}

/**
 * Scans one sector at a time, passing its signal to every wait, so a cancelled request stops at
 * once, and reports its progress after each sector to a client that asked for it. It notes on
 * stderr when it starts, every few sectors, and when it stops.
 * @type {import('arcane-os/mcp/stdio').ToolHandler}
 */
async function survey(args, {signal, requestId, reportProgress}) {
    const sectors = Number.isInteger(args.sectors) ? Number(args.sectors) : 20;
    const label = `survey ${JSON.stringify(requestId)}`;
    note(`${label} started: ${sectors} sectors`);
    let scanned = 0;
    try {
        while (scanned < sectors) {
            await delay(SURVEY_SECTOR_MS, undefined, {signal});
            scanned += 1;
            reportProgress({
                progress: scanned,
                total: sectors,
                message: `Scanned sector ${scanned} of ${sectors}`,
            });
            if (scanned % SURVEY_NOTE_EVERY === 0) note(`${label}: ${scanned} of ${sectors} sectors scanned`);
        }
        // Writing up takes one sector's time. It also keeps the last progress notification apart
        // from the result: the official SDK clients handle a notification that arrives together
        // with its result after the result, and drop it.
        await delay(SURVEY_SECTOR_MS, undefined, {signal});
    } catch (error) {
        note(`${label} stopped after ${scanned} sectors: ${String(signal.reason)}`);
        throw error;
    }
    note(`${label} finished`);
    return {content: [{type: 'text', text: `Surveyed ${scanned} sectors.`}]};
}

/**
 * Deletes a journal entry only after the user confirmed it in a form; declined, cancelled or not
 * askable, it deletes nothing. Everything before the question is a read: a 2026-07-28 client gets
 * the question as an `input_required` result and retries with the answer, and the handler then
 * runs again from the start, so nothing irreversible may happen before `elicit` resolves.
 * @type {import('arcane-os/mcp/stdio').ToolHandler}
 */
async function deleteEntry(args, {elicit}) {
    const date = String(args.date);
    const entry = JOURNAL.get(date);
    if (entry === undefined) {
        return {
            content: [
                {
                    type: 'text',
                    text: `The journal has no entry for ${JSON.stringify(date)}. ${journalKeeps()}`,
                },
            ],
            isError: true,
        };
    }
    let answer;
    try {
        answer = await elicit({
            message: `Delete the journal entry of ${date} ("${entry}")? This cannot be undone.`,
            requestedSchema: {
                type: 'object',
                properties: {confirm: {type: 'boolean', title: 'Delete the entry', default: false}},
                required: ['confirm'],
            },
        });
    } catch (error) {
        if (!(McpAskError.is(error) && error.code === 'unsupported-capability')) throw error;
        return {
            content: [
                {
                    type: 'text',
                    text: `Nothing was deleted: this client cannot show a confirmation form. ${journalKeeps()}`,
                },
            ],
            isError: true,
        };
    }
    if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        const choice = answer.action === 'accept' ? 'did not tick confirm' : `chose "${answer.action}"`;
        return {
            content: [{type: 'text', text: `Nothing was deleted: the user ${choice}. ${journalKeeps()}`}],
        };
    }
    JOURNAL.delete(date);
    return {content: [{type: 'text', text: `Deleted the entry of ${date}. ${journalKeeps()}`}]};
}

/** What is left in the journal, as a sentence. */
function journalKeeps() {
    const dates = [...JOURNAL.keys()];
    if (dates.length === 0) return 'The journal is empty.';
    return `The journal keeps ${dates.length === 1 ? '1 entry' : `${dates.length} entries`}: ${dates.join(', ')}.`;
}

/** @type {import('arcane-os/mcp/stdio').ResourceHandler} */
function readCatalog({uri}) {
    return {contents: [{uri, mimeType: 'application/json', text: JSON.stringify(CATALOG)}]};
}

/** @type {import('arcane-os/mcp/stdio').ResourceHandler} */
function readPlate({uri}) {
    return {contents: [{uri, mimeType: 'image/png', blob: PLATE_PNG}]};
}

/** A 20 ms, 880 Hz chime as a 16-bit mono WAV file, base64-encoded. */
function chime() {
    const rate = 8000;
    const samples = rate / 50;
    const wav = Buffer.alloc(44 + samples * 2);
    wav.write('RIFF', 0, 'ascii');
    wav.writeUInt32LE(36 + samples * 2, 4);
    wav.write('WAVEfmt ', 8, 'ascii');
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(rate, 24);
    wav.writeUInt32LE(rate * 2, 28);
    wav.writeUInt16LE(2, 32);
    wav.writeUInt16LE(16, 34);
    wav.write('data', 36, 'ascii');
    wav.writeUInt32LE(samples * 2, 40);
    for (let i = 0; i < samples; i += 1) {
        wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 880 * i) / rate)), 44 + i * 2);
    }
    return wav.toString('base64');
}

/** @param {string} text */
function note(text) {
    process.stderr.write(`observatory: ${text}\n`);
}

server.start();
try {
    await server.closed;
} catch {
    // The adapter has already written the failure to stderr.
    process.exitCode = 1;
}
