/**
 * .docx → text: the zip is checked first (zip-inflate-guard.ts: no entry is inflated by mammoth before the whole
 * archive is known to stay under DOCUMENT_MAX_INFLATED_BYTES), then mammoth converts it to HTML (headings become
 * <h1>…, lists <li>, tables <td>) and the HTML path (html-to-text.ts) makes the text, so headings and paragraphs
 * end up as paragraphs, and list items and table rows as lines, where the chunker can cut. Images are never read (their
 * bytes do not matter to the text) and linked external files are never opened.
 */
import { PaiError } from '../errors';
import { htmlToText } from './html-to-text';
import { checkZipInflatedSize } from './zip-inflate-guard';

const WHAT = 'the .docx';

export async function docxToText(bytes: Uint8Array, maxInflatedBytes: number): Promise<{ text: string }> {
  await checkZipInflatedSize(bytes, maxInflatedBytes, WHAT);
  const mod = await import('mammoth');
  const mammoth = mod.default ?? mod;
  let html: string;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const result = await mammoth.convertToHtml(
      { buffer },
      {
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        externalFileAccess: false,
      },
    );
    html = result.value;
  } catch (e) {
    throw e instanceof PaiError
      ? e
      : new PaiError('DOCUMENT_PARSE_FAILED', `${WHAT} could not be read: ${(e as Error).message}`);
  }
  return { text: htmlToText(cellsWithoutParagraphs(html)).text };
}

/**
 * mammoth wraps every table cell's text in <p>, which would put each cell in a paragraph of its own; unwrapped, a
 * table row is one line of tab-separated cells, as in an HTML page (a cell of several paragraphs keeps its breaks).
 */
function cellsWithoutParagraphs(html: string): string {
  return html.replace(/<(td|th)([^>]*)><p>/g, '<$1$2>').replace(/<\/p><\/(td|th)>/g, '</$1>');
}
