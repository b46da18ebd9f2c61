/**
 * Which node executions the offline demo model answered. The demo model stands in only when no model server is
 * configured at all (engine/llm/resolve-provider.ts); its answers are not a real model's, so a node that used it must
 * say so wherever its result is shown. The runtime watches the provider every node is handed, for every node type at
 * once, and marks the node's `usage` with `demo: true`; sums of usage (the run's) keep the mark (llm/prices.ts).
 */
import type { LlmProvider, LlmResolver, Usage } from '../llm/types';

export class DemoModelUse {
  /** A call reached the demo model. */
  used = false;

  /** `llm` whose demo provider notes each call made through it; any other provider is handed on as it is. */
  watch(llm: LlmResolver): LlmResolver {
    return (settings) => {
      const provider = llm(settings);
      return provider.demo ? this.noting(provider) : provider;
    };
  }

  private noting(p: LlmProvider): LlmProvider {
    const speech = p.speech?.bind(p);
    const images = p.images?.bind(p);
    return {
      id: p.id,
      label: p.label,
      demo: true,
      chat: (req) => ((this.used = true), p.chat(req)),
      ...(speech ? { speech: (req: Parameters<typeof speech>[0]) => ((this.used = true), speech(req)) } : {}),
      ...(images ? { images: (req: Parameters<typeof images>[0]) => ((this.used = true), images(req)) } : {}),
    };
  }
}

/**
 * A node's `usage` as its record keeps it: marked `demo` when the demo model answered (no tokens and a cost of 0, the
 * demo model's, when the node counted none).
 */
export function withDemoMark(usage: Usage | null | undefined, used: boolean): Usage | null {
  if (!used) return usage ?? null;
  return { inputTokens: 0, outputTokens: 0, costUsd: 0, ...usage, demo: true };
}
