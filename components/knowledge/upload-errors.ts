/**
 * What a failed upload or a failed indexing means, in plain words, for the knowledge page. The server's code and
 * message stay available as the detail (a person asking for help quotes them); the headline says what happened and
 * what to do about it. Unknown codes fall back to the server's own message, which is always a sentence. The words
 * are in messages/<locale>/knowledge.json (`errors.*`), in the language of the translator the page passes.
 */
import { currentLocale } from '@/components/lib/i18n';
import { englishKnowledge, type KnowledgeT } from './knowledge-text';

export interface KnowledgeError {
  code: string;
  message: string;
  path?: string;
}

export interface ExplainedError {
  /** Plain words: what happened and what to do. */
  title: string;
  /** The code and the server's message, for a support question or a log search. */
  detail: string;
  code: string;
}

const UNITS = ['bytes', 'KB', 'MB', 'GB'];
function size(bytes: number, t: KnowledgeT): string {
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < UNITS.length - 1) {
    n /= 1024;
    u++;
  }
  const digits = u ? (n < 10 ? 1 : 0) : 0;
  const value = new Intl.NumberFormat(currentLocale(), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);
  return u ? `${value} ${UNITS[u]}` : t('errors.bytes', { value });
}

/** "the limit is 20971520" (or "… limit of 20971520 bytes") in the server's message, as a readable size. */
function limitIn(message: string, t: KnowledgeT): string | null {
  const m = /limit (?:is|of) (\d+)/.exec(message);
  return m ? size(Number(m[1]), t) : null;
}

/** The codes with their own plain words (errors.<CODE> in messages/<locale>/knowledge.json). */
const PLAIN = new Set([
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_DOCUMENT_TYPE',
  'DOCUMENT_PARSE_FAILED',
  'EMPTY_DOCUMENT',
  'DOCUMENT_TOO_LARGE',
  'DOCUMENT_TOO_MANY_PAGES',
  'DOCUMENT_TOO_MANY_CHUNKS',
  'DOCUMENT_INFLATED_TOO_LARGE',
  'EMBEDDING_FAILED',
  'EMBEDDER_UNAVAILABLE',
  'EMBEDDING_DIMENSION_MISMATCH',
  'EMBEDDING_INVALID',
  'INDEXING_INTERRUPTED',
  'INVALID_MULTIPART',
  'VALIDATION_ERROR',
  'KNOWLEDGE_BASE_NOT_FOUND',
  'FORBIDDEN',
  'SHUTTING_DOWN',
]);

function plainWords(e: KnowledgeError, t: KnowledgeT): string | undefined {
  if (!PLAIN.has(e.code)) return undefined;
  if (e.code === 'PAYLOAD_TOO_LARGE') {
    const limit = limitIn(e.message, t);
    return limit ? t('errors.PAYLOAD_TOO_LARGE_LIMIT', { limit }) : t('errors.PAYLOAD_TOO_LARGE');
  }
  if (e.code === 'VALIDATION_ERROR' && e.path === 'title') return t('errors.VALIDATION_ERROR_TITLE');
  return t(`errors.${e.code}`);
}

/** `t` is the page's translator of `knowledge` (English without one). */
export function explainKnowledgeError(e: KnowledgeError, t: KnowledgeT = englishKnowledge): ExplainedError {
  const plain = plainWords(e, t);
  return {
    title: plain ?? e.message,
    detail: e.path
      ? t('errors.detailAt', { code: e.code, path: e.path, message: e.message })
      : t('errors.detail', { code: e.code, message: e.message }),
    code: e.code,
  };
}

/** Anything a knowledge request threw: the server's refusal explained, or a network failure as it is. */
export function explainThrown(e: unknown, t: KnowledgeT = englishKnowledge): ExplainedError {
  if (e && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'string') {
    const { code, message, path } = e as { code: string; message: string; path?: string };
    return explainKnowledgeError({ code, message, path }, t);
  }
  const message = e instanceof Error ? e.message : String(e);
  return { title: t('errors.unreachable', { message }), detail: '', code: '' };
}
