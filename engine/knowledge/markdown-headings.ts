/**
 * The heading path of each chunk of a Markdown document: the headings in force where the chunk starts (the page's
 * `#`, then its `##`, …) followed by the headings that start inside the chunk. A chunk cut from the middle of a long
 * section no longer loses what it is about: the path is indexed as a weighted field (headings and titles say what a
 * passage is about in a few words) and returned with each hit. ATX headings only (`# …` to `###### …`), never inside
 * a fenced code block, where `#` starts a comment.
 */

export interface MarkdownHeading {
  /** Offset of the heading line in the text. */
  start: number;
  level: number;
  text: string;
}

/** A heading's words without Markdown: links keep their text, emphasis and code marks and `{#anchors}` go. */
export function plainHeadingText(raw: string): string {
  return raw
    .replace(/\{#[^}]*\}/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function markdownHeadings(text: string): MarkdownHeading[] {
  const out: MarkdownHeading[] = [];
  let fence: string | null = null;
  let pos = 0;
  for (const line of text.split('\n')) {
    const f = /^\s{0,3}(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (fence === f[1]) fence = null;
    } else if (fence === null) {
      const m = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
      if (m) {
        const words = plainHeadingText(m[2]);
        if (words) out.push({ start: pos, level: m[1].length, text: words });
      }
    }
    pos += line.length + 1;
  }
  return out;
}

/** For each [start, end) range: the heading path at its start, then the headings inside it (at most 12 in all). */
export function headingPaths(
  headings: MarkdownHeading[],
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
): string[][] {
  const out: string[][] = [];
  const stack: MarkdownHeading[] = [];
  let h = 0;
  for (let i = 0; i < starts.length; i++) {
    // Chunks come in document order (their starts never go back): walk the headings once.
    while (h < headings.length && headings[h].start <= starts[i]) {
      const next = headings[h++];
      while (stack.length && stack[stack.length - 1].level >= next.level) stack.pop();
      stack.push(next);
    }
    const path = stack.map((x) => x.text);
    for (let j = h; j < headings.length && headings[j].start < ends[i]; j++) path.push(headings[j].text);
    out.push(path.slice(0, 12));
  }
  return out;
}
