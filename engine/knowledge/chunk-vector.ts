/** The rule both knowledge stores hold a chunk's vector to before writing it. */
import { PaiError } from '../errors';
import type { ChunkRecord } from './types';

/**
 * Refuses a vector of another dimension than the index's (`dim`; undefined: not known yet) and a chunk without a
 * vector that does not say the embedder left it uncovered (a bug upstream, never a silent hole in kNN).
 */
export function checkVector(c: ChunkRecord, dim: number | undefined): void {
  if (!c.vector) {
    if (c.covered === false) return;
    throw new PaiError('VALIDATION_ERROR', `chunk ${c.id} has no vector, and only an uncovered chunk may lack one`);
  }
  if (dim !== undefined && c.vector.length !== dim) {
    throw new PaiError(
      'EMBEDDING_DIMENSION_MISMATCH',
      `chunk ${c.id} has a ${c.vector.length}-d vector; this knowledge base's index is ${dim}-d`,
    );
  }
}
