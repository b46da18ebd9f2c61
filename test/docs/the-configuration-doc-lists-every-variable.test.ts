// Guarantees: docs/configuration.md is what `npm run docs` renders from engine/config/variables.ts today — a variable
// added, removed or given another default, range or meaning without regenerating the page fails here — and the
// longer notes of scripts/docs/configuration-notes.ts name only variables that exist. The README's short list of
// main settings names only real variables. (test/config/every-environment-variable-is-documented.test.ts checks the
// page's rows against the module independently of the generator.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECRET_VARIABLES, VARIABLES } from '@/engine/config/settings';
import { CONFIGURATION_DOC, renderConfigurationDoc, sectionsOf, unknownNotes } from '@/scripts/docs/configuration';

describe('the configuration page (docs/configuration.md)', () => {
  it('is up to date with engine/config/variables.ts (else run `npm run docs`)', () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8')).toBe(renderConfigurationDoc());
  });

  it('has a row for every variable, secrets named by workflows included', () => {
    const page = readFileSync(CONFIGURATION_DOC, 'utf8');
    const missing = [...Object.keys(VARIABLES), ...Object.keys(SECRET_VARIABLES)].filter(
      (name) => !page.includes(`| \`${name}\` |`),
    );
    expect(missing).toEqual([]);
  });

  it('files every variable under a section of engine/config/variables.ts', () => {
    const sections = sectionsOf(readFileSync('engine/config/variables.ts', 'utf8'));
    expect(Object.keys(VARIABLES).filter((name) => !sections.has(name))).toEqual([]);
    expect(new Set(sections.values()).size).toBeGreaterThan(5);
  });

  it('has notes only for variables the configuration module knows', () => {
    expect(unknownNotes()).toEqual([]);
  });
});

describe("the README's main configuration", () => {
  it('names only variables the configuration module knows', () => {
    const readme = readFileSync('README.md', 'utf8');
    const start = readme.indexOf('## Configuration');
    expect(start, 'the README has a Configuration section').toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf('\n## ', start + 10));
    const named = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !(name in VARIABLES))).toEqual([]);
  });
});
