/**
 * What a failed upload or a failed indexing means, in plain words, for the knowledge page. The server's code and
 * message stay available as the detail (a person asking for help quotes them); the headline says what happened and
 * what to do about it. Unknown codes fall back to the server's own message, which is always a sentence.
 */

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
function size(bytes: number): string {
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < UNITS.length - 1) {
    n /= 1024;
    u++;
  }
  return `${u ? n.toFixed(n < 10 ? 1 : 0) : n} ${UNITS[u]}`;
}

/** "the limit is 20971520" (or "… limit of 20971520 bytes") in the server's message, as a readable size. */
function limitIn(message: string): string | null {
  const m = /limit (?:is|of) (\d+)/.exec(message);
  return m ? size(Number(m[1])) : null;
}

const PLAIN: Record<string, (e: KnowledgeError) => string> = {
  PAYLOAD_TOO_LARGE: (e) =>
    `The file is too large to upload${limitIn(e.message) ? ` (the limit is ${limitIn(e.message)})` : ''}. ` +
    'Split it into smaller files.',
  UNSUPPORTED_DOCUMENT_TYPE: () =>
    'This kind of file cannot be indexed. Upload a .txt, .md, .html, .pdf, .docx or .csv file.',
  DOCUMENT_PARSE_FAILED: () =>
    'The file could not be read: it may be damaged, encrypted, or not really the type its name says.',
  EMPTY_DOCUMENT: () => 'No text was found in the file (a scanned PDF holds only images of text).',
  DOCUMENT_TOO_LARGE: () => 'The document holds more text than one document may. Split it into smaller files.',
  DOCUMENT_TOO_MANY_PAGES: () => 'The PDF has more pages than one document may. Split it into smaller files.',
  DOCUMENT_TOO_MANY_CHUNKS: () =>
    'The document would be cut into more chunks than one document may. Split it, or use a larger chunk size.',
  DOCUMENT_INFLATED_TOO_LARGE: () =>
    'The file unpacks to far more data than its size suggests, so it was not read (a safety limit).',
  EMBEDDING_FAILED: () =>
    'The text was read but could not be turned into search vectors: the embedding service failed. Try again later.',
  EMBEDDER_UNAVAILABLE: () => 'No embedding model is available to index the text. Ask an administrator.',
  EMBEDDING_DIMENSION_MISMATCH: () =>
    'The embedding model answered with vectors of another size than this knowledge base uses.',
  INDEXING_INTERRUPTED: () => 'Indexing stopped because the server restarted. Upload the document again.',
  INVALID_MULTIPART: () => 'The upload arrived incomplete. Try again.',
  VALIDATION_ERROR: (e) =>
    e.path === 'title'
      ? 'The title cannot be used: keep it under 500 characters, without control characters.'
      : 'Some of the upload is missing or invalid.',
  KNOWLEDGE_BASE_NOT_FOUND: () => 'This knowledge base no longer exists. Reload the page.',
  FORBIDDEN: () => 'Your role in this workspace may not change knowledge bases.',
  SHUTTING_DOWN: () => 'The server is restarting. Try again in a moment.',
};

export function explainKnowledgeError(e: KnowledgeError): ExplainedError {
  const plain = PLAIN[e.code]?.(e);
  return {
    title: plain ?? e.message,
    detail: `${e.code}${e.path ? ` at ${e.path}` : ''}: ${e.message}`,
    code: e.code,
  };
}

/** Anything a knowledge request threw: the server's refusal explained, or a network failure as it is. */
export function explainThrown(e: unknown): ExplainedError {
  if (e && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'string') {
    const { code, message, path } = e as { code: string; message: string; path?: string };
    return explainKnowledgeError({ code, message, path });
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    title: `The server could not be reached (${message}). Check the connection and try again.`,
    detail: '',
    code: '',
  };
}
