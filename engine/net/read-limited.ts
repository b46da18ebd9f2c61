import { PaiError } from '../errors';

/**
 * Reads a request/response body as UTF-8 text, refusing more than `limit` bytes (by Content-Length up front, and
 * while streaming for bodies that lie or have none) with the given error code.
 */
export async function readTextLimited(msg: Request | Response, limit: number, error: LimitError): Promise<string> {
  return (await readBytesLimited(msg, limit, error)).toString('utf8');
}

export interface LimitError {
  code: string;
  /** What is being read, for the message: "body", "response", "upload". */
  what: string;
}

/** The same, as bytes (uploads such as PDFs). */
export async function readBytesLimited(msg: Request | Response, limit: number, error: LimitError): Promise<Buffer> {
  const declared = Number(msg.headers.get('content-length') ?? 0);
  if (declared > limit) throw new PaiError(error.code, `the ${error.what} is ${declared} bytes; the limit is ${limit}`);
  if (!msg.body) return Buffer.alloc(0);
  const reader = msg.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new PaiError(error.code, `the ${error.what} exceeds the limit of ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
