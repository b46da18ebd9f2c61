/**
 * Embedder for any OpenAI-compatible /v1/embeddings endpoint (OpenAI, Azure-style proxies, vLLM, Ollama, …) via the
 * official `openai` SDK (its retries/backoff apply). The dimension is learned from one probe call and cached. The
 * answer is read in either format a server may send, and a vector no search can use is refused
 * (embedding-vectors.ts). Error messages are our own: upstream 401 bodies may echo the key.
 */
import OpenAI, { APIError } from 'openai';
import { PaiError } from '../../errors';
import { NO_KEY_PLACEHOLDER } from '../../llm/openai-provider';
import { guardErrorIn } from '../../net/ssrf-guard';
import type { Embedder } from '../types';
import { readEmbeddings } from './embedding-vectors';

export interface OpenAiEmbedderOptions {
  /** Absent: the server needs none (a local one: Ollama, vLLM …). */
  apiKey?: string;
  baseURL?: string;
  /** The provider's model name, e.g. text-embedding-3-small. */
  model: string;
  batchSize?: number;
  maxRetries?: number;
  fetch?: typeof globalThis.fetch;
}

export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly label: string;
  private readonly client: OpenAI;
  private readonly name: string;
  private readonly batchSize: number;
  private dim?: Promise<number>;

  constructor(opts: OpenAiEmbedderOptions) {
    this.name = opts.model;
    this.model = `openai:${opts.model}`;
    let host = 'api.openai.com';
    try {
      if (opts.baseURL) host = new URL(opts.baseURL).host;
    } catch {
      /* keep */
    }
    this.label = `${opts.model} (OpenAI-compatible, ${host})`;
    this.batchSize = opts.batchSize ?? 96;
    this.client = new OpenAI({
      // The SDK needs a key (and would read OPENAI_API_KEY from the environment in its place): a keyless server
      // ignores the placeholder.
      apiKey: opts.apiKey?.trim() || NO_KEY_PLACEHOLDER,
      baseURL: opts.baseURL,
      maxRetries: opts.maxRetries,
      fetch: opts.fetch,
    });
  }

  dimension(): Promise<number> {
    this.dim ??= this.embed(['dimension probe'])
      .then((v) => v[0].length)
      .catch((e) => {
        this.dim = undefined;
        throw e;
      });
    return this.dim;
  }

  async embed(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize).map((t) => t || ' ');
      try {
        // base64 asked for explicitly: then the SDK hands the answer over as it came, and readEmbeddings reads it
        // whichever format the server chose to send.
        const res = await this.client.embeddings.create(
          { model: this.name, input: batch, encoding_format: 'base64' },
          { signal: opts.signal },
        );
        const data = [...(res.data ?? [])].sort((a, b) => a.index - b.index);
        if (data.length !== batch.length)
          throw new PaiError(
            'EMBEDDING_FAILED',
            `the embeddings API returned ${data.length} vectors for ${batch.length} inputs`,
          );
        const vectors = readEmbeddings(
          data.map((d) => d.embedding as unknown),
          `the embeddings API (${this.label})`,
          i,
        );
        out.push(...vectors);
      } catch (e) {
        if (e instanceof PaiError) throw e;
        if (opts.signal?.aborted) throw e;
        // The SSRF guard refused the base URL: the SDK wraps that as a connection error (APIError, no status).
        const refused = guardErrorIn(e);
        if (refused) throw refused;
        if (e instanceof APIError) {
          const status = e.status ?? 0;
          throw new PaiError(
            'EMBEDDING_FAILED',
            `the embeddings API (${this.label}) answered ` +
              `${status || 'with an error'}${status === 401 ? ': the API key was rejected' : ''}`,
            { retryable: status === 429 || status >= 500 || status === 0 },
          );
        }
        throw new PaiError('EMBEDDING_FAILED', `the embeddings API (${this.label}) failed: ${(e as Error).message}`, {
          retryable: true,
        });
      }
    }
    return out;
  }
}
