/**
 * Splits extracted text into overlapping chunks of at most `size` characters. A chunk ends at the last paragraph
 * break inside the window if there is one past its middle, else at the last sentence end past a third, else at the
 * last space past the middle, else exactly at `size`. The next chunk starts about `overlap` characters before the
 * previous end, moved forward to a sentence (or word) start so no chunk begins mid-word. Offsets are into the
 * original text (end exclusive) and the chunk's text is exactly text.slice(start, end). PDF pages are chunked one by
 * one so every chunk has a single page.
 */
export interface ChunkOptions {
  size: number;
  overlap: number;
}

export interface TextSegment {
  start: number;
  end: number;
  page: number | null;
}

export interface Chunk {
  index: number;
  start: number;
  end: number;
  page: number | null;
  text: string;
}

export const DEFAULT_CHUNK_SIZE = 512;
export const DEFAULT_CHUNK_OVERLAP = 100;

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const SENTENCE_END = /[.!?。！？](?:["'”’)\]]*)(?=\s|$)/g;
const PARAGRAPH = /\n[ \t]*\n\s*/g;

/** Last match end of `re` within [from, to) of text, or -1. */
function lastBreak(text: string, re: RegExp, from: number, to: number): number {
  re.lastIndex = 0;
  const slice = text.slice(from, to);
  let best = -1;
  for (const m of slice.matchAll(re)) {
    const end = m.index! + m[0].length;
    if (end <= slice.length) best = from + (re === PARAGRAPH ? m.index! : end);
  }
  return best;
}

function chooseEnd(text: string, pos: number, limit: number, size: number): number {
  const para = lastBreak(text, PARAGRAPH, pos, limit);
  if (para > pos + size / 2) return para;
  const sent = lastBreak(text, SENTENCE_END, pos, limit);
  if (sent > pos + size / 3) return sent;
  for (let i = limit; i > pos + size / 2; i--) if (isSpace(text[i])) return i;
  return limit;
}

/** The first sentence start (else word start) at or after `from`, before `before`; `from` itself if none. */
function alignStart(text: string, from: number, before: number): number {
  SENTENCE_END.lastIndex = 0;
  const slice = text.slice(from, before);
  for (const m of slice.matchAll(SENTENCE_END)) {
    let p = from + m.index! + m[0].length;
    while (p < before && isSpace(text[p])) p++;
    if (p < before) return p;
  }
  if (from > 0 && !isSpace(text[from - 1])) {
    for (let p = from; p < before; p++)
      if (isSpace(text[p])) {
        while (p < before && isSpace(text[p])) p++;
        return p < before ? p : from;
      }
  }
  return from;
}

function trimRange(text: string, start: number, end: number): [number, number] {
  while (start < end && isSpace(text[start])) start++;
  while (end > start && isSpace(text[end - 1])) end--;
  return [start, end];
}

export function chunkText(text: string, opts: ChunkOptions, segments?: TextSegment[]): Chunk[] {
  const size = Math.max(1, Math.floor(opts.size));
  const overlap = Math.max(0, Math.min(Math.floor(opts.overlap), Math.floor(size / 2)));
  const segs = segments?.length ? segments : [{ start: 0, end: text.length, page: null }];
  const out: Chunk[] = [];
  const push = (s: number, e: number, page: number | null) => {
    const [a, b] = trimRange(text, s, e);
    if (b > a) out.push({ index: out.length, start: a, end: b, page, text: text.slice(a, b) });
  };
  for (const seg of segs) {
    const [from, end] = trimRange(text, seg.start, seg.end);
    let pos = from;
    while (pos < end) {
      if (end - pos <= size) {
        push(pos, end, seg.page);
        break;
      }
      const limit = pos + size;
      const cut = chooseEnd(text, pos, limit, size);
      push(pos, cut, seg.page);
      let next = alignStart(text, Math.max(pos + 1, cut - overlap), cut);
      while (next < end && isSpace(text[next])) next++;
      if (next <= pos) next = cut; // always make progress
      pos = next;
    }
  }
  return out;
}

/**
 * Groups consecutive records (CSV rows, one per line) into segments of at most `size` characters, for chunkText:
 * a segment that fits is one chunk, so no row that fits in a chunk is ever cut or spread over two; a row longer
 * than `size` is a segment of its own and is cut as any text is. Rows are whole, so chunks of rows do not overlap.
 */
export function packRecords(records: TextSegment[], size: number): TextSegment[] {
  const out: TextSegment[] = [];
  let current: TextSegment | null = null;
  for (const r of records) {
    if (current && r.end - current.start <= size) current.end = r.end;
    else {
      if (current) out.push(current);
      current = { start: r.start, end: r.end, page: r.page };
    }
  }
  if (current) out.push(current);
  return out;
}
