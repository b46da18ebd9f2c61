/**
 * What the engine is given from the settings. The composition root (createApp, for the app and for every queue worker
 * process) reads the settings once and hands these to the pieces it builds: the run manager and its engines.
 */
import type { Settings } from '@/engine/config/settings';
import { runLimitsOf, type RunLimits } from '@/engine/runtime/run-limits';

export interface EngineSettings {
  /** The RunManager's limits. */
  runs: RunLimits;
  /** The state-graph engine's iteration limit for a node on a cycle without its own `data.maxIterations`. */
  loopMaxIterations: number;
}

/** What the engine is given from the settings `s`, read here once. */
export function engineSettingsOf(s: Settings): EngineSettings {
  return {
    runs: runLimitsOf(s),
    loopMaxIterations: s.LOOP_MAX_ITERATIONS,
  };
}
