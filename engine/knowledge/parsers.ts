/**
 * Turns an uploaded file into text (+ page ranges for PDFs). Supported: .txt, .md, .html/.htm, .pdf; the type comes
 * from the file name's extension, else from the declared MIME type. PDF text is extracted page by page with unpdf
 * (Mozilla's pdf.js, serverless build; offline, pure JS).
 */
import { PaiError } from '../errors';
import type { TextSegment } from './chunker';
import { htmlToText } from './html-to-text';

export const DOCUMENT_MIME = {
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  pdf: 'application/pdf',
} as const;
export type DocumentMime = (typeof DOCUMENT_MIME)[keyof typeof DOCUMENT_MIME];

const BY_EXT: Record<string, DocumentMime> = {
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
};
const BY_TYPE: Record<string, DocumentMime> = {
  'text/plain': 'text/plain',
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'text/html': 'text/html',
  'application/xhtml+xml': 'text/html',
  'application/pdf': 'application/pdf',
};

export function detectMime(filename: string | undefined, declared: string | undefined): DocumentMime {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename ?? '')?.[1]?.toLowerCase();
  if (ext && BY_EXT[ext]) return BY_EXT[ext];
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (BY_TYPE[type]) return BY_TYPE[type];
  throw new PaiError(
    'UNSUPPORTED_DOCUMENT_TYPE',
    `unsupported document type ${ext ? `.${ext}` : type || 'unknown'}; upload .txt, .md, .html or .pdf`,
    { status: 415, path: 'file' },
  );
}

export interface ParsedDocument {
  text: string;
  /** Page ranges into `text` for PDFs. */
  segments?: TextSegment[];
  pages?: number;
  /** A title found in the document (HTML <title>). */
  title?: string | null;
}

function decodeUtf8(bytes: Uint8Array): string {
  let s = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  return s.replace(/\r\n?/g, '\n').replaceAll('\u0000', '');
}

async function parsePdf(bytes: Uint8Array): Promise<ParsedDocument> {
  const { getDocumentProxy, extractText } = await import('unpdf');
  let pages: string[];
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 } as never);
    pages = (await extractText(pdf, { mergePages: false })).text as string[];
    await pdf.destroy?.();
  } catch (e) {
    throw new PaiError('DOCUMENT_PARSE_FAILED', `the PDF could not be read: ${(e as Error).message}`, { status: 422 });
  }
  const segments: TextSegment[] = [];
  let text = '';
  pages.forEach((p, i) => {
    const body = p.replace(/\r\n?/g, '\n').replaceAll('\u0000', '').trim();
    if (text) text += '\n\n';
    segments.push({ start: text.length, end: text.length + body.length, page: i + 1 });
    text += body;
  });
  return { text, segments, pages: pages.length };
}

export async function parseDocument(bytes: Uint8Array, mime: DocumentMime): Promise<ParsedDocument> {
  switch (mime) {
    case 'application/pdf':
      return parsePdf(bytes);
    case 'text/html': {
      const { text, title } = htmlToText(decodeUtf8(bytes));
      return { text, title };
    }
    default:
      return { text: decodeUtf8(bytes) };
  }
}
