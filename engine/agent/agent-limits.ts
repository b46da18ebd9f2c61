/**
 * The limits an agent runs under, and their defaults (a node's config overrides each). Their own module because the
 * ReAct loop (run-agent.ts) and the tool batch it hands each round's calls to (tool-batch.ts) both keep to them.
 */

export interface AgentLimits {
  maxRounds: number;
  /** Input + output tokens over all requests of the node. */
  tokenBudget: number;
  toolTimeoutMs: number;
  batchTimeoutMs: number;
  maxParallelTools: number;
  maxToolResultChars: number;
  contextWindow: number;
  /** Fraction of the window that triggers compaction. */
  compactAt: number;
}

export const DEFAULT_LIMITS: AgentLimits = {
  maxRounds: 10,
  tokenBudget: 200_000,
  toolTimeoutMs: 60_000,
  batchTimeoutMs: 90_000,
  maxParallelTools: 4,
  maxToolResultChars: 20_000,
  contextWindow: 128_000,
  compactAt: 0.85,
};
