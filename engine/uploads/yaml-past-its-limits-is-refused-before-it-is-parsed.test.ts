// Guarantee: a YAML document nested past the depth limit or holding more values than IMPORT_MAX_YAML_NODES is refused
// (YAML_TOO_DEEP, YAML_TOO_MANY_NODES, naming the line and the limit) by a pass over the lexer's tokens that stops
// where the limit is passed, before anything is parsed — the red team's 900,000-deep and 30,000-map Dify files in
// well under a second instead of 20 s and 7 s of parsing; block nesting the first pass cannot see is refused after
// the parse; real Dify exports, and a SKILL.md's front matter, read as before.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSkillMd } from '@/engine/agent/skills/skill-md';
import { difyWithSmallMaps, yamlNested } from '@/test/support/hostile-documents';
import { readYaml } from './yaml-document';

const LIMITS = { maxNodes: 100_000, maxDepth: 256 };
const FIXTURES = path.resolve(__dirname, '../../test/fixtures/import');

function refusal(f: () => unknown) {
  const t0 = performance.now();
  try {
    f();
    return { e: null, ms: performance.now() - t0 };
  } catch (e) {
    return {
      e: e as { code: string; message: string; path?: string; details?: { line?: number } },
      ms: performance.now() - t0,
    };
  }
}

describe('the red team documents', () => {
  it('900,000 nested [ : YAML_TOO_DEEP at the 257th', () => {
    const { e, ms } = refusal(() => readYaml(yamlNested(900_000), LIMITS));
    expect(e).toMatchObject({ code: 'YAML_TOO_DEEP', path: 'content', details: { line: 1 } });
    expect(e!.message).toContain('more than 256 levels');
    expect(ms).toBeLessThan(1000);
  });

  it('30,000 small maps (about 2 MB): YAML_TOO_MANY_NODES, naming IMPORT_MAX_YAML_NODES and the line', () => {
    const { e } = refusal(() => readYaml(difyWithSmallMaps(30_000), LIMITS));
    expect(e).toMatchObject({ code: 'YAML_TOO_MANY_NODES', path: 'content' });
    expect(e!.message).toContain('100000 (IMPORT_MAX_YAML_NODES)');
    // The 8 header lines hold 12 values and each node 8 (its map; `data`, `title`, `type`, `id` and their values), so
    // value 100,001 is in node 12,499, whose first line follows the header and 12,498 nodes of two lines.
    expect(e!.details!.line).toBe(8 + 2 * 12_498 + 1);
  });
});

describe('what the token pass cannot see', () => {
  it('block nesting past the depth limit is refused after the parse', () => {
    const deep = Array.from({ length: 40 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n';
    expect(() => readYaml(deep, { maxNodes: 1000, maxDepth: 30 })).toThrow(
      expect.objectContaining({ code: 'YAML_TOO_DEEP' }),
    );
    expect(readYaml(deep, { maxNodes: 1000, maxDepth: 40 })).toBeTruthy();
  });

  it('aliases stay capped (a billion laughs is IMPORT_UNREADABLE, not a hang)', () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      laughs.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    expect(() => readYaml(laughs.join('\n'), LIMITS)).toThrow(expect.objectContaining({ code: 'IMPORT_UNREADABLE' }));
  });
});

describe('documents within the limits', () => {
  it('real Dify exports read whole', () => {
    for (const name of ['dify-workflow-article-helper.yml', 'dify-advanced-chat-support.yml']) {
      const doc = readYaml(readFileSync(path.join(FIXTURES, name), 'utf8'), LIMITS) as { app: { mode: string } };
      expect(['workflow', 'advanced-chat']).toContain(doc.app.mode);
    }
  });

  it('a syntax error names its line, as before', () => {
    expect(() => readYaml('app:\n  mode: [workflow\n', LIMITS)).toThrow(
      expect.objectContaining({ code: 'IMPORT_UNREADABLE', path: 'content' }),
    );
  });

  it("a SKILL.md's front matter is bounded too, naming the file", () => {
    const md = `---\nname: deep\ndescription: x\nmeta: ${yamlNested(100)}---\nbody\n`;
    expect(() => parseSkillMd(md, 'files["SKILL.md"]')).toThrow(
      expect.objectContaining({ code: 'YAML_TOO_DEEP', path: 'files["SKILL.md"]' }),
    );
    expect(parseSkillMd('---\nname: ok\ndescription: fine\n---\nbody\n')).toMatchObject({ name: 'ok' });
  });
});
