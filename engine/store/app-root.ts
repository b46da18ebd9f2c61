/**
 * Where PaiFlow's own files are (prisma/migrations, the database threads' scripts, scripts/worker.ts): the folder of
 * the entry point that started the process — server.mjs and scripts/worker.ts set PAIFLOW_ROOT to theirs — else the
 * working directory (`next dev`, vitest). Next bundles the server code, so a module cannot find these files from its
 * own location; the entry point can, and so the app starts from any working directory.
 */
import path from 'node:path';
import { settings } from '../config/settings';

export function appRoot(): string {
  return settings().PAIFLOW_ROOT || /* turbopackIgnore: true */ process.cwd();
}

export function fromAppRoot(...parts: string[]): string {
  return path.join(/* turbopackIgnore: true */ appRoot(), ...parts);
}
