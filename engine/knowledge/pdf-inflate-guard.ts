/**
 * Refuses a PDF whose compressed streams inflate to more than a limit, before pdf.js opens it. pdf.js keeps every
 * decoded stream whole, in ArrayBuffers, which a worker's resourceLimits do not cover: a 1 MB file of one
 * FlateDecode content stream of zeros took a process to 2.3 GB. Here every FlateDecode stream is inflated with a
 * counter and nothing kept, and the count stops at the limit (about 0.05 s per 128 MiB of zeros).
 *
 * Image streams are skipped (text extraction never decodes them). Streams this cannot read — other filters,
 * encrypted files — are left to the worker's other limits (its time limit and the RSS watch in engine/cpu/pool.ts).
 */
import { PaiError } from '../errors';
import { inflatedSize } from './inflate-counter';

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');

/** Each stream's dictionary text (the bytes since its `obj` keyword) and its data. */
function* streams(pdf: Buffer): Generator<{ dict: string; data: Buffer }> {
  for (let at = pdf.indexOf(STREAM); at >= 0; at = pdf.indexOf(STREAM, at + STREAM.length)) {
    if (at >= 3 && pdf.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    else if (pdf[start - 1] !== 0x0d) continue; // "stream" inside something else
    const obj = pdf.lastIndexOf('obj', at, 'latin1');
    const dict = pdf.toString('latin1', Math.max(obj, at - 4096, 0), at);
    const end = pdf.indexOf(END_STREAM, start);
    yield { dict, data: pdf.subarray(start, end < 0 ? pdf.length : end) };
    if (end < 0) return;
    at = end;
  }
}

/** Throws DOCUMENT_INFLATED_TOO_LARGE (413) when the PDF's FlateDecode streams inflate to more than `max` bytes. */
export async function checkPdfInflatedSize(bytes: Uint8Array, max: number): Promise<void> {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (const { dict, data } of streams(pdf)) {
    if (!/\/(FlateDecode|Fl)\b/.test(dict) || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    total += await inflatedSize(data, max - total);
    if (total > max)
      throw new PaiError(
        'DOCUMENT_INFLATED_TOO_LARGE',
        `the PDF's compressed content inflates to more than ${max} bytes; the limit is ${max} ` +
          '(DOCUMENT_MAX_INFLATED_BYTES)',
      );
  }
}
