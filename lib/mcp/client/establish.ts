/**
 * Opening a session in the era the caller chose: `initialize` in the legacy era, the
 * `server/discover` probe in the modern one, and under `'auto'` the probe with a short wait and
 * the fall back to `initialize` when its outcome says the server is a legacy one.
 */
import type {Implementation, JsonObject} from '../protocol/types.js';
import {MODERN_PROTOCOL_VERSION} from '../protocol/versions.js';
import type {ServerRequestHandlers} from './answering.js';
import {answerer, capabilitiesOf, inputRounds} from './answering.js';
import type {Negotiated, VersionNegotiation} from './era.js';
import {McpConnectionError} from './errors.js';
import {checkHandshake} from './handshake.js';
import {ModernEnvelope} from './modern-meta.js';
import {probe} from './negotiate.js';
import type {Requests} from './requests.js';
import type {ClientTransport} from './transport.js';

export interface EraSettings {
    clientInfo: Implementation;
    protocolVersion: string;
    initializeTimeoutMs: number;
    signal: AbortSignal | undefined;
    versionNegotiation: VersionNegotiation;
    discoverTimeoutMs: number;
    handlers: ServerRequestHandlers;
    maxInputRounds: number;
}

export interface Established {
    negotiated: Negotiated;
    /** The modern envelope, which also admits listed tools; undefined in the legacy era. */
    envelope: ModernEnvelope | undefined;
}

export async function establish(
    requests: Requests,
    transport: ClientTransport,
    settings: EraSettings,
): Promise<Established> {
    const capabilities = capabilitiesOf(settings.handlers);
    const answer = answerer(settings.handlers);
    requests.answerServer = answer;
    const mode = settings.versionNegotiation;
    if (mode !== 'legacy') {
        const overHttp = typeof transport.modern === 'function';
        const envelope = new ModernEnvelope(settings.clientInfo, capabilities, overHttp);
        requests.decorate = (method, params) => envelope.decorate(method, params);
        transport.modern?.(true);
        const pinned = mode === MODERN_PROTOCOL_VERSION;
        const wait = pinned
            ? settings.initializeTimeoutMs
            : Math.min(settings.discoverTimeoutMs, settings.initializeTimeoutMs);
        const outcome = await probe(requests, wait, settings.signal);
        if (outcome.kind === 'modern') {
            requests.rounds = inputRounds(answer, settings.maxInputRounds);
            // Over HTTP a request's exchange is its own; closing it is the cancellation.
            requests.cancelByClosing = overHttp;
            return {negotiated: outcome.negotiated, envelope};
        }
        if (pinned) {
            throw new McpConnectionError(
                `The MCP server does not serve ${MODERN_PROTOCOL_VERSION}: ${outcome.why}. ` +
                    "Connect with versionNegotiation 'auto' or 'legacy' to use its initialize handshake.",
            );
        }
        requests.decorate = undefined;
        transport.modern?.(false);
    }
    const result = await requests.request(
        'initialize',
        {
            protocolVersion: settings.protocolVersion,
            capabilities,
            clientInfo: settings.clientInfo,
        } as JsonObject,
        {signal: settings.signal, timeoutMs: settings.initializeTimeoutMs, cancellable: false},
    );
    const handshake = checkHandshake(result);
    transport.negotiated(handshake.protocolVersion);
    requests.notify('notifications/initialized');
    return {negotiated: {era: 'legacy', ...handshake, discovery: undefined}, envelope: undefined};
}
