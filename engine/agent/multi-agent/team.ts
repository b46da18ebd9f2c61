/**
 * What every part of one multi-agent execution shares: the three roles' providers and prompts, the worker's tools,
 * limits, tracing, and one usage meter that every LLM call of the node adds to (each call gets its own model chain,
 * so a fallback or a failure in one worker does not change what the others use).
 */
import { randomUUID } from 'node:crypto';
import { PaiError } from '../../errors';
import type { TraceEventType } from '../../events/types';
import type { ChatMessage, ChatResponse, LlmProvider, Usage } from '../../llm/types';
import type { EmitOptions, NodeCheckpoint } from '../../node-kit/define';
import { ModelChain } from '../model-chain';
import type { AgentLimits } from '../run-agent';
import { addUsage, zeroUsage } from '../tokens';
import type { AgentTool, AgentToolContext } from '../../node-kit/agent-services';

export interface TeamRole {
  provider: LlmProvider;
  /** The primary model, then fallbacks. */
  models: string[];
  /** The user's own system prompt for this role (added after the role's fixed instructions). */
  systemPrompt: string;
}

export interface MultiAgentArgs {
  task: string;
  planner: TeamRole;
  worker: TeamRole;
  reviewer: TeamRole;
  tools: AgentTool[];
  /** The worker's tool context; each step's calls get `<idempotencyKey>:<stepId>:<attempt>` as their key. */
  toolContext: AgentToolContext;
  maxSteps: number;
  maxParallel: number;
  maxRetries: number;
  review: boolean;
  /** Input + output tokens over every call of the node. */
  tokenBudget: number;
  /** Each worker's agent loop (maxRounds, tool timeouts …); its token budget is what the node has left. */
  workerLimits: Partial<Omit<AgentLimits, 'tokenBudget'>>;
  llmRetries: number;
  temperature?: number;
  maxTokens?: number;
  signal: AbortSignal;
  emit(type: TraceEventType, data: Record<string, unknown>, opts?: EmitOptions): void;
  nodeSpanId: string;
  /** Absent: nothing is checkpointed (every execution starts over). */
  checkpoint?: NodeCheckpoint;
  newSpanId?: () => string;
}

export const PREVIEW_CHARS = 600;
export const preview = (s: string, n = PREVIEW_CHARS) => (s.length > n ? `${s.slice(0, n)}…` : s);

export class Team {
  usage: Usage;
  readonly newSpan: () => string;

  constructor(
    readonly a: MultiAgentArgs,
    usageSoFar: Usage = zeroUsage(),
  ) {
    this.usage = usageSoFar;
    this.newSpan = a.newSpanId ?? (() => randomUUID().replace(/-/g, '').slice(0, 16));
  }

  get tokensUsed(): number {
    return this.usage.inputTokens + this.usage.outputTokens;
  }

  /** Throws before a call when the node's budget is spent. */
  assertBudget(): void {
    if (this.tokensUsed >= this.a.tokenBudget)
      throw new PaiError(
        'MULTI_AGENT_TOKEN_BUDGET',
        `the team used ${this.tokensUsed} tokens, over its budget of ${this.a.tokenBudget}, before it finished; ` +
          'raise "limits.tokenBudget" or narrow the task',
        { details: { usage: this.usage } },
      );
  }

  chain(role: 'planner' | 'worker' | 'reviewer'): ModelChain {
    const r = this.a[role];
    return new ModelChain(r.provider, r.models, {
      maxRetries: this.a.llmRetries,
      onSwitch: (s) => this.a.emit('node.progress', { fallback: { role, ...s } }),
    });
  }

  /** Adds a finished (or failed) chain's usage to the node's. */
  count(chain: ModelChain): void {
    this.usage = addUsage(this.usage, chain.usage);
  }

  /** One plain request (planner, reviewer, summary): no tools. */
  async ask(role: 'planner' | 'reviewer', messages: ChatMessage[]): Promise<ChatResponse> {
    this.assertBudget();
    const chain = this.chain(role);
    try {
      return await chain.chat({
        messages,
        temperature: this.a.temperature,
        maxTokens: this.a.maxTokens,
        signal: this.a.signal,
      });
    } finally {
      this.count(chain);
    }
  }
}
