/**
 * Where PaiFlow's own files are (prisma/migrations, the database threads' scripts, scripts/worker.ts): the folder of
 * the entry point that started the process — server.mjs and scripts/worker.ts set PAIFLOW_ROOT to theirs — else the
 * working directory (`next dev`, vitest). Next bundles the server code, so a module cannot find these files from its
 * own location; the entry point can, and so the app starts from any working directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PaiError } from '../errors';
import { settings } from './settings';

export function appRoot(): string {
  return settings().PAIFLOW_ROOT || /* turbopackIgnore: true */ process.cwd();
}

export function fromAppRoot(...parts: string[]): string {
  return path.join(/* turbopackIgnore: true */ appRoot(), ...parts);
}

/** A file PaiFlow needs at run time (a worker thread's script): its path, or a start-up error that says what to do. */
export function existingAppFile(...parts: string[]): string {
  const file = fromAppRoot(...parts);
  if (existsSync(file)) return file;
  throw new PaiError(
    'APP_FILES_NOT_FOUND',
    `PaiFlow's file ${path.join(...parts)} is not under ${appRoot()}: start PaiFlow from its folder ` +
      '(npm start, npm run dev, npm run worker) or set PAIFLOW_ROOT to that folder',
  );
}
