/**
 * Turns an uploaded file into text (+ page ranges for PDFs, row ranges for CSV and JSONL lines). Supported: .txt,
 * .md, .html/.htm, .pdf, .docx, .csv, .jsonl; the type comes from the file name's extension, else from the declared
 * MIME type. PDF text is extracted page by page with unpdf (Mozilla's pdf.js, serverless build; offline, pure JS),
 * under limits on inflated size, pages and text (each with its own error code); .docx goes through mammoth and the
 * HTML path (docx-to-text.ts, zip bombs refused first), .csv through csv-parse (csv-to-text.ts). The service runs
 * this in a worker thread (engine/cpu, prepare-document.ts).
 */
import { cpuLimits } from '../cpu/limits';
import { PaiError } from '../errors';
import type { TextSegment } from './chunker';
import { csvToText } from './csv-to-text';
import { docxToText } from './docx-to-text';
import { htmlToText } from './html-to-text';
import { checkPdfInflatedSize } from './pdf-inflate-guard';

export const DOCUMENT_MIME = {
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  csv: 'text/csv',
  jsonl: 'application/jsonl',
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
  docx: DOCUMENT_MIME.docx,
  csv: 'text/csv',
  jsonl: 'application/jsonl',
  ndjson: 'application/jsonl',
};
const BY_TYPE: Record<string, DocumentMime> = {
  'text/plain': 'text/plain',
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'text/html': 'text/html',
  'application/xhtml+xml': 'text/html',
  'application/pdf': 'application/pdf',
  [DOCUMENT_MIME.docx]: DOCUMENT_MIME.docx,
  'text/csv': 'text/csv',
  'application/csv': 'text/csv',
  'application/jsonl': 'application/jsonl',
  'application/x-ndjson': 'application/jsonl',
  'application/jsonlines': 'application/jsonl',
};

export function detectMime(filename: string | undefined, declared: string | undefined): DocumentMime {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename ?? '')?.[1]?.toLowerCase();
  if (ext && BY_EXT[ext]) return BY_EXT[ext];
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (BY_TYPE[type]) return BY_TYPE[type];
  throw new PaiError(
    'UNSUPPORTED_DOCUMENT_TYPE',
    `unsupported document type ${ext ? `.${ext}` : type || 'unknown'}; ` +
      'upload .txt, .md, .html, .pdf, .docx, .csv or .jsonl',
    { path: 'file' },
  );
}

export interface ParsedDocument {
  text: string;
  /** Page ranges into `text` for PDFs. */
  segments?: TextSegment[];
  /** Records (CSV rows, one per line) that chunks keep whole where they fit (chunker.ts packRecords). */
  records?: TextSegment[];
  pages?: number;
  /** A title found in the document (HTML <title>). */
  title?: string | null;
}

function decodeUtf8(bytes: Uint8Array): string {
  let s = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  return s.replace(/\r\n?/g, '\n').replaceAll('\u0000', '');
}

export interface ParseLimits {
  /** Characters of extracted text (DOCUMENT_TOO_LARGE; a PDF stops being read past it). */
  maxChars: number;
  /** Bytes a PDF's compressed streams or a .docx's zip entries may inflate to (DOCUMENT_INFLATED_TOO_LARGE). */
  maxInflatedBytes: number;
  /** Pages of a PDF (DOCUMENT_TOO_MANY_PAGES). */
  maxPages: number;
}

function parseLimitsFromEnv(): ParseLimits {
  const l = cpuLimits();
  return { maxChars: l.documentMaxChars, maxInflatedBytes: l.documentMaxInflatedBytes, maxPages: l.documentMaxPages };
}

export function tooLarge(chars: number, max: number): PaiError {
  return new PaiError(
    'DOCUMENT_TOO_LARGE',
    `the document has ${chars} characters of text; the limit is ${max} (DOCUMENT_MAX_CHARS)`,
  );
}

type PdfProxy = {
  numPages: number;
  getPage(n: number): Promise<{ getTextContent(): Promise<{ items: Array<{ str?: string; hasEOL?: boolean }> }> }>;
  destroy?(): Promise<void>;
};

async function parsePdf(bytes: Uint8Array, limits: ParseLimits): Promise<ParsedDocument> {
  await checkPdfInflatedSize(bytes, limits.maxInflatedBytes);
  const { getDocumentProxy } = await import('unpdf');
  const failed = (e: unknown) =>
    e instanceof PaiError
      ? e
      : new PaiError('DOCUMENT_PARSE_FAILED', `the PDF could not be read: ${(e as Error).message}`);
  let pdf: PdfProxy;
  try {
    pdf = (await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 } as never)) as unknown as PdfProxy;
  } catch (e) {
    throw failed(e);
  }
  const segments: TextSegment[] = [];
  let text = '';
  try {
    if (pdf.numPages > limits.maxPages)
      throw new PaiError(
        'DOCUMENT_TOO_MANY_PAGES',
        `the PDF has ${pdf.numPages} pages; the limit is ${limits.maxPages} (DOCUMENT_MAX_PAGES)`,
      );
    // Page by page (as unpdf's extractText joins a page's items), so that reading stops at the text limit.
    for (let i = 1; i <= pdf.numPages; i++) {
      const { items } = await (await pdf.getPage(i)).getTextContent();
      const raw = items
        .filter((item) => item.str != null)
        .map((item) => item.str + (item.hasEOL ? '\n' : ''))
        .join('');
      const body = raw.replace(/\r\n?/g, '\n').replaceAll('\u0000', '').trim();
      if (text) text += '\n\n';
      segments.push({ start: text.length, end: text.length + body.length, page: i });
      text += body;
      if (text.length > limits.maxChars) throw tooLarge(text.length, limits.maxChars);
    }
  } catch (e) {
    throw failed(e);
  } finally {
    await Promise.resolve(pdf.destroy?.()).catch(() => {});
  }
  return { text, segments, pages: pdf.numPages };
}

export async function parseDocument(
  bytes: Uint8Array,
  mime: DocumentMime,
  limits: ParseLimits = parseLimitsFromEnv(),
): Promise<ParsedDocument> {
  switch (mime) {
    case 'application/pdf':
      return parsePdf(bytes, limits);
    case 'text/html': {
      const { text, title } = htmlToText(decodeUtf8(bytes));
      return { text, title };
    }
    case DOCUMENT_MIME.docx:
      return docxToText(bytes, limits.maxInflatedBytes);
    case 'text/csv':
      return csvToText(bytes, limits.maxChars, (chars) => tooLarge(chars, limits.maxChars));
    case 'application/jsonl': {
      // One record per line, kept whole in a chunk where it fits (as CSV rows).
      const text = decodeUtf8(bytes);
      const records: TextSegment[] = [];
      let pos = 0;
      for (const line of text.split('\n')) {
        if (line.trim()) records.push({ start: pos, end: pos + line.length, page: null });
        pos += line.length + 1;
      }
      return { text, records };
    }
    default:
      return { text: decodeUtf8(bytes) };
  }
}
