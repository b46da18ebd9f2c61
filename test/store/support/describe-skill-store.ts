/**
 * The SkillUploadStore conformance suite (engine/agent/skills/types.ts), written once and run on every database kind
 * (test/store/skills-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillUploadStore } from '@/engine/agent/skills/types';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

const SKILL_MD = '---\nname: summarise\ndescription: 总结长文\n---\n先读全文，再写三句话的摘要。';

export function describeSkillStore(label: string, open: StoresFactory) {
  describe(`SkillUploadStore conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let skills: SkillUploadStore;
    const ws = DEFAULT_WORKSPACE_ID;
    let wsB = '';

    beforeAll(async () => {
      under = await open();
      skills = under.stores.skills;
      wsB = (await newWorkspace(under.stores)).workspaceId;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    it('put keeps the skill and its files exactly (Chinese text, byte sizes), sorted by path', async () => {
      const files = { 'scripts/run.py': 'print("你好")\n', 'reference.md': '# Ref\n' };
      const put = await skills.put(ws, { name: 'summarise', description: '总结长文', skillMd: SKILL_MD, files }, 'u1');
      expect(put).toEqual({ created: true });
      const got = await skills.get(ws, 'summarise');
      expect(got).toMatchObject({ name: 'summarise', description: '总结长文', skillMd: SKILL_MD });
      expect(got!.body).toContain('先读全文');
      expect(got!.body).not.toContain('description:');
      expect(got!.files).toEqual([
        { path: 'reference.md', bytes: 6 },
        { path: 'scripts/run.py', bytes: Buffer.byteLength(files['scripts/run.py']) },
      ]);
      expect(Number.isNaN(Date.parse(got!.updatedAt))).toBe(false);
      expect(await skills.file(ws, 'summarise', 'scripts/run.py')).toBe('print("你好")\n');
      expect(await skills.file(ws, 'summarise', 'missing.md')).toBeNull();
      expect(await skills.file(ws, 'nope', 'reference.md')).toBeNull();
    });

    it('a second put replaces the description and every file', async () => {
      const put = await skills.put(ws, {
        name: 'summarise',
        description: 'v2',
        skillMd: SKILL_MD.replace('总结长文', 'v2'),
        files: { 'new.txt': 'only this' },
      });
      expect(put).toEqual({ created: false });
      const got = (await skills.get(ws, 'summarise'))!;
      expect(got.description).toBe('v2');
      expect(got.files).toEqual([{ path: 'new.txt', bytes: 9 }]);
      expect(await skills.file(ws, 'summarise', 'reference.md')).toBeNull();
    });

    it('lists by name, counts, deletes; another workspace has none of them', async () => {
      await skills.put(ws, { name: 'alpha', description: 'a', skillMd: '---\nname: alpha\n---\nA', files: {} });
      expect((await skills.list(ws)).map((s) => s.name)).toEqual(['alpha', 'summarise']);
      expect(await skills.count(ws)).toBe(2);
      expect(await skills.list(wsB)).toEqual([]);
      expect(await skills.count(wsB)).toBe(0);
      expect(await skills.get(wsB, 'alpha')).toBeNull();
      expect(await skills.file(wsB, 'summarise', 'new.txt')).toBeNull();
      expect(await skills.delete(wsB, 'alpha')).toBe(false);
      // The same name in another workspace is another skill.
      expect(await skills.put(wsB, { name: 'alpha', description: 'b', skillMd: 'B', files: {} })).toEqual({
        created: true,
      });
      expect(await skills.delete(ws, 'alpha')).toBe(true);
      expect(await skills.delete(ws, 'alpha')).toBe(false);
      expect((await skills.get(wsB, 'alpha'))?.description).toBe('b');
      expect(await skills.count(ws)).toBe(1);
    });
  });
}
