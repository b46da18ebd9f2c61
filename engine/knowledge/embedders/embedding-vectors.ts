/**
 * The vectors an OpenAI-compatible embeddings API answers, read and checked before anything is indexed. The `openai`
 * SDK asks for `encoding_format: "base64"` and decodes the answer as base64 whatever it is: a server that ignores
 * the format and answers float arrays (several self-hosted ones do) came out as vectors of zeros, which were indexed
 * without an error and made every search meaningless. So PaiFlow asks for base64 itself, reads either format, and
 * refuses a vector no search can use — empty, all zeros, holding a value that is not a finite number, or of another
 * dimension than the rest — with EMBEDDING_INVALID, which fails the document (or the knowledge base's creation).
 */
import { PaiError } from '../../errors';

export type EmbeddingProblem = 'format' | 'empty' | 'not_finite' | 'all_zeros' | 'dimension';

function invalid(problem: EmbeddingProblem, message: string, index: number, source: string): PaiError {
  return new PaiError('EMBEDDING_INVALID', `${source} answered an unusable vector for input ${index}: ${message}`, {
    details: { problem, index },
  });
}

/** One answer's `embedding`: base64 of little-endian float32s, or an array of numbers. */
function decode(raw: unknown, index: number, source: string): Float32Array {
  if (typeof raw === 'string') {
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.byteLength % 4 !== 0)
      throw invalid('format', `its base64 holds ${bytes.byteLength} bytes, not whole 32-bit floats`, index, source);
    // Copied into a buffer of its own: the decoded bytes may not start on a 4-byte boundary.
    return new Float32Array(Uint8Array.from(bytes).buffer);
  }
  if (Array.isArray(raw)) {
    const v = new Float32Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const x = raw[i];
      if (typeof x !== 'number')
        throw invalid('not_finite', `value ${i} is ${x === null ? 'null' : typeof x}, not a number`, index, source);
      v[i] = x;
    }
    return v;
  }
  throw invalid(
    'format',
    `it is ${raw === null ? 'null' : typeof raw}, neither base64 nor a list of numbers`,
    index,
    source,
  );
}

/** Refuses a vector no search can use. */
function check(v: Float32Array, index: number, source: string): void {
  if (v.length === 0) throw invalid('empty', 'it is empty', index, source);
  let zero = true;
  for (let i = 0; i < v.length; i++) {
    // Also a number too large for 32 bits, which became Infinity.
    if (!Number.isFinite(v[i])) throw invalid('not_finite', `value ${i} is not a finite number`, index, source);
    if (v[i] !== 0) zero = false;
  }
  if (zero) throw invalid('all_zeros', 'it is all zeros', index, source);
}

/**
 * The vectors of one answer, in input order, read from either format and checked, all of one dimension (a knowledge
 * base checks that it is its own: KnowledgeBaseService.embedChecked). `first`: the index of the answer's first input
 * among all the inputs (its batch's), for the messages.
 */
export function readEmbeddings(raws: unknown[], source: string, first = 0): Float32Array[] {
  const out = raws.map((raw, i) => {
    const v = decode(raw, first + i, source);
    check(v, first + i, source);
    return v;
  });
  const want = out[0]?.length;
  const odd = out.findIndex((v) => v.length !== want);
  if (odd >= 0)
    throw invalid(
      'dimension',
      `it has ${out[odd].length} dimensions where the others have ${want}`,
      first + odd,
      source,
    );
  return out;
}
