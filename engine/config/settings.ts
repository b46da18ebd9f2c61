/**
 * PaiFlow's configuration in one place: every environment variable it reads (./variables.ts, from which
 * docs/configuration.md is generated) parsed and validated into typed `Settings`. The composition root reads
 * `settings().NAME` and passes values to the engine, which never reads them itself; no code reads `process.env`
 * (test/config/every-environment-variable-is-documented.test.ts and test/architecture keep it so).
 *
 * - `loadSettings()` validates every variable at once; createApp() and the worker entry call it first, so a bad value
 *   stops start-up with INVALID_CONFIG naming the variable, the value's problem and the form expected.
 * - `settings()` is the settings of the current environment. Each value is parsed once and kept with the raw string
 *   it came from; a read costs one environment lookup, and a variable changed since (tests set them between cases)
 *   is parsed again on its next read — so nothing is read at import time and nothing goes stale.
 * - `parseSettings(env)` parses a given environment object (tests, readConfig(env)) and keeps nothing.
 * - `defaultSettings()` is every variable's default (an empty environment).
 *
 * Only the composition root (lib/server/app.ts, scripts/worker.ts) and engine/config read `settings()`: the rest of
 * engine/ is given its values by whoever builds it (store-opening options, the run manager's limits, the knowledge
 * stores' options), and falls back to `defaultSettings()` when built without them (tests, benches).
 *
 * Lenient variables (whose bad values the code always replaced by the default) still fall back, with a warning.
 */
import { PaiError } from '../errors';
import type { Variable } from './kinds';
import { VARIABLES, type VariableName } from './variables';

export { DEFAULT_KNOWLEDGE_EXACT_KNN_LIMIT, SECRET_VARIABLES, VARIABLES, type VariableName } from './variables';
export type { Variable } from './kinds';

export type Env = Readonly<Record<string, string | undefined>>;

export type Settings = {
  readonly [K in VariableName]: (typeof VARIABLES)[K] extends Variable<infer T> ? T : never;
};

export interface ConfigProblem {
  variable: string;
  problem: string;
  expected: string;
}

const NAMES = Object.keys(VARIABLES) as VariableName[];
const spec = (name: VariableName): Variable => VARIABLES[name];

function describeProblem(p: ConfigProblem, raw: string | undefined): string {
  const sensitive = p.variable in VARIABLES && spec(p.variable as VariableName).sensitive;
  const value = raw === undefined ? '' : sensitive ? ' (value not shown)' : `=${JSON.stringify(raw)}`;
  return `${p.variable}${value} ${p.problem}; expected ${p.expected}`;
}

function invalid(problems: Array<ConfigProblem & { raw?: string }>): PaiError {
  return new PaiError(
    'INVALID_CONFIG',
    `invalid configuration: ${problems.map((p) => describeProblem(p, p.raw)).join('; ')}`,
    {
      details: { problems: problems.map(({ variable, problem, expected }) => ({ variable, problem, expected })) },
    },
  );
}

function parseOne(name: VariableName, raw: string | undefined): { value: unknown; problem?: ConfigProblem } {
  const v = spec(name);
  const r = v.schema.safeParse(raw);
  if (r.success) return { value: r.data };
  const problem = { variable: name, problem: r.error.issues[0]?.message ?? 'is invalid', expected: v.expected };
  return { value: v.lenient ? v.schema.parse(undefined) : undefined, problem };
}

/** Checks across variables, on the parsed values. */
const CROSS_CHECKS: Array<(s: Settings) => ConfigProblem | undefined> = [
  // The schema name is put into SQL (CREATE SCHEMA, search_path); without DATABASE_URL it is not used at all.
  (s) =>
    s.DATABASE_URL && s.DATABASE_SCHEMA !== undefined && !/^[a-z_][a-z0-9_]*$/.test(s.DATABASE_SCHEMA)
      ? {
          variable: 'DATABASE_SCHEMA',
          problem: 'is not a plain schema name',
          expected: 'lower-case letters, digits and _ (not first a digit)',
        }
      : undefined,
  // Single sign-on needs both the issuer and PaiFlow's client id there; a role map means nothing without its claim.
  (s) =>
    s.OIDC_ISSUER && !s.OIDC_CLIENT_ID
      ? { variable: 'OIDC_CLIENT_ID', problem: 'is not set but OIDC_ISSUER is', expected: "PaiFlow's client id" }
      : undefined,
  (s) =>
    !s.OIDC_ISSUER && (s.OIDC_CLIENT_ID || s.OIDC_ROLE_CLAIM)
      ? { variable: 'OIDC_ISSUER', problem: 'is not set but other OIDC_ variables are', expected: 'the issuer URL' }
      : undefined,
  (s) =>
    s.OIDC_ROLE_MAP && !s.OIDC_ROLE_CLAIM
      ? { variable: 'OIDC_ROLE_CLAIM', problem: 'is not set but OIDC_ROLE_MAP is', expected: 'a claim name' }
      : undefined,
];

const warned = new Set<string>();
function warn(p: ConfigProblem, raw: string | undefined) {
  const key = `${p.variable}\n${raw}`;
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(`[paiflow] ${describeProblem(p, raw)}; using the default`);
}

function parseAll(env: Env, onLenient: (p: ConfigProblem, raw: string | undefined) => void): Settings {
  const values: Record<string, unknown> = {};
  const problems: Array<ConfigProblem & { raw?: string }> = [];
  for (const name of NAMES) {
    const { value, problem } = parseOne(name, env[name]);
    values[name] = value;
    if (problem && spec(name).lenient) onLenient(problem, env[name]);
    else if (problem) problems.push({ ...problem, raw: env[name] });
  }
  if (!problems.length)
    for (const check of CROSS_CHECKS) {
      const p = check(values as Settings);
      if (p) problems.push({ ...p, raw: env[p.variable] });
    }
  if (problems.length) throw invalid(problems);
  return Object.freeze(values) as Settings;
}

/** The settings of `env`, parsed and validated (INVALID_CONFIG on a bad value); nothing is kept. */
export function parseSettings(env: Env): Settings {
  return parseAll(env, () => {});
}

let source: Env = process.env;
const cache = new Map<VariableName, { raw: string | undefined; value: unknown }>();

function current(name: VariableName): unknown {
  const raw = source[name];
  const hit = cache.get(name);
  if (hit && hit.raw === raw) return hit.value;
  const { value, problem } = parseOne(name, raw);
  if (problem && !spec(name).lenient) throw invalid([{ ...problem, raw }]);
  if (problem) warn(problem, raw);
  cache.set(name, { raw, value });
  return value;
}

const view = Object.freeze(
  Object.defineProperties(
    {},
    Object.fromEntries(NAMES.map((name) => [name, { get: () => current(name), enumerable: true }])),
  ),
) as Settings;

/**
 * Validates every variable of `env` (default: the process's environment) and makes it the one `settings()` reads.
 * Throws INVALID_CONFIG naming each bad variable; warns about lenient ones that fell back to their default.
 */
export function loadSettings(env: Env = process.env): Settings {
  const parsed = parseAll(env, warn);
  source = env;
  cache.clear();
  for (const name of NAMES) cache.set(name, { raw: env[name], value: parsed[name] });
  return view;
}

let defaults: Settings | undefined;

/**
 * Every variable's default: the settings of an empty environment. What engine code falls back to when whoever built
 * it gave no value (a test or bench building a piece directly); never the environment's values.
 */
export function defaultSettings(): Settings {
  return (defaults ??= parseSettings({}));
}

/** The settings of the current environment (see the top of this file). */
export function settings(): Settings {
  return view;
}
