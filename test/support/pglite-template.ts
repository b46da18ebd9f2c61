/**
 * One migrated embedded database for the whole vitest run. The first open of a new PGlite data dir applies every
 * migration (≈5 s idle, 13 s on a loaded 2-core machine); a copy of an already migrated one opens in well under a
 * second. vitest's globalSetup (test/support/vitest-global-setup.ts) makes the template once and names it in
 * PAIFLOW_TEST_PGLITE_TEMPLATE; `seedDataDir` copies it into a test's fresh DATA_DIR before the app opens it.
 *
 * The app still migrates the copy on open (its migrator sees every migration applied, checksums included), so a
 * test sees exactly what a user's second start sees. Tests of first-open behaviour use their own empty directory.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';

export const TEMPLATE_ENV = 'PAIFLOW_TEST_PGLITE_TEMPLATE';

/** Copies the migrated template into `<dataDir>/pglite`, where the app keeps its embedded database. */
export function seedDataDir(dataDir: string): void {
  const template = process.env[TEMPLATE_ENV];
  const target = path.join(dataDir, 'pglite');
  if (!template || !existsSync(template) || existsSync(target)) return;
  cpSync(template, target, { recursive: true });
}
