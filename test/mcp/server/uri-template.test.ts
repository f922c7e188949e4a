/** The RFC 6570 matcher: which uris a template expands to, the decoded variables, invalid templates. */
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {UriTemplate} from '../../../lib/mcp/server/uri-template.js';

function matches(template: string, uri: string): unknown {
    return new UriTemplate(template).match(uri);
}

describe('matching', () => {
    test('level 1: a simple variable, decoded, never across a slash, query or fragment', () => {
        assert.deepEqual(matches('test://template/{id}/data', 'test://template/123/data'), {id: '123'});
        assert.deepEqual(matches('test://u/{name}', 'test://u/J%C3%BCrgen%20K'), {name: 'Jürgen K'});
        assert.deepEqual(matches('test://u/{name}', 'test://u/'), {name: ''});
        assert.equal(matches('test://template/{id}/data', 'test://template/1/2/data'), undefined);
        assert.equal(matches('test://u/{id}', 'test://u/a?b'), undefined);
        assert.equal(matches('test://u/{id}', 'test://u/a#b'), undefined);
        assert.equal(matches('test://u/{id}', 'test://v/a'), undefined);
        assert.equal(matches('test://u/{id}', 'test://u/%E0%A4%A'), undefined);
    });

    test('literals are matched exactly, regular-expression characters included', () => {
        assert.deepEqual(matches('a+b://x.y/(z)/{id}', 'a+b://x.y/(z)/1'), {id: '1'});
        assert.equal(matches('a+b://x.y/(z)/{id}', 'aab://xzy/(z)/1'), undefined);
    });

    test('several variables in one expression, and in several', () => {
        assert.deepEqual(matches('m://{x,y}', 'm://1,2'), {x: '1', y: '2'});
        assert.deepEqual(matches('m://{x,y}', 'm://1'), {x: '1'});
        assert.equal(matches('m://{x,y}', 'm://1,2,3'), undefined);
        assert.deepEqual(matches('m://{a}/{b}', 'm://1/2'), {a: '1', b: '2'});
    });

    test('reserved expansion keeps reserved characters and stops before a query expression', () => {
        assert.deepEqual(matches('file:///{+path}', 'file:///src/a%20b/c.ts'), {path: 'src/a b/c.ts'});
        assert.deepEqual(matches('file:///{+path}{?rev}', 'file:///a/b?rev=3'), {path: 'a/b', rev: '3'});
        assert.deepEqual(matches('file:///{+path}/raw', 'file:///a/b/raw'), {path: 'a/b'});
    });

    test('query: only the variables present, in any order; an undeclared one is no match', () => {
        const template = 'search://q{?q,lang}';
        assert.deepEqual(matches(template, 'search://q?q=cats&lang=en'), {q: 'cats', lang: 'en'});
        assert.deepEqual(matches(template, 'search://q?lang=en&q=a%26b'), {q: 'a&b', lang: 'en'});
        assert.deepEqual(matches(template, 'search://q?q='), {q: ''});
        assert.deepEqual(matches(template, 'search://q?q'), {q: ''});
        assert.deepEqual(matches(template, 'search://q'), {});
        assert.equal(matches(template, 'search://q?page=2'), undefined);
        assert.equal(matches(template, 'search://q?q=1&q=2'), undefined);
        assert.deepEqual(matches('s://q?fixed=1{&more}', 's://q?fixed=1&more=x'), {more: 'x'});
    });

    test('fragment, label, path-segment and path-parameter operators', () => {
        assert.deepEqual(matches('d://doc{#section}', 'd://doc#intro/a'), {section: 'intro/a'});
        assert.deepEqual(matches('d://doc{#section}', 'd://doc'), {});
        assert.deepEqual(matches('f://file{.ext}', 'f://file.json'), {ext: 'json'});
        assert.deepEqual(matches('p://root{/a,b}', 'p://root/x/y'), {a: 'x', b: 'y'});
        assert.deepEqual(matches('p://root{/a,b}', 'p://root/x'), {a: 'x'});
        assert.deepEqual(matches('m://x{;v,w}', 'm://x;v=1;w'), {v: '1', w: ''});
    });

    test('explode gives a list; prefix bounds the decoded length', () => {
        assert.deepEqual(matches('p://root{/segments*}', 'p://root/a/b%20c'), {segments: ['a', 'b c']});
        assert.deepEqual(matches('p://list/{items*}', 'p://list/a,b'), {items: ['a', 'b']});
        assert.deepEqual(matches('s://q{?tag*}', 's://q?tag=a&tag=b'), {tag: ['a', 'b']});
        assert.deepEqual(matches('p://x{/one*}', 'p://x/only'), {one: ['only']});
        assert.equal(matches('p://root{/segments*}', 'p://root/a/%E0'), undefined);
        assert.deepEqual(matches('c://{code:3}', 'c://abc'), {code: 'abc'});
        assert.equal(matches('c://{code:3}', 'c://abcd'), undefined);
        const list = matches('p://root{/segments*}', 'p://root/a') as {segments: string[]};
        assert.equal(Object.isFrozen(list.segments), true);
    });

    test('a variable named __proto__ is an own property, not the prototype', () => {
        const found = matches('x://{__proto__}', 'x://v') as Record<string, unknown>;
        assert.equal(Object.getPrototypeOf(found), Object.prototype);
        assert.deepEqual(Object.getOwnPropertyDescriptor(found, '__proto__')?.value, 'v');
    });

    test('the variables are listed in template order', () => {
        assert.deepEqual(new UriTemplate('a://{x}/{+y}{?q,r}').variables, ['x', 'y', 'q', 'r']);
        assert.deepEqual(new UriTemplate('a://static').variables, []);
        assert.deepEqual(matches('a://static', 'a://static'), {});
    });
});

describe('invalid templates', () => {
    const rejects = (template: string, why: string) =>
        assert.throws(
            () => new UriTemplate(template),
            (error: unknown) =>
                error instanceof TypeError &&
                error.message === `${JSON.stringify(template)} is not a valid RFC 6570 URI template: ${why}`,
        );

    test('each is a TypeError saying what is wrong', () => {
        rejects('a://{id', 'the "{" at position 4 is never closed');
        rejects('a://id}', 'a "}" at position 6 closes no "{"');
        rejects('a://{}', 'it has an empty expression "{}"');
        rejects('a://{=x}', 'the operator "=" in "{=x}" is reserved by RFC 6570 for future use');
        rejects(
            'a://{a b}',
            '"a b" in "{a b}" is not a variable name (letters, digits, "_", percent-encoded triplets, and "." between them)',
        );
        rejects(
            'a://{x-y}',
            '"x-y" in "{x-y}" is not a variable name (letters, digits, "_", percent-encoded triplets, and "." between them)',
        );
        rejects('a://{x:0}', 'the prefix ":0" in "{x:0}" must be a length from 1 to 9999');
        rejects('a://{x:10000}', 'the prefix ":10000" in "{x:10000}" must be a length from 1 to 9999');
        rejects('a://{x}/{x}', 'the variable "x" appears twice; each variable must have one value');
        rejects('a://b c/{x}', '" " at position 5 is not allowed outside an expression');
        rejects('a://100%/{x}', '"%" at position 7 is not allowed outside an expression');
    });

    test('percent-encoded triplets are allowed in literals and names', () => {
        assert.deepEqual(matches('a://b%20c/{x%41}', 'a://b%20c/1'), {'x%41': '1'});
        assert.deepEqual(matches('a://{a.b}', 'a://1'), {'a.b': '1'});
    });
});

describe('matching untrusted uris', () => {
    /** The anchored regular expression a backtracking matcher would use, each expression one capture. */
    const PATTERNS: Record<string, string> = {
        '': '([^/?#]*)',
        '+': '(.*?)',
        '#': '((?:#.*?)?)',
        '.': '((?:\\.[^/?#.]*)*)',
        '/': '((?:/[^/?#]*)*)',
        ';': '((?:;[^/?#;]*)*)',
        '?': '((?:\\?[^#]*)?)',
        '&': '((?:&[^#]*)?)',
    };
    function reference(template: string): RegExp {
        const source = template.replace(/\{([^}]*)\}|([^{]+)/g, (_, body: string | undefined, literal) => {
            if (body === undefined) return (literal as string).replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
            const operator = '+#./;?&'.includes(body[0] as string) ? (body[0] as string) : '';
            return PATTERNS[operator] as string;
        });
        return new RegExp(`^${source}$`, 's');
    }

    test('the variables are those of the leftmost regular-expression match, on any uri', () => {
        // One unnamed variable an expression: its value is the capture after the operator's character.
        const templates = [
            'x://{a}{b}',
            'x://{a}.{b}',
            'x://{+a}{b}',
            'x://{+a}/{b}{c}',
            'x://{/a}{/b}{/c}',
            'x://{a}{.e}{#f}',
            'x://{#a}{+b}',
            'x://{.a}{.b}{c}',
            'x://{+a}.{+b}{#c}',
        ];
        // A seeded generator, so a failure names a reproducible uri.
        let seed = 7;
        const random = (n: number): number => {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            return seed % n;
        };
        const alphabet = 'ab/.?#&;=,';
        let matched = 0;
        for (const template of templates) {
            const compiled = new UriTemplate(template);
            const regex = reference(template);
            const operators = [...template.matchAll(/\{([+#./]?)/g)].map((found) => found[1] as string);
            for (let round = 0; round < 500; round++) {
                let uri = 'x://';
                for (let length = random(10); length > 0; length--) uri += alphabet[random(alphabet.length)];
                const found = regex.exec(uri);
                let expected: Record<string, string> | undefined;
                if (found !== null) {
                    matched++;
                    expected = {};
                    for (const [index, name] of compiled.variables.entries()) {
                        const text = found[index + 1] as string;
                        const first = operators[index] === '' || operators[index] === '+' ? 0 : 1;
                        if (text !== '' || first === 0) expected[name] = text.slice(first);
                    }
                }
                assert.deepEqual(compiled.match(uri), expected, `${template} against ${uri}`);
            }
        }
        assert.ok(matched > 500, `only ${matched} uris matched: the cases test too little`);
    });

    test('adjacent expressions against a long uri that does not match: the answer comes', () => {
        // A backtracking expression takes hours here (cubic, or worse, in the uri's length).
        const long = 'a'.repeat(200_000);
        assert.equal(matches('x://{a}{b}{c}/z', `x://${long}!`), undefined);
        assert.equal(matches('x://{/a}{/b}{/c}z', `x://${'/a'.repeat(100_000)}!`), undefined);
        assert.equal(matches('x://{+a}{+b}{+c}/z', `x://${long}!`), undefined);
        assert.equal(matches('x://{a}.{b}.{c}/z', `x://${'a.'.repeat(100_000)}!`), undefined);
        assert.deepEqual(matches('x://{a}.{b}/z', `x://${long}.b/z`), {a: long, b: 'b'});
    });
});
