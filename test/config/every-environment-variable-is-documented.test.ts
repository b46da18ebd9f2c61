// Guarantees: the configuration page (docs/configuration.md, generated from engine/config/variables.ts by `npm run
// docs`) matches the configuration module: every variable the module knows has a row with the module's default, and
// the page names no variable the module does not know. Product code reads the environment only through the module
// (a few allow-listed files, each with its reason), so a variable cannot be read without being validated at start-up
// and documented.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSettings, SECRET_VARIABLES, VARIABLES, type Variable, type VariableName } from '@/engine/config/settings';

/** Read by tooling or libraries, or only written (engine/config/variables.ts says why each is not a setting). */
const NOT_SETTINGS = new Set([
  'NODE_ENV',
  'CI',
  'CHROMIUM_PATH',
  'PRISMA_SCHEMA_ENGINE_BINARY',
  'NEXT_TELEMETRY_DISABLED',
  'CHECKPOINT_DISABLE',
  'PAIFLOW_WORKER_INDEX',
]);

/** Product files that may touch process.env outside engine/config/, and why. */
const ALLOWED: Record<string, string> = {
  'server.mjs':
    'the production entry point, plain JavaScript run before any TypeScript is loaded: sets NODE_ENV, PAIFLOW_ROOT ' +
    'and PAIFLOW_CLIENT_IP_TAG for the app it starts and reads PORT, HOSTNAME, PUBLIC_URL and TRUST_PROXY itself ' +
    '(names checked below)',
  'scripts/worker.ts': "the worker's entry point sets PAIFLOW_ROOT to its own folder before the settings are read",
  'engine/queue/worker-processes.ts': 'hands the environment on to the worker processes it forks (reads no variable)',
  'lib/server/credentials/env-secrets.ts':
    'SECRET_<NAME> and SECRET_<NAME>_HOSTS: names chosen by workflows, read at the moment of sending, never held ' +
    'in the settings',
  'lib/server/credentials/credentials.ts': 'lists the SECRET_<NAME> variables as read-only environment credentials',
  'components/ui/first-compile-note.tsx':
    'a client component: NODE_ENV, which Next writes into the browser bundle, tells `next dev` from a build',
};

const PRODUCT = ['engine', 'lib', 'app', 'components', 'scripts/worker.ts', 'server.mjs'];
const CONFIG_MODULE = `engine${path.sep}config${path.sep}`;

function files(p: string): string[] {
  if (statSync(p).isFile()) return /\.(ts|tsx|mjs)$/.test(p) && !/\.test\.ts$/.test(p) ? [p] : [];
  return readdirSync(p).flatMap((e) => (e === 'generated' || e === 'node_modules' ? [] : files(path.join(p, e))));
}
const productFiles = () => PRODUCT.flatMap((p) => files(p)).filter((f) => !f.startsWith(CONFIG_MODULE));

interface Row {
  names: string[];
  defaults: string[];
}

/** The configuration page's tables: the variables of each row (first column) and their defaults (second column). */
function table(): Row[] {
  const page = readFileSync('docs/configuration.md', 'utf8');
  expect(page, 'docs/configuration.md has its configuration tables').toContain('| variable | default |');
  return page
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((line) => {
      const [, first, second] = line.split('|');
      const names = [...first.matchAll(/`([A-Z][A-Z0-9_<>]*)`/g)].map((m) => m[1]);
      // `A`, `B` | `1`, `2` — or one default for every variable of the row.
      const cells = names.length > 1 ? second.trim().split(/\s*,\s+|\s+\/\s+/) : [second.trim()];
      return { names, defaults: names.map((_, i) => (cells.length === 1 ? cells[0] : (cells[i] ?? '(missing)'))) };
    });
}

const known = new Map<string, { shown: string }>([...Object.entries(VARIABLES), ...Object.entries(SECRET_VARIABLES)]);

describe('the configuration page (docs/configuration.md)', () => {
  it('has a row for every variable of the configuration module', () => {
    const documented = new Set(table().flatMap((r) => r.names));
    expect([...known.keys()].filter((v) => !documented.has(v))).toEqual([]);
  });

  it('names no variable the configuration module does not know', () => {
    expect(table().flatMap((r) => r.names.filter((v) => !known.has(v)))).toEqual([]);
  });

  it('gives each variable the default of the configuration module', () => {
    const wrong = table().flatMap((r) =>
      r.names.flatMap((name, i) => {
        const shown = known.get(name)?.shown;
        const cell = r.defaults[i];
        return shown === undefined || cell === shown || cell.startsWith(`${shown} `)
          ? []
          : [`${name}: docs/configuration.md "${cell}", module "${shown}"`];
      }),
    );
    expect(wrong).toEqual([]);
  });
});

/** How the configuration page writes a parsed default. */
function written(value: unknown): string[] {
  if (value === undefined || (Array.isArray(value) && !value.length)) return ['—'];
  if (typeof value === 'boolean') return value ? ['`1`'] : ['`0`', 'off', '—'];
  return [`\`${String(value)}\``];
}

describe('the configuration module', () => {
  it("states its defaults as they are parsed (so the page's check compares with the code's defaults)", () => {
    const defaults = parseSettings({});
    const wrong = Object.entries(VARIABLES as Record<VariableName, Variable>)
      .filter(([name, v]) => !v.computed && !written(defaults[name as VariableName]).includes(v.shown))
      .map(([name, v]) => `${name}: shown ${v.shown}, parsed ${String(defaults[name as VariableName])}`);
    expect(wrong).toEqual([]);
    expect(defaults.CPU_WORKER_THREADS).toBe(Math.max(1, availableParallelism() - 1));
  });

  it('knows every variable product code names', () => {
    const named = new Set<string>();
    const patterns = [
      /process\.env\.([A-Z][A-Z0-9_]+)/g, // process.env.NAME
      /\benv\.([A-Z][A-Z0-9_]+)/g, // env.NAME (an environment object passed in)
      /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, // env['NAME']
    ];
    for (const f of productFiles()) {
      const text = readFileSync(f, 'utf8');
      for (const re of patterns) for (const m of text.matchAll(re)) named.add(m[1]);
    }
    for (const v of ['PORT', 'HOSTNAME', 'PUBLIC_URL', 'OPENAI_API_KEY'])
      expect(named, `the scan finds ${v}`).toContain(v);
    const unknown = [...named].filter((v) => !known.has(v) && !NOT_SETTINGS.has(v) && !v.startsWith('SECRET_'));
    expect(unknown, 'add these to engine/config/variables.ts (then `npm run docs`)').toEqual([]);
  });

  it('lists no variable that nothing reads', () => {
    const text = productFiles()
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unread = Object.keys(VARIABLES).filter((v) => !new RegExp(`\\.${v}\\b`).test(text));
    expect(unread).toEqual([]);
  });
});

describe('product code', () => {
  it('reads the environment only through the configuration module (engine/config/)', () => {
    const touching = productFiles().filter((f) => /\bprocess\.env\b/.test(readFileSync(f, 'utf8')));
    expect(
      touching.filter((f) => !(f in ALLOWED)),
      'read settings().NAME instead',
    ).toEqual([]);
    expect(
      Object.keys(ALLOWED).filter((f) => !touching.includes(f)),
      'no longer needed on the allow-list',
    ).toEqual([]);
  });
});
