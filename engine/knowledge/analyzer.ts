/**
 * The text analyzer of the embedded BM25 index, modelled on Elasticsearch's `english` analyzer so both stores
 * match the same terms: Unicode NFKC + lower-case, word tokens split like the standard tokenizer
 * ("ERR-4521" → err, 4521; "v2.1" stays one token), English possessive "'s" removed, English stop words (below)
 * dropped, Porter stemming.
 * CJK text has no spaces, so each run of Han/Kana/Hangul characters is indexed as overlapping bigrams
 * (what Elasticsearch's `cjk` analyzer does). Terms are memoised per raw word: vocabularies are small and text repeats.
 */
import { porterStem } from './porter-stemmer';

/**
 * English stop words: Lucene's EnglishAnalyzer set plus pronouns, auxiliaries and question words (the NLTK list).
 * Lucene's set alone keeps "how", "can", "do", "my"…, which in questions ("How can I …?") match many chunks and
 * drown the one content word that matters. The Elasticsearch mapping uses this same list (elasticsearch-store.ts).
 */
const BASE_STOP = [
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
  'i',
  'me',
  'my',
  'myself',
  'we',
  'our',
  'ours',
  'ourselves',
  'you',
  'your',
  'yours',
  'yourself',
  'yourselves',
  'he',
  'him',
  'his',
  'himself',
  'she',
  'her',
  'hers',
  'herself',
  'its',
  'itself',
  'them',
  'theirs',
  'themselves',
  'what',
  'which',
  'who',
  'whom',
  'those',
  'am',
  'were',
  'been',
  'being',
  'have',
  'has',
  'had',
  'having',
  'do',
  'does',
  'did',
  'doing',
  'because',
  'until',
  'while',
  'about',
  'against',
  'between',
  'through',
  'during',
  'before',
  'after',
  'above',
  'below',
  'from',
  'up',
  'down',
  'out',
  'off',
  'over',
  'under',
  'again',
  'further',
  'once',
  'here',
  'when',
  'where',
  'why',
  'how',
  'all',
  'any',
  'both',
  'each',
  'few',
  'more',
  'most',
  'other',
  'some',
  'nor',
  'only',
  'own',
  'same',
  'so',
  'than',
  'too',
  'very',
  'can',
  'just',
  'should',
  'now',
  'would',
  'could',
  'may',
  'might',
  'must',
  'shall',
];
const CONTRACTIONS = [
  "i'm",
  "i've",
  "i'd",
  "i'll",
  "you're",
  "you've",
  "you'd",
  "you'll",
  "it's",
  "that's",
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "can't",
  "won't",
  "shouldn't",
  "wouldn't",
  "couldn't",
  "haven't",
  "hasn't",
];
/** As written in an Elasticsearch stop filter (contractions as typed; the standard tokenizer keeps them whole). */
export const ENGLISH_STOP_LIST: readonly string[] = [...BASE_STOP, ...CONTRACTIONS];
/** As compared here, after "'" is removed ("don't" → "dont"). */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  ...BASE_STOP,
  ...CONTRACTIONS.map((c) => c.replace("'", '')),
]);

// Letters/digits/underscore, joined across "." and "'" between them (UAX#29 MidNumLet: "v2.1", "example.com", "it's").
const TOKEN_RE = /[\p{L}\p{M}\p{N}_]+(?:[.'’][\p{L}\p{M}\p{N}_]+)*/gu;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const CJK_RUN_RE = new RegExp(`([${CJK_CLASS}]+)|([^${CJK_CLASS}]+)`, 'gu');
const MAX_TOKEN = 64;

/** raw lower-cased word → its index term, or '' when it is dropped (stop word, too long). */
const termCache = new Map<string, string>();
const TERM_CACHE_MAX = 500_000;

function normaliseWord(raw: string): string | null {
  const cached = termCache.get(raw);
  if (cached !== undefined) return cached || null;
  let w = raw;
  let term = '';
  if (w.length <= MAX_TOKEN) {
    // possessive: "system's" → "system"
    if (w.endsWith("'s") || w.endsWith('’s')) w = w.slice(0, -2);
    else if (w.includes("'") || w.includes('’')) w = w.replace(/['’]/g, '');
    if (w && !ENGLISH_STOP_WORDS.has(w)) term = porterStem(w);
  }
  if (termCache.size >= TERM_CACHE_MAX) termCache.clear();
  termCache.set(raw, term);
  return term || null;
}

function analyzeLatin(text: string, out: string[]) {
  for (const m of text.matchAll(TOKEN_RE)) {
    const t = normaliseWord(m[0]);
    if (t) out.push(t);
  }
}

const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95; // a-z 0-9 _

/** The same tokenization as TOKEN_RE for lower-cased ASCII text, by a char-code scan (the hot path when indexing). */
function analyzeAscii(text: string, out: string[]) {
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isAlnum(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    for (;;) {
      while (i < n && isAlnum(text.charCodeAt(i))) i++;
      const c = text.charCodeAt(i);
      if ((c === 46 || c === 39) && i + 1 < n && isAlnum(text.charCodeAt(i + 1))) {
        i++;
        continue;
      }
      break;
    }
    const t = normaliseWord(text.slice(start, i));
    if (t) out.push(t);
  }
}

/** Text → index terms, in order (duplicates kept: BM25 needs term frequencies). */
const NON_ASCII = /[^\x00-\x7f]/;

export function analyze(text: string): string[] {
  const ascii = !NON_ASCII.test(text);
  const norm = (ascii ? text : text.normalize('NFKC')).toLowerCase();
  const out: string[] = [];
  if (ascii) {
    analyzeAscii(norm, out);
    return out;
  }
  if (!CJK_RE.test(norm)) {
    analyzeLatin(norm, out);
    return out;
  }
  for (const m of norm.matchAll(CJK_RUN_RE)) {
    if (m[1]) {
      const run = [...m[1]];
      if (run.length === 1) out.push(run[0]);
      for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
    } else analyzeLatin(m[2], out);
  }
  return out;
}
