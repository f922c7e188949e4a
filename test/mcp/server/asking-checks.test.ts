/** The checks of the asking option, of each question, of the capabilities and of the answers. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
    answerProblem,
    checkCreateMessage,
    checkElicit,
    checkOptions,
    missingCapability,
} from '../../../lib/mcp/server/asking/questions.js';
import {captureAsking} from '../../../lib/mcp/server/asking/settings.js';
import {createMcpStdioServer} from '../../../lib/mcp/stdio/index.js';

const P = 'createMcpStdioServer: ';
const create = (asking: unknown) => () =>
    createMcpStdioServer({serverInfo: {name: 's', version: '1'}, asking: asking as never});

test('the asking option: defaults shared, keys checked, a key of at least 32 bytes', () => {
    assert.equal(captureAsking(undefined), captureAsking(undefined));
    assert.equal(captureAsking(undefined).timeoutMs, 300_000);
    assert.equal(captureAsking({timeoutMs: 5}).timeoutMs, 5);
    assert.ok(captureAsking({requestStateKey: new Uint8Array(32)}));
    assert.throws(create(3), {
        name: 'TypeError',
        message: `${P}asking must be an object {timeoutMs, requestStateKey, requestStateTtlMs}, got number 3`,
    });
    assert.throws(create({timeout: 1}), {
        name: 'TypeError',
        message: `${P}unknown option "asking.timeout"; the options are asking.timeoutMs, asking.requestStateKey, asking.requestStateTtlMs`,
    });
    assert.throws(create({requestStateKey: 5}), {
        name: 'TypeError',
        message: `${P}asking.requestStateKey must be a string or a Uint8Array, got number 5`,
    });
    assert.throws(create({requestStateKey: 'short'}), {
        name: 'RangeError',
        message: `${P}asking.requestStateKey has 5 bytes; give at least 32 (crypto.randomBytes(32), say)`,
    });
    assert.throws(create({timeoutMs: 0}), {name: 'RangeError'});
    assert.throws(create({requestStateTtlMs: 'x'}), {name: 'TypeError'});
});

test('the subscriptions option is a boolean', () => {
    assert.throws(
        () => createMcpStdioServer({serverInfo: {name: 's', version: '1'}, subscriptions: 'yes' as never}),
        {name: 'TypeError', message: `${P}subscriptions must be a boolean, got the string "yes"`},
    );
});

test('elicit requests: form, url and what is wrong with each', () => {
    const form = {message: 'm', requestedSchema: {type: 'object', properties: {a: {type: 'string'}}}};
    assert.equal(checkElicit(form), form);
    const url = {mode: 'url', message: 'm', url: 'https://x.test/', elicitationId: 'e'};
    assert.equal(checkElicit(url), url);
    const where = 'context.elicit(request)';
    assert.throws(() => checkElicit(null), {message: `${where} needs a request object, got null`});
    assert.throws(() => checkElicit({}), {
        message: `${where}: "message" must be the string shown to the user, got undefined`,
    });
    assert.throws(() => checkElicit({mode: 'url', message: 'm'}), {
        message: `${where}: a url-mode request needs "url" and "elicitationId" strings`,
    });
    assert.throws(() => checkElicit({mode: 'x', message: 'm'}), {
        message: `${where}: "mode" must be "form" or "url", got the string "x"`,
    });
    assert.throws(
        () =>
            checkElicit({message: 'm', requestedSchema: {type: 'object', properties: {a: {type: 'object'}}}}),
        {
            name: 'TypeError',
            message: `${where}: form field "a" must have "type" string, number, integer, boolean or array (of enum values); got an object`,
        },
    );
});

test('createMessage requests and the options of every question', () => {
    const where = 'context.createMessage(request)';
    assert.throws(() => checkCreateMessage('x'), {
        message: `${where} needs a request object, got the string "x"`,
    });
    assert.throws(() => checkCreateMessage({maxTokens: 1}), {
        message: `${where}: "messages" must be an array, got undefined`,
    });
    assert.throws(() => checkCreateMessage({messages: [], maxTokens: 0}), {
        message: `${where}: "maxTokens" must be a positive integer, got number 0`,
    });
    assert.deepEqual(checkOptions('w', undefined), {});
    assert.deepEqual(checkOptions('w', {key: 'k', timeoutMs: 5}), {key: 'k', timeoutMs: 5});
    assert.throws(() => checkOptions('w', 1), {message: 'w: options must be an object, got number 1'});
    assert.throws(() => checkOptions('w', {keys: 'k'}), {
        message: 'w: unknown option "keys"; the options are key, timeoutMs',
    });
    assert.throws(() => checkOptions('w', {key: ''}), {
        message: 'w: "key" must be a non-empty string, got the string ""',
    });
    assert.throws(() => checkOptions('w', {timeoutMs: 1.5}), {
        name: 'TypeError',
        message: 'w: "timeoutMs" must be a whole number of milliseconds, got number 1.5',
    });
    assert.throws(() => checkOptions('w', {timeoutMs: 0}), {
        name: 'RangeError',
        message: 'w: "timeoutMs" must be from 1 to 2147483647, got 0',
    });
});

test('the capability each question needs', () => {
    assert.equal(missingCapability('roots/list', {}, {roots: {}}), undefined);
    assert.equal(missingCapability('roots/list', {}, {}), '"roots"');
    assert.equal(missingCapability('sampling/createMessage', {}, {}), '"sampling"');
    assert.equal(
        missingCapability('sampling/createMessage', {tools: []}, {sampling: {}}),
        '"sampling.tools" (the request has tools)',
    );
    assert.equal(
        missingCapability('sampling/createMessage', {tools: []}, {sampling: {tools: {}}}),
        undefined,
    );
    assert.equal(missingCapability('elicitation/create', {}, {elicitation: {url: {}}}), '"elicitation.form"');
    assert.equal(missingCapability('elicitation/create', {}, {elicitation: {form: {}}}), undefined);
    assert.equal(missingCapability('elicitation/create', {mode: 'url'}, {elicitation: {url: {}}}), undefined);
});

test('what a valid answer looks like', () => {
    assert.equal(answerProblem('roots/list', {roots: []}), undefined);
    assert.equal(answerProblem('roots/list', {}), 'it has no "roots" array');
    assert.equal(answerProblem('roots/list', 5), 'it is number 5, not an object');
    assert.equal(answerProblem('sampling/createMessage', {role: 'assistant', content: []}), undefined);
    assert.equal(
        answerProblem('sampling/createMessage', {role: 'assistant'}),
        'it needs a "role" string and a "content" object or array',
    );
    assert.equal(
        answerProblem('elicitation/create', {action: 'accept', content: 3}),
        'its "content" is not an object',
    );
    assert.equal(answerProblem('elicitation/create', {action: 'cancel'}), undefined);
});
