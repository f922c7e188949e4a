// Preloaded (`node --import`) into the HTTP bridge, which can listen on port 0 but never says which
// port it got: sends `{port}` of the first server that starts listening over the IPC channel, then
// lets that channel go so it keeps nothing alive. Uses the `net.server.listen` tracing channel
// (Node 22 and later).
import {tracingChannel} from 'node:diagnostics_channel';

const listen = tracingChannel('net.server.listen');
const handlers = {
    start() {},
    end() {},
    asyncStart() {},
    error() {},
    /** @param {{server: import('node:net').Server}} message */
    asyncEnd({server}) {
        listen.unsubscribe(handlers);
        const address = server.address();
        if (address !== null && typeof address === 'object' && process.send !== undefined) {
            process.send({port: address.port}, () => process.channel?.unref());
        }
    },
};
listen.subscribe(handlers);
