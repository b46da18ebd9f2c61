// Guarantees: reading a skill's file never leaves that skill's folder — `..`, absolute paths, drive paths and
// symbolic links that point outside are refused with a ToolPolicyError (what the agent sees as "policy denied"),
// for SKILLS_DIR skills and through read_skill_file, while links that stay inside still work.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DirSkills } from '@/engine/agent/skills/dir-skills';
import { SkillLibrary } from '@/engine/agent/skills/skill-library';
import { skillFilePath } from '@/engine/agent/skills/skill-paths';
import { classifyToolError, ToolPolicyError } from '@/engine/agent/tool-errors';
import { skillTools } from '@/engine/agent/tools/skill-tools';
import type { ToolContext } from '@/engine/node-kit/agent-services';

let root: string;
let outside: string;

beforeAll(() => {
  const base = mkdtempSync(path.join(tmpdir(), 'paiflow-skill-paths-'));
  root = path.join(base, 'skills');
  outside = path.join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET');
  const dir = path.join(root, 'notes');
  mkdirSync(path.join(dir, 'reference'), { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: notes\ndescription: Takes notes.\n---\nSee reference/a.md\n');
  writeFileSync(path.join(dir, 'reference', 'a.md'), 'inside A');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'leak.txt'));
  symlinkSync(outside, path.join(dir, 'linked-dir'));
  symlinkSync(path.join(dir, 'reference', 'a.md'), path.join(dir, 'alias.md'));
  // A sibling skill: one skill's path must not reach another's files either.
  mkdirSync(path.join(root, 'other'), { recursive: true });
  writeFileSync(path.join(root, 'other', 'SKILL.md'), '---\nname: other\ndescription: Other.\n---\nbody\n');
  writeFileSync(path.join(root, 'other', 'private.md'), 'OTHER PRIVATE');
});

const ESCAPES = [
  '../other/private.md',
  'reference/../../other/private.md',
  '../../outside/secret.txt',
  '/etc/passwd',
  'C:/Windows/win.ini',
  '..\\other\\private.md',
  '~/.ssh/id_rsa',
  '..',
  '',
];

describe('skillFilePath', () => {
  it.each(ESCAPES)('refuses %j', (p) => {
    expect(() => skillFilePath(p)).toThrow(ToolPolicyError);
  });

  it('normalises harmless forms', () => {
    expect(skillFilePath('./reference//a.md')).toBe('reference/a.md');
    expect(skillFilePath('reference/./a.md')).toBe('reference/a.md');
  });
});

describe('a SKILLS_DIR skill', () => {
  it('reads its own files, also through a link that stays inside', async () => {
    const dir = new DirSkills(root);
    expect(await dir.readFile('notes', 'reference/a.md')).toBe('inside A');
    expect(await dir.readFile('notes', 'alias.md')).toBe('inside A');
    expect(await dir.readFile('notes', 'missing.md')).toBeNull();
  });

  it.each(ESCAPES)('refuses the path %j', async (p) => {
    await expect(new DirSkills(root).readFile('notes', p)).rejects.toBeInstanceOf(ToolPolicyError);
  });

  it('refuses symbolic links that point out of the skill folder', async () => {
    const dir = new DirSkills(root);
    await expect(dir.readFile('notes', 'leak.txt')).rejects.toBeInstanceOf(ToolPolicyError);
    await expect(dir.readFile('notes', 'linked-dir/secret.txt')).rejects.toBeInstanceOf(ToolPolicyError);
  });

  it('lists no file reached through an outside link', async () => {
    const files = (await new DirSkills(root).files('notes')).map((f) => f.path);
    expect(files).toEqual(['alias.md', 'reference/a.md']);
  });
});

describe('read_skill_file', () => {
  const ctx = { signal: new AbortController().signal } as ToolContext;

  it('reports an escape as "policy denied" and never returns the outside text', async () => {
    const library = new SkillLibrary(new DirSkills(root), null);
    const allowed = await library.list('ws_any');
    const read = skillTools(library, 'ws_any', allowed).find((t) => t.name === 'read_skill_file')!;
    expect(await read.execute({ name: 'notes', path: 'reference/a.md' }, ctx)).toBe('inside A');
    for (const p of ['../other/private.md', '/etc/passwd', 'leak.txt', 'linked-dir/secret.txt']) {
      const err = await read.execute({ name: 'notes', path: p }, ctx).then(
        (v) => new Error(`returned ${String(v)}`),
        (e: unknown) => e,
      );
      expect(err, p).toBeInstanceOf(ToolPolicyError);
      expect(classifyToolError(err).text).toMatch(/^policy denied: /);
    }
  });
});
