import { rmSync } from 'node:fs';

/** Removes the throw-away DATA_DIR the config created for this run. */
export default function globalTeardown() {
  const dir = process.env.PAIFLOW_E2E_DATA_DIR;
  if (dir && dir.includes('paiflow-e2e-')) rmSync(dir, { recursive: true, force: true });
}
