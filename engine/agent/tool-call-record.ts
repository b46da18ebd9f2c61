/**
 * What the agent keeps of each tool call it made: the tool batch (tool-batch.ts) writes one per call, the ReAct loop
 * (run-agent.ts) returns them with its result, and the checkpoint (agent-checkpoint.ts) stores them between rounds.
 * Its own module so that none of the three imports another for it.
 */
import type { ToolOutcomeKind } from './tool-errors';

export interface ToolCallRecord {
  round: number;
  id: string;
  name: string;
  status: ToolOutcomeKind;
  durationMs: number;
  warned?: boolean;
}
