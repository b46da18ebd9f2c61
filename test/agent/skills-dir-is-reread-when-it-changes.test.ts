// Guarantees: skills in SKILLS_DIR are listed without a restart as they are added, edited and removed; a folder
// with a broken SKILL.md, a name that differs from its folder, or a non-skill folder name is left out (and reported)
// without hiding the others; a missing SKILLS_DIR means no skills.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirSkills } from '@/engine/agent/skills/dir-skills';

const write = (root: string, folder: string, text: string, mtime?: Date) => {
  mkdirSync(path.join(root, folder), { recursive: true });
  const f = path.join(root, folder, 'SKILL.md');
  writeFileSync(f, text);
  if (mtime) utimesSync(f, mtime, mtime);
};
const md = (name: string, description: string, body = 'body') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe('DirSkills', () => {
  it('follows additions, edits and removals', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'paiflow-skills-dir-'));
    const dir = new DirSkills(root);
    expect(await dir.list()).toEqual([]);
    write(root, 'alpha', md('alpha', 'First version.'), new Date(1_000_000));
    expect((await dir.list()).map((s) => [s.name, s.description])).toEqual([['alpha', 'First version.']]);
    write(root, 'alpha', md('alpha', 'Second version!', 'new body'), new Date(2_000_000));
    write(root, 'beta', md('beta', 'Another.'));
    expect((await dir.list()).map((s) => [s.name, s.description])).toEqual([
      ['alpha', 'Second version!'],
      ['beta', 'Another.'],
    ]);
    expect((await dir.get('alpha'))?.body).toBe('new body\n');
    rmSync(path.join(root, 'beta'), { recursive: true });
    expect((await dir.list()).map((s) => s.name)).toEqual(['alpha']);
    expect(await dir.get('beta')).toBeNull();
  });

  it('leaves out broken folders, reports them, and keeps the good ones', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'paiflow-skills-dir-'));
    write(root, 'good', md('good', 'Works.'));
    write(root, 'broken', '# no front matter');
    write(root, 'mismatch', md('other-name', 'Wrong folder.'));
    write(root, 'Bad Folder', md('bad-folder', 'Bad folder name.'));
    mkdirSync(path.join(root, 'no-skill-md'));
    mkdirSync(path.join(root, '.hidden'));
    writeFileSync(path.join(root, 'loose-file.md'), 'not a folder');
    const dir = new DirSkills(root);
    expect((await dir.list()).map((s) => s.name)).toEqual(['good']);
    const problems = dir.problems().map((p) => [p.code, p.path]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['SKILL_INVALID', 'SKILLS_DIR/broken/SKILL.md'],
        ['SKILL_INVALID', 'SKILLS_DIR/mismatch/SKILL.md.name'],
        ['SKILL_INVALID', 'SKILLS_DIR/Bad Folder'],
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it('has no skills when the folder does not exist', async () => {
    const dir = new DirSkills(path.join(tmpdir(), 'paiflow-no-such-skills-dir-xyz'));
    expect(await dir.list()).toEqual([]);
    expect(await dir.get('anything')).toBeNull();
    expect(await dir.readFile('anything', 'a.md')).toBeNull();
  });
});
