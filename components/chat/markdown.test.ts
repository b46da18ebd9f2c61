// Guarantees: the chat page's Markdown reader splits an answer into code fences (also an unclosed one, while it
// streams), headings, lists and paragraphs, and finds inline code, emphasis, http(s) links and citations [n] — and
// nothing else becomes a link (a javascript: URL stays text).
import { describe, expect, it } from 'vitest';
import { blocksOf, inline } from './markdown';

describe('blocksOf', () => {
  it('code fences, headings, lists and paragraphs', () => {
    const md = '# Title\n\nSome text [1].\n\n- one\n- two\n\n1. first\n2. second\n\n```ts\nconst a = 1;\n```\nafter';
    expect(blocksOf(md)).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'p', text: 'Some text [1].' },
      { kind: 'ul', text: '', items: ['one', 'two'] },
      { kind: 'ol', text: '', items: ['first', 'second'] },
      { kind: 'code', text: 'const a = 1;', lang: 'ts' },
      { kind: 'p', text: 'after' },
    ]);
  });

  it('an unclosed fence is code up to the end (a streaming answer)', () => {
    expect(blocksOf('Look:\n```py\nprint(1)')).toEqual([
      { kind: 'p', text: 'Look:' },
      { kind: 'code', text: 'print(1)', lang: 'py' },
    ]);
  });
});

describe('inline', () => {
  const cite = (c: string) => `<cite ${c}>`;
  it('finds code, emphasis, links and citations', () => {
    const parts = inline('Use `npm` **now** *ok* [docs](https://x.dev/a) see [2]', cite, 'k');
    expect(parts.filter((p) => typeof p === 'string')).toEqual(['Use ', ' ', ' ', ' ', ' see ']);
    expect(parts).toHaveLength(10);
  });

  it('a javascript: link stays text', () => {
    expect(inline('[x](javascript:alert(1))', cite, 'k')).toEqual(['[x](javascript:alert(1))']);
  });
});
