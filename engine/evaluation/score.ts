/**
 * What a scorer answers for one row. Its own module so that the scorers of their own files (json-schema-scorer.ts,
 * model-scorers.ts) and scorers.ts, which dispatches to them, all name it without importing each other in a circle.
 */
import type { Usage } from '../llm/types';

export interface Score {
  score: number;
  passed: boolean;
  reason?: string;
  /** Tokens the scorer itself spent (an `llm_judge`'s model): the caller adds their cost. */
  usage?: Usage;
  /** The offline demo model judged (no model server is configured): not a real model's verdict. */
  demo?: true;
}
