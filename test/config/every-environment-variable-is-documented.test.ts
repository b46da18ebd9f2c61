// Guarantees: every environment variable the product reads (found in the source, so a new one cannot be missed) is
// documented in the README's configuration table, and the table lists no variable that nothing reads.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/** Read only by tooling and tests, not product configuration. */
const TOOLING = new Set(['CI', 'CHROMIUM_PATH', 'NODE_ENV', 'PRISMA_SCHEMA_ENGINE_BINARY']);
const SOURCES = ['engine', 'lib', 'app', 'scripts', 'server.mjs'];

function files(p: string): string[] {
  if (statSync(p).isFile()) return /\.(ts|tsx|mjs)$/.test(p) && !/\.test\.ts$/.test(p) ? [p] : [];
  return readdirSync(p).flatMap((e) => (e === 'generated' || e === 'node_modules' ? [] : files(path.join(p, e))));
}

function variablesRead(): Set<string> {
  const found = new Set<string>();
  const patterns = [
    /process\.env\.([A-Z][A-Z0-9_]+)/g, // process.env.NAME
    /\benv\.([A-Z][A-Z0-9_]+)/g, // env.NAME (an env parameter)
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, // env['NAME']
    /\(\s*env\s*,\s*'([A-Z][A-Z0-9_]+)'/g, // int(env, 'NAME', …) and other readers taking the name
  ];
  for (const f of SOURCES.flatMap((s) => files(path.resolve(s)))) {
    const text = readFileSync(f, 'utf8');
    for (const re of patterns) for (const m of text.matchAll(re)) found.add(m[1]);
  }
  for (const t of TOOLING) found.delete(t);
  return found;
}

function documented(): Set<string> {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('## Configuration');
  const table = readme
    .slice(start, readme.indexOf('\n#', start + 10))
    .split('\n')
    .filter((l) => l.startsWith('| `'));
  const names = new Set<string>();
  for (const row of table) {
    const first = row.split('|')[1];
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_<>]+)`/g)) names.add(m[1]);
    // Variables named inside a row's meaning (e.g. REDIS_PREFIX next to REDIS_URL) count as documented there.
    for (const m of row.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)) names.add(m[1]);
  }
  return names;
}

it('the source reads a known set of variables (sanity check of the scan)', () => {
  const read = variablesRead();
  for (const v of ['DATA_DIR', 'DATABASE_URL', 'WORKER_CONCURRENCY', 'SESSION_IDLE_S', 'PAIFLOW_ENCRYPTION_KEY'])
    expect(read, v).toContain(v);
});

it('every variable the product reads is in the README configuration table', () => {
  const docs = documented();
  const missing = [...variablesRead()].filter((v) => !docs.has(v) && !v.startsWith('SECRET_')).sort();
  expect(missing, 'add these to the README configuration table').toEqual([]);
});

it('the table documents no variable that nothing reads', () => {
  const read = variablesRead();
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('## Configuration');
  const rows = readme
    .slice(start, readme.indexOf('\n#', start + 10))
    .split('\n')
    .filter((l) => l.startsWith('| `'));
  const primary = rows.flatMap((r) => [...r.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  expect(primary.filter((v) => !read.has(v)).sort()).toEqual([]);
});
