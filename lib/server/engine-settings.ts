/**
 * What the engine is given from the settings. The composition root (createApp, for the app and for every queue worker
 * process) reads the settings once and hands these to the pieces it builds: the stores, the run manager and its
 * engines, the CPU pools; the knowledge stores get theirs in ./knowledge/create-knowledge.ts. Engine code outside
 * engine/config never reads the settings itself
 * (test/architecture/the-engine-is-given-its-settings-and-never-reads-them.test.ts).
 */
import type { Settings } from '@/engine/config/settings';
import { cpuLimits, type CpuLimits } from '@/engine/cpu/limits';
import { runLimitsOf, type RunLimits } from '@/engine/runtime/run-limits';
import type { OpenStoresOptions } from '@/engine/store/app/open-stores';

export interface EngineSettings {
  /** How the database is opened and committed to, besides where it is (the AppConfig's URL, folder and schema). */
  stores: Omit<OpenStoresOptions, 'databaseUrl' | 'dataDir' | 'schema'>;
  /** The RunManager's limits. */
  runs: RunLimits;
  /** The state-graph engine's iteration limit for a node on a cycle without its own `data.maxIterations`. */
  loopMaxIterations: number;
  /**
   * The CPU pools' limits (regexes, templates, documents, embeddings), read from `s` on each use: with the settings
   * loadSettings() answers, a change to the environment reaches the next document or run, as it always did.
   */
  cpuLimits: () => CpuLimits;
}

/** What the engine is given from the settings `s`: everything but the CPU limits is read here, once. */
export function engineSettingsOf(s: Settings): EngineSettings {
  return {
    stores: {
      threadSpinMs: s.DB_THREAD_SPIN_MS,
      embeddedBuffersMb: s.DB_EMBEDDED_BUFFERS_MB,
      poolSize: s.DATABASE_POOL_SIZE,
      writeThread: s.PG_WRITE_THREAD,
      migrationsDir: s.PAIFLOW_MIGRATIONS_DIR,
      syncSnapshotCommits: s.SNAPSHOT_SYNC_COMMIT,
    },
    runs: runLimitsOf(s),
    loopMaxIterations: s.LOOP_MAX_ITERATIONS,
    cpuLimits: () => cpuLimits(s),
  };
}
