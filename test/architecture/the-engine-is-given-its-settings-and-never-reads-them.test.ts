// Guarantee of the code's structure (issue 34), checked on the source so that it cannot quietly erode: no file of
// engine/ outside engine/config reads the settings: none calls `settings()` or imports `settings` or `loadSettings`.
// Each piece of the engine is given its values by whoever builds it: the composition root (lib/server/app.ts, also
// for the queue workers) reads the settings once and hands them down (lib/server/engine-settings.ts); a piece built
// without them falls back to the variables' defaults (defaultSettings()). That every variable still takes effect is
// the guarantee of test/config/every-engine-setting-takes-effect-through-the-app.test.ts. (Reading process.env
// directly is test/config/every-environment-variable-is-documented.test.ts's concern.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/import-graph';

const engine = path.join(ROOT, 'engine');
const config = path.join(engine, 'config') + path.sep;

/** Every source file under `dir`, tests included (a test of the engine builds its pieces the same way). */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    // The generated database client reads its own variables; it is not PaiFlow's code.
    if (statSync(p).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : sourcesUnder(p);
    return /\.(ts|tsx|mts|mjs)$/.test(name) && !name.endsWith('.d.mts') ? [p] : [];
  });
}

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

/** What reads the settings in a file's code, one entry each. */
function readsOfSettings(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  for (const m of code.matchAll(/\bsettings\s*\(\s*\)/g)) found.push(m[0]);
  for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"][^'"]*config\/settings['"]/g))
    for (const name of m[1].split(',').map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
    ))
      if (name === 'settings' || name === 'loadSettings') found.push(`import { ${name} }`);
  return found;
}

describe('the engine is given its settings', () => {
  it('no file of engine/ outside engine/config reads the settings', () => {
    const files = sourcesUnder(engine).filter((f) => !f.startsWith(config));
    expect(files.length, 'the walk sees the files of engine/').toBeGreaterThan(200);
    const reading = files.flatMap((f) =>
      readsOfSettings(readFileSync(f, 'utf8')).map((what) => `${path.relative(ROOT, f)}: ${what}`),
    );
    expect(reading).toEqual([]);
  });

  it('the check sees a call and an import, and not the defaults or prose', () => {
    expect(
      readsOfSettings("import { settings } from '../config/settings';\nconst n = settings().NODE_TIMEOUT_MS;"),
    ).toEqual(['settings()', 'import { settings }']);
    expect(readsOfSettings("import { loadSettings as l, type Settings } from '@/engine/config/settings';")).toEqual([
      'import { loadSettings }',
    ]);
    expect(
      readsOfSettings(
        "import { defaultSettings, type Settings } from '../config/settings';\n" +
          '// the composition root reads settings() once\nconst d = defaultSettings().DATA_DIR;',
      ),
    ).toEqual([]);
  });
});
