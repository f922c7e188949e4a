/**
 * The outcomes of prompt handlers and completers as results: a `GetPromptResult` is checked and
 * passed through untouched, a completer's values become a `CompleteResult`.
 */
import type {JsonObject} from '../../jsonrpc/records.js';
import {isObject} from '../../jsonrpc/records.js';
import {ResultProblem} from './era.js';

/** The most values one `completion/complete` result may carry. */
export const MAX_COMPLETIONS = 100;

/** The result to answer for a `prompts/get` or `completion/complete` outcome, or why there is none. */
export function featureResult(
    method: 'prompts/get' | 'completion/complete',
    value: unknown,
): JsonObject | ResultProblem {
    return method === 'prompts/get' ? promptResult(value) : completionResult(value);
}

function promptResult(value: unknown): JsonObject | ResultProblem {
    if (!isObject(value) || !Array.isArray(value.messages)) {
        return new ResultProblem(
            'the handler returned an invalid GetPromptResult: it must be an object with a "messages" array',
            value,
        );
    }
    for (const [index, message] of (value.messages as unknown[]).entries()) {
        if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
            return new ResultProblem(
                `the handler returned an invalid GetPromptResult: messages[${index}] needs "role" "user" or "assistant"`,
                value,
            );
        }
        const content = message.content;
        if (!isObject(content) || typeof content.type !== 'string') {
            return new ResultProblem(
                `the handler returned an invalid GetPromptResult: messages[${index}] needs a "content" block with a "type" string`,
                value,
            );
        }
    }
    return value;
}

function completionResult(value: unknown): JsonObject | ResultProblem {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
        return new ResultProblem('the completer must return an array of strings', value);
    }
    const total = value.length;
    if (total <= MAX_COMPLETIONS) return {completion: {values: [...value]}};
    return {completion: {values: value.slice(0, MAX_COMPLETIONS), total, hasMore: true}};
}
