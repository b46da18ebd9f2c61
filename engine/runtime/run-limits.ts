/**
 * The limits runs execute under. Whoever builds the RunManager gives them (the app, from its settings:
 * lib/server/engine-settings.ts); the manager hands them to the engine and the engine to every node it runs. A manager
 * built without them (a test, a bench) runs under the variables' defaults.
 */
import { defaultSettings, type Settings } from '../config/settings';

export interface RunLimits {
  /** Nodes of one run the DAG engine executes at once (DAG_CONCURRENCY; below 1 counts as 1). */
  dagConcurrency: number;
  /** A node's time limit when its `data.timeoutMs` is unset (NODE_TIMEOUT_MS). */
  nodeTimeoutMs: number;
  /**
   * Bytes of a node's input or output, or of a run's outputs, the run record keeps; larger parts go to artifacts
   * (NODE_OUTPUT_MAX_BYTES).
   */
  nodeOutputMaxBytes: number;
  /** Characters an interpolated template may render to (TEMPLATE_MAX_OUTPUT_CHARS). */
  templateMaxOutputChars: number;
}

/** The run limits of the settings `s`. */
export function runLimitsOf(s: Settings): RunLimits {
  return {
    dagConcurrency: s.DAG_CONCURRENCY,
    nodeTimeoutMs: s.NODE_TIMEOUT_MS,
    nodeOutputMaxBytes: s.NODE_OUTPUT_MAX_BYTES,
    templateMaxOutputChars: s.TEMPLATE_MAX_OUTPUT_CHARS,
  };
}

/** The variables' defaults. */
export function defaultRunLimits(): RunLimits {
  return runLimitsOf(defaultSettings());
}
