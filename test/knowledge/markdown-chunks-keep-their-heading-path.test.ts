// Guarantee: a Markdown document's chunks keep their heading path — the headings in force where each chunk starts,
// then those inside it — ignoring `#` lines inside fenced code, and nothing of the kind for other formats.
import { describe, expect, it } from 'vitest';
import { headingPaths, markdownHeadings } from '@/engine/knowledge/markdown-headings';
import { prepareDocument } from '@/engine/knowledge/prepare-document';

const LIMITS = { maxChars: 1_000_000, maxInflatedBytes: 1e9, maxPages: 100, maxChunks: 1000 };
const DOC = [
  '# Server',
  'Intro text.',
  '## Options',
  '### `bodyLimit`',
  'Defines the maximum payload, in bytes, the server is allowed to accept.',
  '```js',
  '# not a heading, a comment in code',
  '```',
  '## 路由 {#routes}',
  'Routes are declared with [`route()`](./routes.md).',
].join('\n');

describe('markdown heading paths', () => {
  it('reads ATX headings without Markdown marks, anchors or code blocks', () => {
    expect(markdownHeadings(DOC).map((h) => [h.level, h.text])).toEqual([
      [1, 'Server'],
      [2, 'Options'],
      [3, 'bodyLimit'],
      [2, '路由'],
    ]);
  });

  it('gives each range the path at its start, then the headings that start inside it', () => {
    const hs = markdownHeadings(DOC);
    const at = (needle: string) => DOC.indexOf(needle);
    const paths = headingPaths(hs, [at('Defines'), at('Routes are'), 0], [at('```js'), DOC.length, at('Intro')]);
    expect(paths[0]).toEqual(['Server', 'Options', 'bodyLimit']);
    expect(paths[1]).toEqual(['Server', '路由']); // a sibling `##` replaces Options and what was under it
  });

  it('is kept with each chunk of a Markdown document, and absent for plain text', async () => {
    const md = await prepareDocument({
      text: DOC,
      mime: 'text/markdown',
      chunkSize: 100,
      chunkOverlap: 0,
      limits: LIMITS,
    });
    expect(md.headingPaths).toHaveLength(md.starts.length);
    const last = md.headingPaths![md.starts.length - 1];
    expect(last.slice(0, 2)).toEqual(['Server', '路由']);
    const plain = await prepareDocument({
      text: DOC,
      mime: 'text/plain',
      chunkSize: 100,
      chunkOverlap: 0,
      limits: LIMITS,
    });
    expect(plain.headingPaths).toBeUndefined();
  });
});
