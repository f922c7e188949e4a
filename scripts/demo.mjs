// `npm run demo`: the official MCP TypeScript SDK client starts examples/observatory.mjs as a
// subprocess, exactly as a desktop assistant or IDE agent would, and drives it over stdio. It
// prints what the server offers, a few calls, a read, a long call that reports its progress, and
// a slow call cancelled mid-way: after it has reported some progress, and a destructive tool that
// asks the user to confirm (declined once, then accepted). Then it drives examples/star-atlas.mjs: a typed tool, a prompt and a resource template, with completion.
import {once} from 'node:events';
import {createInterface} from 'node:readline';
import {fileURLToPath} from 'node:url';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {ElicitRequestSchema} from '@modelcontextprotocol/sdk/types.js';
import {atlasDemo} from './demo-atlas.mjs';

const example = fileURLToPath(new URL('../examples/observatory.mjs', import.meta.url));

const transport = new StdioClientTransport({command: process.execPath, args: [example], stderr: 'pipe'});
const serverNotes = notesOf(transport.stderr);
let negotiated = '';
/** The ids of every response the server sent, and the id the client gave the slow call. */
const answered = new Set();
/** @type {unknown} */
let surveyId;
// Handlers set before connect are chained by the client: this one only watches the responses.
transport.onmessage = (message) => {
    if ('id' in message && !('method' in message)) answered.add(message.id);
    if ('result' in message && message.id === 0) negotiated = String(message.result.protocolVersion);
};
const send = transport.send.bind(transport);
/** @param {import('@modelcontextprotocol/sdk/types.js').JSONRPCMessage} message */
transport.send = (message) => {
    if (
        'id' in message &&
        'method' in message &&
        message.method === 'tools/call' &&
        message.params?.name === 'sky.survey'
    ) {
        surveyId = message.id;
    }
    return send(message);
};
// The client can show the user a form: the server's confirmation question reaches the handler below.
const client = new Client(
    {name: 'arcane-os-demo', version: '1.0.0'},
    {capabilities: {elicitation: {form: {}}}},
);
/**
 * What the user answers, question by question: no the first time, yes the second.
 * @type {import('@modelcontextprotocol/sdk/types.js').ElicitResult[]}
 */
const userAnswers = [{action: 'decline'}, {action: 'accept', content: {confirm: true}}];
client.setRequestHandler(ElicitRequestSchema, (request) => {
    const params = request.params;
    say(`  ← elicitation/create: ${params.message}`);
    if (params.mode !== 'url') {
        for (const [name, field] of Object.entries(params.requestedSchema.properties)) {
            const shown = 'default' in field ? `, default ${JSON.stringify(field.default)}` : '';
            say(`    form field ${name}: ${field.type} "${field.title ?? name}"${shown}`);
        }
    }
    const answer = userAnswers.shift() ?? {action: 'cancel'};
    say(`  → the user answers ${answer.action}${answer.content ? ` ${JSON.stringify(answer.content)}` : ''}`);
    return answer;
});

say(`arcane-os/mcp/stdio demo: the official MCP SDK client runs "node examples/observatory.mjs"\n`);

await client.connect(transport);
const info = client.getServerVersion();
const capabilities = Object.keys(client.getServerCapabilities() ?? {});
say('→ initialize');
say(`← ${info?.name} ${info?.version}, protocol revision ${negotiated}`);
say(`  offers: ${capabilities.join(', ')}`);
say(`  instructions: ${client.getInstructions()}\n`);

const {tools} = await client.listTools();
say('→ tools/list');
for (const tool of tools) {
    const extras = [tool.outputSchema ? 'outputSchema' : '', tool.icons ? 'icon' : ''].filter(Boolean);
    say(`  ${tool.name.padEnd(16)} ${tool.description}${extras.length > 0 ? ` [${extras.join(', ')}]` : ''}`);
}
const {resources} = await client.listResources();
say('→ resources/list');
for (const resource of resources) {
    say(`  ${resource.uri.padEnd(29)} ${resource.mimeType}  ${resource.title}`);
}
say('');

await call('sky.tonight', {site: 'La Palma'});
await call('sky.gallery', {});
await call('telescope.point', {target: 'pluto'});

say('→ resources/read observatory://catalog');
const catalog = await client.readResource({uri: 'observatory://catalog'});
const first = catalog.contents[0];
const names =
    first && 'text' in first ? Object.values(JSON.parse(first.text)).map((entry) => entry.name) : [];
say(`← ${first?.mimeType}: ${names.join(', ')}\n`);

say('→ tools/call sky.survey {"sectors":20}   (a long call; progress resets its 500 ms timeout)');
const long = progressLine();
const surveying = client.callTool({name: 'sky.survey', arguments: {sectors: 20}}, undefined, {
    onprogress: long.show,
    resetTimeoutOnProgress: true,
    timeout: 500,
});
say(`  server stderr: ${await serverNotes.next('started')}`);
const surveyed = await surveying;
long.end();
for (const block of /** @type {Array<Record<string, unknown>>} */ (surveyed.content)) {
    say(`← ${describe(block)}`);
}
say(`  server stderr: ${await serverNotes.next('finished')}\n`);

say('→ tools/call sky.survey {"sectors":10000}   (a slow tool; cancelled after some progress)');
const controller = new AbortController();
const slow = progressLine();
const survey = client.callTool({name: 'sky.survey', arguments: {sectors: 10000}}, undefined, {
    signal: controller.signal,
    onprogress: slow.show,
});
say(`  server stderr: ${await serverNotes.next('started')}`);
await slow.reached(3);
slow.end();
controller.abort('the user pressed stop');
say('→ notifications/cancelled  (the client aborted its AbortSignal with "the user pressed stop")');
try {
    await survey;
    say('← unexpectedly finished');
} catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    say(`  callTool rejected with the client's own local error (the server sent nothing): ${message}`);
}
say(`  server stderr: ${await serverNotes.next('stopped')}`);
// Answers leave in completion order, so the ping's answer comes after any the survey could still get.
await client.ping();
say(
    answered.has(surveyId)
        ? `← unexpectedly, the server answered the cancelled request ${surveyId}`
        : `→ ping  ← answered, and still no response to request ${surveyId}: a cancelled request is never answered\n`,
);

say('journal.delete is destructive: its handler asks the user to confirm before it deletes anything.');
await call('journal.delete', {date: '2026-11-28'});
await call('journal.delete', {date: '2026-11-28'});

await client.close();
say("→ close: the client ends the server's stdin, and the server drains and exits");
say('');
await atlasDemo(say);

/**
 * @param {string} name
 * @param {Record<string, unknown>} args
 */
async function call(name, args) {
    say(`→ tools/call ${name} ${JSON.stringify(args)}`);
    const result = await client.callTool({name, arguments: args});
    const content = /** @type {Array<Record<string, unknown>>} */ (result.content);
    for (const block of content) say(`← ${describe(block)}`);
    if (result.structuredContent) {
        say(
            `  structuredContent (the client checked it against outputSchema): ${JSON.stringify(result.structuredContent)}`,
        );
    }
    if (result.isError) say('  isError: true (a domain failure, reported as a result)');
    say('');
}

/** @param {Record<string, unknown>} block */
function describe(block) {
    switch (block.type) {
        case 'text':
            return `text: ${block.text}`;
        case 'image':
        case 'audio':
            return `${block.type}: ${block.mimeType}, ${Buffer.from(String(block.data), 'base64').length} bytes`;
        case 'resource_link':
            return `resource_link: ${block.uri}`;
        case 'resource': {
            const resource = /** @type {{uri: string, text?: string}} */ (block.resource);
            return `resource: ${resource.uri} "${resource.text}"`;
        }
        default:
            return JSON.stringify(block);
    }
}

/** @param {string} line */
function say(line) {
    process.stdout.write(`${line}\n`);
}

/**
 * One progress line: redrawn in place on a terminal, printed once with its last state otherwise.
 * `show` is an `onprogress` callback; `end` finishes the line.
 */
function progressLine() {
    const terminal = process.stdout.isTTY === true;
    let text = '';
    let latest = 0;
    /** @type {{at: number, resolve: () => void}[]} */
    let waiters = [];
    return {
        /** @param {{progress: number, total?: number, message?: string}} update */
        show(update) {
            latest = update.progress;
            for (const waiter of waiters.filter((entry) => latest >= entry.at)) waiter.resolve();
            waiters = waiters.filter((entry) => latest < entry.at);
            const total = update.total ?? 0;
            const filled = total > 0 ? Math.round((20 * update.progress) / total) : 0;
            const bar = `${'#'.repeat(filled)}${'.'.repeat(20 - filled)}`;
            text = `  [${bar}] ${update.progress}/${total} ${update.message ?? ''}`.trimEnd();
            if (terminal) process.stdout.write(`\r\x1b[2K${text}`);
        },
        end() {
            if (terminal) process.stdout.write('\n');
            else if (text !== '') say(text);
        },
        /**
         * Resolves once the progress has reached `at`.
         * @param {number} at
         * @returns {Promise<void>}
         */
        reached(at) {
            if (latest >= at) return Promise.resolve();
            return new Promise((resolve) => waiters.push({at, resolve}));
        },
    };
}

/**
 * The server's stderr notes, handed out one matching line at a time.
 * @param {import('node:stream').Stream | null} stream
 */
function notesOf(stream) {
    /** @type {string[]} */
    const lines = [];
    const reader = createInterface({input: /** @type {import('node:stream').Readable} */ (stream)});
    reader.on('line', (line) => lines.push(line));
    return {
        /** @param {string} word */
        async next(word) {
            for (;;) {
                const index = lines.findIndex((line) => line.includes(word));
                if (index !== -1) return lines.splice(index, 1)[0];
                const closed = once(reader, 'close').then(() => {
                    throw new Error(`The server's stderr ended before a line with "${word}"`);
                });
                await Promise.race([once(reader, 'line'), closed]);
            }
        },
    };
}
