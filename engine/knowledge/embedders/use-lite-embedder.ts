/**
 * The offline default Embedder: Universal Sentence Encoder lite (512-d, use-lite-model.ts). The model runs in a
 * worker thread (engine/cpu, the embed pool), so a large upload's thousands of chunks never hold up HTTP requests
 * or runs; this side only sends texts and receives vectors. Batches queue on that one thread in order.
 */
import { embedInWorker } from '../../cpu/tasks';
import type { Embedder } from '../types';

export const USE_LITE_MODEL = 'use-lite';
export const USE_LITE_DIMENSION = 512;

export class UseLiteEmbedder implements Embedder {
  readonly model = USE_LITE_MODEL;
  readonly label = 'Universal Sentence Encoder lite (offline, 512-d)';

  async dimension(): Promise<number> {
    return USE_LITE_DIMENSION;
  }

  embed(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    return embedInWorker(texts, opts);
  }
}
