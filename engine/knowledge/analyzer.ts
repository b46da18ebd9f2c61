/**
 * The text analyzer of the embedded BM25 index, modelled on Elasticsearch's `english` analyzer so both stores
 * match the same terms: Unicode NFKC + lower-case, word tokens split like the standard tokenizer
 * ("ERR-4521" → err, 4521; "v2.1" stays one token), English possessive "'s" removed, English stop words (below)
 * dropped, Porter stemming. Terms are memoised per raw word: vocabularies are small and text repeats.
 *
 * CJK text has no spaces. Han runs (Chinese) are segmented into words by jieba (chinese-segmenter.ts): a sentence
 * such as "申请退款后多久能到账" gives 申请, 退款, 多久, 到账 rather than every overlapping character pair, so a query in
 * a natural sentence matches documents by their words instead of by pairs that straddle two words ("款后", "久能").
 * Kana and Hangul runs are still indexed as overlapping bigrams (what Elasticsearch's `cjk` analyzer does).
 * analyzeWithCjkBigrams() keeps the bigram-only analysis: it is what the Elasticsearch mapping's default `cjk`
 * analyzer does, and the baseline the Chinese retrieval test measures jieba against.
 *
 * The embedded index keeps no postings on disk: they are rebuilt from the chunks' text each time an index is opened
 * (embedded/kb-index.ts), so indexes written under an earlier ANALYZER_VERSION are analysed anew, with no migration.
 */
import { segmentHan } from './chinese-segmenter';
import { porterStem } from './porter-stemmer';

/**
 * 1: CJK bigrams only; 2: Han text segmented by jieba. Informational (postings are rebuilt on open, see above): the
 * knowledge tests name the analyzer by it.
 */
export const ANALYZER_VERSION = 2;

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

const NON_ASCII = /[^\x00-\x7f]/;
const HAN_RUN_RE = /(\p{Script=Han}+)|([^\p{Script=Han}]+)/gu;

/** Overlapping bigrams of a CJK run (a single character stays a unigram), as Elasticsearch's cjk_bigram filter. */
function bigrams(text: string, out: string[]) {
  const run = [...text];
  if (run.length === 1) out.push(run[0]);
  for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
}

/** Han through jieba; kana, Hangul (and Han runs mixed with them are split at the script change) as bigrams. */
function segmentCjk(run: string, out: string[]) {
  for (const m of run.matchAll(HAN_RUN_RE)) {
    if (m[1]) segmentHan(m[1], out);
    else bigrams(m[2], out);
  }
}

function analyzeWith(text: string, cjk: (run: string, out: string[]) => void): string[] {
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
    if (m[1]) cjk(m[1], out);
    else analyzeLatin(m[2], out);
  }
  return out;
}

/** Text → index terms, in order (duplicates kept: BM25 needs term frequencies). Chinese is segmented into words. */
export function analyze(text: string): string[] {
  return analyzeWith(text, segmentCjk);
}

/**
 * The same analysis with every CJK run as overlapping bigrams (ANALYZER_VERSION 1): what the Elasticsearch mapping's
 * default `cjk` analyzer does (test/knowledge/support/fake-elasticsearch.ts mirrors it with this).
 */
export function analyzeWithCjkBigrams(text: string): string[] {
  return analyzeWith(text, bigrams);
}
