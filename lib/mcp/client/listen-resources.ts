/**
 * `subscribeResource(uri)` and `unsubscribeResource(uri)` in the 2026-07-28 era, which has no
 * `resources/subscribe`: each subscribed URI is a `subscriptions/listen` of its own, kept until it
 * is withdrawn or ends, so code written for the legacy era keeps working unchanged.
 */
import {checkString} from '../../util/options.js';
import {McpClientError} from './errors.js';
import type {Listens} from './listen.js';
import type {McpSubscription} from './listen-handle.js';
import {checkRequestOptions} from './options.js';

export class ResourceListens {
    readonly #listens: Listens;
    /** Each URI's subscription, from the moment it is asked for. */
    readonly #byUri = new Map<string, Promise<McpSubscription>>();

    constructor(listens: Listens) {
        this.#listens = listens;
    }

    /** Resolves once the server acknowledged the URI; a URI already subscribed shares that. */
    subscribe(uri: unknown, options: unknown): Promise<void> {
        const where = 'client.subscribeResource';
        checkString(where, 'the uri', uri);
        const key = uri as string;
        const known = this.#byUri.get(key);
        if (known !== undefined) {
            checkRequestOptions(where, options, 1, false);
            return known.then(() => {});
        }
        const opening = this.#listens
            .listen({resources: [key]}, options, where, true)
            .then(async (subscription) => {
                if (!subscription.granted.resources.includes(key)) {
                    await subscription.close();
                    throw new McpClientError(
                        `The MCP server acknowledged the subscription to ${JSON.stringify(key)} without granting ` +
                            'it: it serves no updates for that resource (see capabilities.resources.subscribe)',
                    );
                }
                void subscription.ended.then(() => this.#forget(key, opening));
                return subscription;
            });
        this.#byUri.set(key, opening);
        opening.catch(() => this.#forget(key, opening));
        return opening.then(() => {});
    }

    /** Ends the URI's subscription; a URI not subscribed is left as it is, as asked. */
    unsubscribe(uri: unknown, options: unknown): Promise<void> {
        const where = 'client.unsubscribeResource';
        checkString(where, 'the uri', uri);
        checkRequestOptions(where, options, 1, false);
        const opening = this.#byUri.get(uri as string);
        if (opening === undefined) return Promise.resolve();
        this.#byUri.delete(uri as string);
        return opening.then(
            (subscription) => subscription.close(),
            () => {},
        );
    }

    #forget(uri: string, opening: Promise<McpSubscription>): void {
        if (this.#byUri.get(uri) === opening) this.#byUri.delete(uri);
    }
}
