/**
 * Splits long text for speech at sentence boundaries, so that each request stays under the provider's input limit
 * (4096 characters for OpenAI's /audio/speech) and no piece ends mid-sentence: `.` `!` `?` followed by a space,
 * Chinese and Japanese `。` `！` `？` `…` `；` (no space follows them), and line breaks. Sentences are packed
 * greedily up to `maxChars`; a single longer sentence is cut at a comma or space, else hard.
 */

const SENTENCE_END = /(?<=[.!?])["'”’)\]]*\s+|(?<=[。！？…；;])["'”’」』)\]]*\s*|\n+/g;
const SOFT_BREAK = /[,，、:：]\s*|\s+/g;

/** Sentences (each with its trailing punctuation), blank ones dropped. */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    out.push(text.slice(last, end));
    last = end;
  }
  out.push(text.slice(last));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Cuts one too-long sentence at soft breaks (commas, spaces), else every `maxChars`. */
function cutLong(s: string, maxChars: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest.length > maxChars) {
    let cut = -1;
    for (const m of rest.slice(0, maxChars + 1).matchAll(SOFT_BREAK)) if (m.index > 0) cut = m.index + m[0].length;
    if (cut <= 0 || cut > maxChars) cut = maxChars;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut);
  }
  if (rest.trim()) out.push(rest.trim());
  return out.filter(Boolean);
}

/** Pieces of at most `maxChars` characters, in order, that together say all of `text`. */
export function splitForSpeech(text: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let current = '';
  const joiner = (a: string, b: string) => (/[\u3000-\u9fff\uff00-\uffef]$/.test(a) ? '' : ' ') + b;
  for (const sentence of sentencesOf(text.replace(/\r\n?/g, '\n'))) {
    for (const part of sentence.length > maxChars ? cutLong(sentence, maxChars) : [sentence]) {
      const next = current ? current + joiner(current, part) : part;
      if (next.length <= maxChars) current = next;
      else {
        if (current) pieces.push(current);
        current = part;
      }
    }
  }
  if (current) pieces.push(current);
  return pieces;
}
