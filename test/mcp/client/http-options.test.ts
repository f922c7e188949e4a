import assert from 'node:assert/strict';
import {test} from 'node:test';
import {HttpTransport} from '../../../lib/mcp/client/http.js';
import type {HttpTransportOptions} from '../../../lib/mcp/client/http-options.js';
import {httpSettings, isLoopbackHost} from '../../../lib/mcp/client/http-options.js';

const make = (options: unknown) => () => new HttpTransport(options as HttpTransportOptions);

test('plain HTTP to a host that is not loopback is a TypeError naming the URL and the https one to use', () => {
    assert.throws(make({url: 'http://mcp.example.com:8080/mcp?x=1'}), {
        name: 'TypeError',
        message:
            'connectMcpClient: the url http://mcp.example.com:8080/mcp?x=1 uses plain HTTP to a host that is not ' +
            'loopback, which would expose the session and its credentials; use https://mcp.example.com:8080/mcp?x=1 ' +
            '(plain HTTP is allowed only for localhost, 127.0.0.0/8 and [::1])',
    });
    assert.throws(make({url: 'http://10.0.0.1/mcp'}), TypeError);
    assert.throws(make({url: 'http://[::2]/mcp'}), TypeError);
    assert.throws(make({url: 'http://localhost.example.com/mcp'}), TypeError);
    assert.throws(make({url: 'http://128.0.0.1/mcp'}), TypeError);
});

test('plain HTTP to a loopback host is allowed, in any spelling the URL parser normalizes', () => {
    for (const url of [
        'http://localhost:3000/mcp',
        'http://LOCALHOST/mcp',
        'http://127.0.0.1/mcp',
        'http://127.9.8.7/',
        'http://127.1/',
        'http://[::1]:9/mcp',
        'http://[0:0::1]/',
    ]) {
        assert.doesNotThrow(make({url}), url);
    }
    assert.deepEqual(
        ['localhost', '[::1]', '127.255.0.1', '127.0.0.1.nip.io', '[::ffff:7f00:1]'].map(isLoopbackHost),
        [true, true, true, false, false],
    );
});

test('https is accepted for any host, given as a string or a URL, and its fragment is dropped', () => {
    const settings = httpSettings({url: new URL('https://mcp.example.com/mcp#frag')}, 'test');
    assert.equal(settings.url.href, 'https://mcp.example.com/mcp');
    assert.doesNotThrow(make({url: 'https://10.1.2.3/'}));
});

test('a URL that is not absolute, of another scheme, or with credentials is refused with how to fix it', () => {
    assert.throws(make({url: '/mcp'}), {
        name: 'TypeError',
        message: 'connectMcpClient: url "/mcp" is not an absolute URL; give one such as https://host/mcp',
    });
    assert.throws(make({url: 'ws://127.0.0.1/mcp'}), {
        message:
            'connectMcpClient: the url ws://127.0.0.1/mcp must use https: (or http: for a loopback host)',
    });
    assert.throws(make({url: 'https://me:secret@mcp.example.com/mcp'}), {
        message:
            'connectMcpClient: the url https://mcp.example.com/mcp carries credentials, which fetch refuses; ' +
            'pass them in headers instead, e.g. {authorization: "Basic …"}',
    });
    assert.throws(make({url: 42}), {
        message: 'connectMcpClient: url must be a string or a URL, got number 42',
    });
    assert.throws(make(undefined), {message: 'connectMcpClient needs an options object, got undefined'});
});

test('headers must be strings, valid, and may not set what the transport sets itself', () => {
    assert.throws(make({url: 'https://h/', headers: {'MCP-Session-Id': 'x'}}), {
        name: 'TypeError',
        message:
            'connectMcpClient: headers may not set "MCP-Session-Id": the transport sets mcp-session-id itself; remove it',
    });
    assert.throws(make({url: 'https://h/', headers: {accept: '*/*'}}), /the transport sets accept itself/);
    assert.throws(make({url: 'https://h/', headers: {authorization: 1}}), {
        message: 'connectMcpClient: headers["authorization"] must be a string, got number 1',
    });
    assert.throws(make({url: 'https://h/', headers: {'bad name': 'x'}}), {
        message: 'connectMcpClient: headers["bad name"] is not a valid HTTP header',
    });
    assert.throws(make({url: 'https://h/', headers: 'x'}), {
        message: 'connectMcpClient: headers must be an object of header names to strings, got the string "x"',
    });
    assert.deepEqual(httpSettings({url: 'https://h/', headers: {Authorization: 'Bearer a'}}, 't').headers, [
        ['authorization', 'Bearer a'],
    ]);
});

test('every default is filled in, and numbers out of range are RangeErrors', () => {
    const {url, ...rest} = httpSettings({url: 'https://h/mcp'}, 't');
    assert.equal(url.href, 'https://h/mcp');
    assert.deepEqual(rest, {
        headers: [],
        listen: false,
        initialDelayMs: 1000,
        maxDelayMs: 30000,
        maxAttempts: 5,
        maxMessageBytes: 64 * 1024 * 1024,
        closeTimeoutMs: 2000,
    });
    assert.throws(make({url: 'https://h/', maxMessageBytes: 0}), {
        name: 'RangeError',
        message: 'connectMcpClient: maxMessageBytes must be an integer of at least 1, got number 0',
    });
    assert.throws(make({url: 'https://h/', reconnect: {maxAttempts: 0}}), {
        message: 'connectMcpClient: reconnect.maxAttempts must be an integer of at least 1, got number 0',
    });
    assert.throws(make({url: 'https://h/', reconnect: {initialDelayMs: 10, maxDelayMs: 5}}), {
        message: 'connectMcpClient: reconnect.maxDelayMs (5) must be at least reconnect.initialDelayMs (10)',
    });
    assert.throws(make({url: 'https://h/', closeTimeoutMs: 1.5}), RangeError);
});

test('unknown options and wrong types are named', () => {
    assert.throws(make({url: 'https://h/', retries: 3}), {
        name: 'TypeError',
        message:
            'connectMcpClient: unknown option "retries"; the options are url, headers, listen, reconnect, maxMessageBytes, closeTimeoutMs',
    });
    assert.throws(make({url: 'https://h/', reconnect: {delay: 1}}), {
        message:
            'connectMcpClient: unknown option "reconnect.delay"; the options are reconnect.initialDelayMs, reconnect.maxDelayMs, reconnect.maxAttempts',
    });
    assert.throws(make({url: 'https://h/', reconnect: 5}), {
        message: 'connectMcpClient: reconnect must be an object, got number 5',
    });
    assert.throws(make({url: 'https://h/', listen: 'yes'}), {
        message: 'connectMcpClient: listen must be a boolean, got the string "yes"',
    });
});

test('the transport must be started once before it sends', async () => {
    const transport = new HttpTransport({url: 'http://127.0.0.1:9/mcp'});
    await assert.rejects(transport.send({jsonrpc: '2.0', method: 'x'}), {
        message: 'HttpTransport: start() was not called',
    });
    const handlers = {message() {}, stray() {}, malformed() {}, closed() {}};
    await transport.start(handlers);
    await assert.rejects(transport.start(handlers), {message: 'HttpTransport: start() was already called'});
    await transport.close();
});
