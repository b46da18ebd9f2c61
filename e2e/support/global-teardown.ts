import { rmSync } from 'node:fs';

/** Removes the throw-away DATA_DIR and the owner's saved cookies the config created for this run. */
export default function globalTeardown() {
  const dir = process.env.PAIFLOW_E2E_DATA_DIR;
  if (dir && dir.includes('paiflow-e2e-')) rmSync(dir, { recursive: true, force: true });
  const auth = process.env.PAIFLOW_E2E_AUTH_FILE;
  if (auth && auth.includes('paiflow-e2e-auth-')) rmSync(auth, { force: true });
}
