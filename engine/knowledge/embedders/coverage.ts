/**
 * Language coverage of an embedder. A subword model maps every character it has no piece for to one unknown token,
 * so a text in a script it was not trained on (Chinese for the offline USE-lite model) gets a vector that says
 * nothing about it — every Chinese text gets nearly the same one. Such a vector must not take part in ranking: a
 * text whose coverage is below MIN_COVERAGE is left out of kNN (a query: the search runs on BM25 alone; a chunk: it
 * competes on BM25 alone), and the hit says knn: null.
 */
import type { Embedder } from '../types';
import { USE_LITE_ALPHABET } from './use-lite-alphabet';

/**
 * A text is covered when at least this share of its letters and digits can be read. Latin-script languages score
 * 0.93–1.0 with USE-lite; Chinese, Japanese and Korean 0; Russian 0.56 (a few Cyrillic letters are in its vocabulary,
 * but a word spelt letter by letter is not understood); English with a Chinese name in it stays above.
 */
export const MIN_COVERAGE = 0.75;

/** What the knowledge base page and the search notice recommend for text the embedder does not cover. */
export const MULTILINGUAL_ADVICE =
  'For Chinese, use a multilingual embedding model through an OpenAI-compatible credential, e.g. bge-m3 on ' +
  'Ollama or vLLM, or Qwen text-embedding-v4 on DashScope (no offline multilingual model ships in an npm package).';

/** Whether the embedder's vectors say something about `text` (an embedder without coverage() covers everything). */
export function embedderCovers(embedder: Pick<Embedder, 'coverage'>, text: string): boolean {
  return !embedder.coverage || embedder.coverage(text) >= MIN_COVERAGE;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Share of the text's letters and digits (after NFKC, as the tokenizer sees them) that are in `alphabet`. */
export function alphabetCoverage(alphabet: ReadonlySet<string>, text: string): number {
  let total = 0;
  let known = 0;
  for (const ch of text.normalize('NFKC')) {
    if (!LETTER_OR_DIGIT.test(ch)) continue;
    total++;
    if (alphabet.has(ch)) known++;
  }
  return total === 0 ? 1 : known / total;
}

const useLiteAlphabet: ReadonlySet<string> = new Set(USE_LITE_ALPHABET);

/**
 * Coverage of `text` for USE-lite. Its tokenizer maps a character to the unknown token exactly when no piece starting
 * with it fits there, and a single-character piece always fits: measured on English, French, German, Russian, Greek
 * and Chinese samples, the share of letters in its alphabet (use-lite-alphabet.ts) equals the share the tokenizer does
 * not map to the unknown token. No model is loaded.
 */
export function useLiteCoverage(text: string): number {
  return alphabetCoverage(useLiteAlphabet, text);
}

/** What the knowledge base page shows about its embedder's language coverage (GET /api/knowledge-bases/:id). */
export interface EmbedderCoverage {
  model: string;
  label: string;
  /** What the model covers, in words; null: every language, as far as PaiFlow can tell (a remote model). */
  covers: string | null;
  /** Chunks left out of kNN because the model cannot read them; null where the store does not count them. */
  uncoveredChunks: number | null;
  /** A warning with a recommendation, when text of this knowledge base is (or may be) out of the model's reach. */
  notice: string | null;
}

export function describeCoverage(
  embedder: Pick<Embedder, 'model' | 'label' | 'coverage' | 'covers'>,
  uncoveredChunks: number | null,
): EmbedderCoverage {
  const base = { model: embedder.model, label: embedder.label, uncoveredChunks };
  if (!embedder.coverage) return { ...base, covers: null, notice: null };
  const covers = embedder.covers ?? 'some languages only';
  const reach =
    uncoveredChunks === null
      ? 'Text in other languages (e.g. Chinese) is ranked by BM25 alone.'
      : `${uncoveredChunks} chunk${uncoveredChunks === 1 ? ' is' : 's are'} in a language it cannot read ` +
        '(e.g. Chinese): they and queries like them are ranked by BM25 alone (knn: null).';
  return {
    ...base,
    covers,
    notice:
      uncoveredChunks === 0
        ? null
        : `The embedding model ${embedder.model} does not cover Chinese: it reads ${covers}. ${reach} ` +
          MULTILINGUAL_ADVICE,
  };
}
