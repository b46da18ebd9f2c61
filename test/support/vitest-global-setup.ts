/**
 * vitest globalSetup: makes the migrated embedded-database template every test's fresh data dir starts from (see
 * pglite-template.ts), and removes it when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@/engine/store/prisma/database';
import { TEMPLATE_ENV } from './pglite-template';

export default async function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'paiflow-test-template-'));
  const db = await openDatabase({ dataDir: dir });
  await db.close();
  process.env[TEMPLATE_ENV] = path.join(dir, 'pglite');
  return () => rmSync(dir, { recursive: true, force: true });
}
