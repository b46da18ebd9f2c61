/**
 * Parent–child chunking (a knowledge base's chunking `parent-child`): small chunks are what is searched and embedded
 * — a few sentences match a question precisely — and a hit returns the section around them, which answers it whole.
 * Parents are the document's sections: split at Markdown headings (levels 1–3) and page boundaries, then cut to at
 * most `parentSize` characters like any text (chunker.ts); children are cut from each parent with the knowledge
 * base's chunk size and overlap, so a child never spans two parents. A parent small enough to be one child is its
 * own chunk, without a separate parent.
 */
import { chunkText, type Chunk, type TextSegment } from './chunker';

export interface ParentChildOptions {
  size: number;
  overlap: number;
  parentSize: number;
}

export type ChildChunk = Chunk & { parent?: { start: number; end: number } };

/** The segments (pages, or the whole text) cut again at each heading start inside them. */
function sections(text: string, segments: TextSegment[] | undefined, headingStarts: number[]): TextSegment[] {
  const base = segments?.length ? segments : [{ start: 0, end: text.length, page: null }];
  const out: TextSegment[] = [];
  for (const seg of base) {
    let from = seg.start;
    for (const h of headingStarts) {
      if (h <= from || h >= seg.end) continue;
      out.push({ start: from, end: h, page: seg.page });
      from = h;
    }
    out.push({ start: from, end: seg.end, page: seg.page });
  }
  return out;
}

export function parentChildChunks(
  text: string,
  opts: ParentChildOptions,
  segments?: TextSegment[],
  headingStarts: number[] = [],
): ChildChunk[] {
  const parents = chunkText(
    text,
    { size: Math.max(opts.parentSize, opts.size), overlap: 0 },
    sections(text, segments, headingStarts),
  );
  const out: ChildChunk[] = [];
  for (const p of parents) {
    const children = chunkText(text, { size: opts.size, overlap: opts.overlap }, [p]);
    for (const c of children) {
      const whole = children.length === 1 && c.start === p.start && c.end === p.end;
      out.push({ ...c, index: out.length, ...(whole ? {} : { parent: { start: p.start, end: p.end } }) });
    }
  }
  return out;
}
