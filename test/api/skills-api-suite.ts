/**
 * The skills API contract, run on the embedded database (the store on both: the SkillUploadStore conformance suite):
 * over the HTTP API, editors upload, replace and delete a workspace's skills and viewers only read them; SKILLS_DIR
 * skills are listed for every workspace (read-only); a workspace upload of the same name wins over the folder skill
 * for that workspace only; another workspace's upload is 404 to read or delete; a bad SKILL.md or file path is 400
 * SKILL_INVALID with the path and saves nothing; no answer is ever a 500. The Agent node's services get the same
 * skills.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE as deleteSkill, GET as getSkill } from '@/app/api/skills/[name]/route';
import { GET as listSkills, POST as uploadSkill } from '@/app/api/skills/route';
import { getApp } from '@/lib/server/app';
import { createTenancy, type Tenancy } from '../auth/support/tenancy';
import { call, expectError, expectNoServerErrorsOrStacks } from './api-helpers';

/** Call after pointing the app at a fresh database (useFreshDataDir, DATABASE_URL…) and before its first use. */
export function skillsApiSuite(onClose?: () => Promise<void>) {
  const skillsDir = mkdtempSync(path.join(tmpdir(), 'paiflow-skills-api-dir-'));
  process.env.SKILLS_DIR = skillsDir;
  process.env.SEED_EXAMPLE = '0';
  for (const [name, description, body] of [
    ['house-style', 'Applies the house writing style.', 'DIR-HOUSE-BODY'],
    ['sql-review', 'Reviews SQL queries.', 'DIR-SQL-BODY'],
  ]) {
    mkdirSync(path.join(skillsDir, name, 'reference'), { recursive: true });
    writeFileSync(
      path.join(skillsDir, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`,
    );
    writeFileSync(path.join(skillsDir, name, 'reference', 'guide.md'), `guide of ${name}`);
  }

  const skillMd = (name: string, description: string, body: string) =>
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

  let t: Tenancy;
  beforeAll(async () => {
    t = await createTenancy();
  }, 120_000);
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await onClose?.();
  });

  const list = (headers: Record<string, string>) => call(listSkills, 'GET', '/api/skills', { headers });
  const get = (headers: Record<string, string>, name: string) =>
    call(getSkill, 'GET', `/api/skills/${encodeURIComponent(name)}`, { headers, params: { name } });
  const del = (headers: Record<string, string>, name: string) =>
    call(deleteSkill, 'DELETE', `/api/skills/${encodeURIComponent(name)}`, { headers, params: { name } });
  const upload = (headers: Record<string, string>, files: unknown) =>
    call(uploadSkill, 'POST', '/api/skills', { headers, body: { files } });

  describe('SKILLS_DIR skills', () => {
    it('are listed for every workspace with their source and files, and can be read', async () => {
      for (const h of [t.viewerA.headers, t.ownerB.headers]) {
        const a = await list(h);
        expect(a.status, a.text).toBe(200);
        expect(a.body.map((s: any) => [s.name, s.source])).toEqual([
          ['house-style', 'dir'],
          ['sql-review', 'dir'],
        ]);
        expect(a.body[0].files).toEqual([{ path: 'reference/guide.md', bytes: 'guide of house-style'.length }]);
      }
      const one = await get(t.viewerA.headers, 'sql-review');
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ name: 'sql-review', source: 'dir', body: 'DIR-SQL-BODY\n' });
    });

    it('are read-only over the API', async () => {
      expectError(await del(t.editorA.headers, 'sql-review'), 409, 'SKILL_READ_ONLY');
      expect((await get(t.editorA.headers, 'sql-review')).status).toBe(200);
    });
  });

  describe('workspace uploads', () => {
    it('an editor uploads a skill with files; everyone in the workspace reads it', async () => {
      const up = await upload(t.editorA.headers, {
        'SKILL.md': skillMd('release-notes', 'Writes release notes from a changelog.', 'A-RELEASE-BODY'),
        'reference/template.md': '## Template',
        'scripts/check.sh': 'echo ok',
      });
      expect(up.status, up.text).toBe(201);
      expect(up.body).toMatchObject({ name: 'release-notes', source: 'workspace', body: 'A-RELEASE-BODY\n' });
      const listed = (await list(t.viewerA.headers)).body.find((s: any) => s.name === 'release-notes');
      expect(listed).toMatchObject({ source: 'workspace', description: 'Writes release notes from a changelog.' });
      expect(listed.files.map((f: any) => f.path)).toEqual(['reference/template.md', 'scripts/check.sh']);
      const one = await get(t.viewerA.headers, 'release-notes');
      expect(one.status).toBe(200);
      expect(one.body.body).toBe('A-RELEASE-BODY\n');
      const app = await getApp();
      expect(await app.skills.library.readFile(t.workspaceA, 'release-notes', 'reference/template.md')).toBe(
        '## Template',
      );
    });

    it('uploading the same name again replaces the skill and all its files (200)', async () => {
      const again = await upload(t.editorA.headers, {
        'SKILL.md': skillMd('release-notes', 'Writes release notes, v2.', 'A-RELEASE-BODY-V2'),
        'reference/template-v2.md': 'v2',
      });
      expect(again.status, again.text).toBe(200);
      expect(again.body.files.map((f: any) => f.path)).toEqual(['reference/template-v2.md']);
      const app = await getApp();
      expect(await app.skills.library.readFile(t.workspaceA, 'release-notes', 'reference/template.md')).toBeNull();
      expect(await app.skills.library.body(t.workspaceA, 'release-notes')).toBe('A-RELEASE-BODY-V2\n');
    });

    it('a viewer may not upload or delete', async () => {
      const files = { 'SKILL.md': skillMd('viewer-skill', 'Nope.', 'x') };
      expectError(await upload(t.viewerA.headers, files), 403, 'FORBIDDEN');
      expectError(await del(t.viewerA.headers, 'release-notes'), 403, 'FORBIDDEN');
      expect((await get(t.viewerA.headers, 'viewer-skill')).status).toBe(404);
      expect((await get(t.viewerA.headers, 'release-notes')).status).toBe(200);
    });

    it('a bad SKILL.md or path is 400 SKILL_INVALID with the path, and nothing is saved', async () => {
      const before = (await list(t.editorA.headers)).body.length;
      const h = t.editorA.headers;
      expectError(
        await upload(h, { 'SKILL.md': skillMd('Bad Name', 'x', 'y') }),
        400,
        'SKILL_INVALID',
        'files["SKILL.md"].name',
      );
      expectError(
        await upload(h, { 'SKILL.md': '---\nname: no-description\n---\nbody' }),
        400,
        'SKILL_INVALID',
        'files["SKILL.md"].description',
      );
      expectError(await upload(h, { 'SKILL.md': '# no front matter' }), 400, 'SKILL_INVALID', 'files["SKILL.md"]');
      expectError(await upload(h, { 'notes.md': 'x' }), 400, 'SKILL_INVALID', 'files["SKILL.md"]');
      expectError(
        await upload(h, { 'SKILL.md': skillMd('escape', 'x', 'y'), '../outside.md': 'x' }),
        400,
        'SKILL_INVALID',
        'files["../outside.md"]',
      );
      expectError(await upload(h, undefined), 400, 'SKILL_INVALID', 'files');
      const raw = { headers: { ...h, 'content-type': 'application/json' }, raw: 'not json' };
      expectError(await call(uploadSkill, 'POST', '/api/skills', raw), 400, 'INVALID_JSON');
      expect((await list(h)).body.length).toBe(before);
      expect((await get(h, 'escape')).status).toBe(404);
    });

    it('unknown and malformed names are 404', async () => {
      expectError(await get(t.viewerA.headers, 'no-such-skill'), 404, 'SKILL_NOT_FOUND');
      expectError(await get(t.viewerA.headers, '../house-style'), 404, 'SKILL_NOT_FOUND');
      expectError(await del(t.editorA.headers, 'no-such-skill'), 404, 'SKILL_NOT_FOUND');
    });
  });

  describe('a workspace upload named like a SKILLS_DIR skill', () => {
    it('wins for its workspace only, and the folder skill returns when it is deleted', async () => {
      const up = await upload(t.editorA.headers, {
        'SKILL.md': skillMd('house-style', 'Our own house style.', 'A-HOUSE-BODY'),
      });
      expect(up.status, up.text).toBe(201);
      expect(up.body).toMatchObject({ source: 'workspace', shadows: true });
      const a = (await list(t.viewerA.headers)).body.filter((s: any) => s.name === 'house-style');
      expect(a).toEqual([expect.objectContaining({ source: 'workspace', description: 'Our own house style.' })]);
      const b = (await list(t.ownerB.headers)).body.filter((s: any) => s.name === 'house-style');
      expect(b).toEqual([expect.objectContaining({ source: 'dir', description: 'Applies the house writing style.' })]);

      // What agents read follows the same rule (and an upload replaces the folder skill's files too).
      const { skills, agent } = await getApp();
      expect(agent.skills).toBe(skills.library);
      expect(await skills.library.body(t.workspaceA, 'house-style')).toBe('A-HOUSE-BODY\n');
      expect(await skills.library.body(t.workspaceB, 'house-style')).toBe('DIR-HOUSE-BODY\n');
      expect(await skills.library.readFile(t.workspaceA, 'house-style', 'reference/guide.md')).toBeNull();
      expect(await skills.library.readFile(t.workspaceB, 'house-style', 'reference/guide.md')).toBe(
        'guide of house-style',
      );

      expect((await del(t.editorA.headers, 'house-style')).status).toBe(204);
      const back = (await list(t.viewerA.headers)).body.find((s: any) => s.name === 'house-style');
      expect(back).toMatchObject({ source: 'dir', description: 'Applies the house writing style.' });
    });
  });

  describe('another workspace', () => {
    it("cannot see, read or delete A's uploads, and its own upload of that name stays apart", async () => {
      const b = t.ownerB.headers;
      expect((await list(b)).body.map((s: any) => s.name)).not.toContain('release-notes');
      expectError(await get(b, 'release-notes'), 404, 'SKILL_NOT_FOUND');
      expectError(await del(b, 'release-notes'), 404, 'SKILL_NOT_FOUND');
      // B names A's workspace explicitly: not a member there → not found.
      const asA = { ...b, 'x-workspace-id': t.workspaceA };
      expect((await list(asA)).status).toBe(404);

      const mine = await upload(b, { 'SKILL.md': skillMd('release-notes', 'B notes.', 'B-RELEASE-BODY') });
      expect(mine.status, mine.text).toBe(201);
      const app = await getApp();
      expect(await app.skills.library.body(t.workspaceA, 'release-notes')).toBe('A-RELEASE-BODY-V2\n');
      expect(await app.skills.library.body(t.workspaceB, 'release-notes')).toBe('B-RELEASE-BODY\n');
      expect((await del(b, 'release-notes')).status).toBe(204);
      expect((await get(t.viewerA.headers, 'release-notes')).body.body).toBe('A-RELEASE-BODY-V2\n');
      expect((await app.skills.library.list(t.workspaceA)).map((s) => s.name)).toEqual([
        'house-style',
        'release-notes',
        'sql-review',
      ]);
    });

    it('an editor deletes the upload (204), then it is gone', async () => {
      expect((await del(t.editorA.headers, 'release-notes')).status).toBe(204);
      expectError(await get(t.viewerA.headers, 'release-notes'), 404, 'SKILL_NOT_FOUND');
    });
  });
}
