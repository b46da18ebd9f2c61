/**
 * The node's model chain: [primary, fallback…] on one provider. Each request goes to the current model (the SDK
 * retries 429/5xx/connection errors `maxRetries` times with backoff first); when it still fails with anything but
 * an auth error, an address the SSRF guard refuses or a cancellation, the next model takes over for this and every
 * later request of the node.
 * Usage is summed over every request, whichever model answered: tokens and cost, each response priced by its
 * provider for the model that answered it (a response without a price counts as unknown, `costUsd: null`).
 */
import { PaiError } from '../errors';
import { withStatedCost } from '../llm/prices';
import type { ChatRequest, ChatResponse, LlmProvider, Usage } from '../llm/types';
import { addUsage, zeroUsage } from './tokens';

export interface ModelSwitch {
  from: string;
  to: string;
  error: { code: string; message: string };
}

const isAbort = (err: unknown, signal?: AbortSignal) =>
  signal?.aborted || (err instanceof Error && err.name === 'AbortError');
/** Fails the same for every model of the provider: the key, or the provider's address refused by the SSRF guard. */
const isProviderWide = (err: unknown) =>
  err instanceof PaiError && (err.code === 'LLM_AUTH' || err.code === 'SSRF_BLOCKED');

export class ModelChain {
  private index = 0;
  usage: Usage = zeroUsage();
  requests = 0;

  constructor(
    private readonly provider: LlmProvider,
    readonly models: string[],
    private readonly o: { maxRetries?: number; onSwitch?(s: ModelSwitch): void } = {},
  ) {
    if (!models.length) throw new Error('a model chain needs at least one model');
  }

  get current(): string {
    return this.models[this.index];
  }

  async chat(req: Omit<ChatRequest, 'model'>): Promise<ChatResponse> {
    for (;;) {
      const model = this.models[this.index];
      try {
        this.requests++;
        const answer = await this.provider.chat({
          ...req,
          model,
          ...(this.o.maxRetries !== undefined ? { maxRetries: this.o.maxRetries } : {}),
        });
        const res = { ...answer, usage: withStatedCost(answer.usage) };
        this.usage = addUsage(this.usage, res.usage);
        return res;
      } catch (err) {
        if (isAbort(err, req.signal) || isProviderWide(err) || this.index >= this.models.length - 1) throw err;
        const e =
          err instanceof PaiError
            ? { code: err.code, message: err.message }
            : { code: 'LLM_ERROR', message: err instanceof Error ? err.message : String(err) };
        this.index++;
        this.o.onSwitch?.({ from: model, to: this.models[this.index], error: e });
      }
    }
  }
}
