/**
 * The offline default Embedder: Universal Sentence Encoder lite (512-d, use-lite-model.ts). The model runs in a
 * worker thread (engine/cpu, the embed pool), so a large upload's thousands of chunks never hold up HTTP requests
 * or runs; this side only sends texts and receives vectors. Batches queue on that one thread in order.
 * Its vocabulary is English: coverage() tells which texts it cannot read (coverage.ts), so that kNN leaves them out.
 */
import { embedInWorker } from '../../cpu/tasks';
import type { Embedder } from '../types';
import { useLiteCoverage } from './coverage';
import { USE_LITE_MAX_CHARS } from './use-lite-model';

export const USE_LITE_MODEL = 'use-lite';
export const USE_LITE_DIMENSION = 512;

export class UseLiteEmbedder implements Embedder {
  readonly model = USE_LITE_MODEL;
  readonly label = 'Universal Sentence Encoder lite (offline, 512-d)';
  readonly covers = 'English and other Latin-script text (not Chinese, Japanese, Korean, Cyrillic or Greek)';

  /** Of the part the model reads (it cuts longer texts). */
  coverage(text: string): number {
    return useLiteCoverage(text.length > USE_LITE_MAX_CHARS ? text.slice(0, USE_LITE_MAX_CHARS) : text);
  }

  async dimension(): Promise<number> {
    return USE_LITE_DIMENSION;
  }

  embed(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    return embedInWorker(texts, opts);
  }
}
