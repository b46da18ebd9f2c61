// Guarantees (issue 34, nodes as packages): a node type is one folder, engine/nodes/<type>/, named exactly as its
// type id, holding its definition and execute (index.ts) and its texts in English and Simplified Chinese
// (messages.en.json, messages.zh-CN.json); besides the folder, adding a node type is its line in
// createDefaultRegistry (engine/nodes/registry.ts) and its texts' line in engine/nodes/messages.ts. So: every folder
// is a registered type and every registered type a folder; the texts the app serves are the folder's files; no node
// type lives outside its folder; and no node package imports another (what several share is in engine/nodes/shared/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeDefinition } from '@/engine/node-kit/define';
import { NODE_MESSAGES } from '@/engine/nodes/messages';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { LOCALES } from '@/lib/i18n/locales';
import { MESSAGES } from '@/messages';

const NODES = path.resolve(__dirname, '../../engine/nodes');
/** Helpers several node types use: not a node type. */
const SHARED = 'shared';
const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const entries = readdirSync(NODES);
const isFolder = (name: string) => statSync(path.join(NODES, name)).isDirectory();
const packages = entries.filter((name) => isFolder(name) && name !== SHARED).sort();
const registered = createDefaultRegistry().latest();

/** The source files of a folder, at any depth; tests too when asked. */
function sourcesUnder(dir: string, withTests = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sourcesUnder(p, withTests);
    return /\.tsx?$/.test(name) && (withTests || !name.endsWith('.test.ts')) ? [p] : [];
  });
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** Every key path of a message tree, sorted. */
function keysOf(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree)
    .flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k))
    .sort();
}

describe('adding a node type touches its folder and its registry lines', () => {
  it('has node packages to check', () => {
    expect(packages.length).toBeGreaterThanOrEqual(15);
    expect(packages).toContain('human_input');
  });

  it('every folder under engine/nodes/ (but shared/) is a registered node type, and every type is a folder', () => {
    expect(registered.map((d) => d.type).sort()).toEqual(packages);
  });

  it('no node type lives outside its folder: engine/nodes/ itself holds only the registry and the texts list', () => {
    expect(entries.filter((name) => !isFolder(name)).sort()).toEqual(['messages.ts', 'registry.ts']);
  });

  it.each(packages)('%s/index.ts exports the definition the registry holds for that type', async (type) => {
    const exported = Object.values(await import(path.join(NODES, type, 'index.ts'))) as unknown[];
    const definitions = exported.filter((v): v is NodeDefinition => !!v && typeof v === 'object' && 'execute' in v);
    expect(definitions.map((d) => d.type)).toEqual([type]);
    expect(definitions[0]).toBe(createDefaultRegistry().get(type));
  });

  it.each(packages)(
    '%s holds its texts in both languages, with the same keys, and those are the texts served',
    (type) => {
      const english = readJson(path.join(NODES, type, 'messages.en.json'));
      for (const locale of LOCALES) {
        const own = readJson(path.join(NODES, type, `messages.${locale}.json`));
        expect(keysOf(own), `${type}/messages.${locale}.json keys`).toEqual(keysOf(english));
        expect(NODE_MESSAGES[locale][type as keyof (typeof NODE_MESSAGES)['en']]).toEqual(own);
        expect(MESSAGES[locale].nodes[type]).toEqual(own);
      }
    },
  );

  it('serves texts for the node packages and nothing else', () => {
    for (const locale of LOCALES) {
      expect(Object.keys(NODE_MESSAGES[locale]).sort()).toEqual(packages);
      expect(Object.keys(MESSAGES[locale].nodes).sort()).toEqual(packages);
    }
  });

  it('no node package imports another (what several use is in shared/)', () => {
    const crossing: string[] = [];
    for (const type of packages) {
      for (const file of sourcesUnder(path.join(NODES, type))) {
        for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
          const spec = m[1] ?? m[2];
          const target = spec.startsWith('@/')
            ? path.resolve(NODES, '../..', spec.slice(2))
            : spec.startsWith('.')
              ? path.resolve(path.dirname(file), spec)
              : null;
          if (!target || !target.startsWith(NODES + path.sep)) continue;
          const folder = path.relative(NODES, target).split(path.sep)[0];
          if (packages.includes(folder) && folder !== type)
            crossing.push(`${path.relative(NODES, file)} imports ${spec}`);
        }
      }
    }
    expect(crossing).toEqual([]);
  });
});
